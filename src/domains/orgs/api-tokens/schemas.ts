import { Type } from 'typebox';
import { EmptyRequest, EnvelopeResponse, Field, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';

export const AUTH_TYPES = ['API_TOKEN', 'CERT'] as const;
export const CLIENT_TYPES = [
  'PARTNER_DEVELOPER',
  'DEVELOPER',
  'INTERNAL_SALESFORCE',
  'TVOS',
  'KIOSK',
  'KEYPAD',
  'SQUARE',
  'KISI',
  'OPENPATH',
  'TOAST',
  'BRIVO',
  'EXECUTABLE',
  'HALO',
  'SALTO',
  'BUTTERFLYMX',
  'GENEA',
  'PRODATAKEY',
  'ENVOY',
  'AMT',
  'PIMLOC',
  'PLACEOS',
  'OMNIALERT',
  'FLIC',
  'NINEONEONECELLULAR',
  'CHATBOT',
  'UNKNOWN',
] as const;
export type ClientType = (typeof CLIENT_TYPES)[number];

const Csr = Type.String({ maxLength: 16_384, description: 'A PKCS#10 certificate request, PEM (CERT only)' });
const applicationFields = {
  authType: Field(StringEnum(AUTH_TYPES, 'API_TOKEN (default): an API key; CERT: an API key bound to a client certificate signed for the csr')),
  csr: Field(Csr),
  displayName: Field(Type.String({ maxLength: 200 })),
};

/** The catalogue's submitApiTokenApplication: the permission group is required. */
export const SubmitApplicationRequest = Type.Object({ ...applicationFields, permissionGroupUuid: RefUuid('permissionGroup') });
/** The platform CLI's org/submitApiTokenApplication: no permission group (the key acts as its caller's user). */
export const SubmitOrgApplicationRequest = Type.Object({ ...applicationFields, permissionGroupUuid: Field(RefUuid('permissionGroup')) });
/** The platform CLI's partner/submitApiTokenApplication: a partner key; a partner group is not a customer permission group. */
export const SubmitPartnerApplicationRequest = Type.Object({ ...applicationFields, permissionGroupUuid: Field(NotRef('handler', Ruuid())) });

export const SubmitApplicationResponse = ResponseOf({
  apiKey: Field(Type.String({ description: 'The new API key: answered this once' })),
  cert: Field(Type.String({ description: 'CERT: the client certificate, then the signing authority, PEM' })),
  validCSR: Field(Type.Boolean()),
});

const Token = {
  tokenUuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  displayName: Field(Type.String()),
  authType: Field(StringEnum(AUTH_TYPES)),
  clientType: Field(StringEnum(CLIENT_TYPES)),
  permissionGroupUuid: Field(Ruuid()),
  csr: Field(Type.String()),
  clientDetails: Field(Type.Record(Type.String(), Type.String())),
};

export const GetApiTokensRequest = Type.Object({ optionalFilter: Field(Type.Array(StringEnum(CLIENT_TYPES), { maxItems: CLIENT_TYPES.length })) });
export const GetApiTokensResponse = ResponseOf({
  apiTokens: Field(Type.Array(Type.Object({ ...Token, cert: Field(Type.String()), certFingerprint: Field(Type.String()), hashed: Field(Type.Boolean()) }))),
});
export const GetApplicationsRequest = EmptyRequest;
export const GetApplicationsResponse = ResponseOf({ applications: Field(Type.Array(Type.Object(Token))) });
export const RevokeApiTokenRequest = Type.Object({
  tokenUuid: NotRef('handler', Ruuid({ description: 'The tokenUuid of one of the API tokens of the organization' })),
});
export const ValidateTokenRequest = EmptyRequest;
export const ApiTokenEnvelope = EnvelopeResponse;

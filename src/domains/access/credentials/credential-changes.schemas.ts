import { Type, type TSchema } from 'typebox';
import { Field, Nullable, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { CREDENTIAL_TYPE_NAMES } from './credential-formats.js';
import { WIEGAND_FORMATS, type FieldsKind } from './credential-types.js';
import { AccessControlCredential, CredentialQueryFilter } from '../schemas.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';

const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const Count = (description: string) => Opt(Type.Integer({ minimum: 0, maximum: 2 ** 53 - 1, description }));
const Hex = Type.String({ minLength: 1, maxLength: 128, description: 'the hex value a reader reports (a PIN: its digits)' });

export const CredentialResponse = ResponseOf({ credential: Field(AccessControlCredential) });
export const CredentialsResponse = ResponseOf({ credentials: Field(Type.Array(AccessControlCredential)) });
export const EmptyResponse = ResponseOf({});

/** What every creator takes besides its value fields. */
const common = {
  startDateEpochSecInclusive: Opt(Type.Integer({ description: 'epoch seconds, inclusive' })),
  endDateEpochSecExclusive: Opt(Type.Integer({ description: 'epoch seconds, exclusive' })),
  userUuid: Opt(RefUuid('user', { description: 'the holder; without one the credential is UNASSIGNED', notFound: true })),
};

const facilityCode = Count('facility code');
const companyId = Count('company id (Corporate 1000)');
const cardNumber = Count('card number');
const value = Opt(Type.String({ maxLength: 80, description: 'the raw value, in decimal' }));
const credentialValue = Opt(Type.String({ maxLength: 128, description: 'the card serial number, in hexadecimal' }));

/** Each creator's request by its fields kind (credential-types.ts). */
export const CREATOR_REQUESTS: Record<FieldsKind, TSchema> = {
  facilityCard: Type.Object({ facilityCode, cardNumber, ...common }),
  companyCard: Type.Object({ companyId, cardNumber, ...common }),
  raw64: Type.Object({ value, ...common }),
  csn: Type.Object({ credentialValue, ...common }),
  wiegand: Type.Object({
    wiegandFormat: StringEnum(Object.keys(WIEGAND_FORMATS), 'HID_CORP1000_STD_35/48 are the catalogue names of VENDOR_CORP1000_STD_35/48'),
    facilityCode,
    siteCode: Count('the facility code, by another name'),
    companyId,
    cardNumber,
    value,
    ...common,
  }),
};

export const UpdateCredentialWindowRequest = Type.Object({
  credentialUuid: NotRef('handler', Ruuid()),
  startDateEpochSecInclusive: common.startDateEpochSecInclusive,
  endDateEpochSecExclusive: common.endDateEpochSecExclusive,
});
export const CredentialUuidRequest = Type.Object({ credentialUuid: NotRef('handler', Ruuid()) });

export const AssignAccessControlCredentialRequest = Type.Object({ credentialHexValue: Hex, userUuid: RefUuid('user', { notFound: 'User {id}' }) });
export const UpdateAccessControlCredentialNoteRequest = Type.Object({ credentialUuid: NotRef('handler', Ruuid()), note: Type.String({ maxLength: 1000 }) });
export const DeleteUnassignedAccessControlCredentialRequest = Type.Object({ credentialHexValue: Hex });
export const FindAccessControlCredentialByUsersRequest = Type.Object({
  userUuids: Type.Array(RefUuid('user', { notFound: 'User {id}' }), { maxItems: 1000 }),
  filter: Opt(CredentialQueryFilter),
});
export const FindAccessControlCredentialByUsersResponse = ResponseOf({
  userCredentialsMap: Field(Type.Record(Type.String(), Type.Array(AccessControlCredential), { description: 'user uuid to the credentials the user holds' })),
});

export const FindCredentialHistoryByCredentialHexValueRequest = Type.Object({ credentialHexValue: Hex, filter: Opt(CredentialQueryFilter) });
export const FindCredentialHistoryByCredentialValueRequest = Type.Object({
  credentialType: StringEnum(CREDENTIAL_TYPE_NAMES),
  credentialValue: Type.String({ minLength: 1, maxLength: 128, description: 'the decoded value (facility:card, the decimal raw value, the hex, the PIN)' }),
  filter: Opt(CredentialQueryFilter),
});
export const FindCredentialHistoryByUserRequest = Type.Object({ userUuid: RefUuid('user', { notFound: 'User {id}' }), filter: Opt(CredentialQueryFilter) });

import { Type } from 'typebox';
import { EmptyRequest, Field, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { NotRef } from '../../../schemas/record-kinds.js';

const Opt = Field;
const Bool = Type.Boolean();

/** Rhombus Key app settings that SAML and SCIM give the users they provision. */
export const RhombusKeyAppSettings = Type.Object({
  bypassSaml: Opt(Bool),
  remoteUnlockEnabled: Opt(Bool),
  rhombusKeyAccessEnabled: Opt(Bool),
  credentialProvisioningRules: Opt(
    Type.Object({
      maxMobileCredsAllowed: Opt(Type.Integer({ minimum: 0, maximum: 100 })),
      startDateProvisioner: Opt(Type.Object({ value: Opt(Type.Integer()) })),
      endDateProvisioner: Opt(Type.Object({ value: Opt(Type.Integer()) })),
    }),
  ),
});

/** A SAML sign-in registration (the reference's SAML settings). */
export const SamlSettings = Type.Object({
  registrationUuid: Opt(NotRef('handler', Ruuid())),
  orgUuid: Opt(NotRef('callerOrg', Ruuid())),
  domain: Opt(StringEnum(['RHOMBUS_COM', 'RHOMBUS_SYSTEMS_COM'] as const)),
  enabled: Opt(Bool),
  enabledForRhombusKey: Opt(Bool),
  idpMetaDataXml: Opt(Type.String({ maxLength: 200_000 })),
  justInTimeAccountProvisioningEnabled: Opt(Bool),
  addUsersOnRoleMismatch: Opt(Bool),
  teamName: Opt(Type.String({ maxLength: 100 })),
  rhombusKeyAppSettings: Opt(RhombusKeyAppSettings),
});

export const GetSamlSettingsRequest = EmptyRequest;
export const GetSamlSettingsResponse = ResponseOf({ samlSettings: Field(SamlSettings) });
export const GetSamlSettingsV2Response = ResponseOf({ samlSettings: Field(Type.Array(SamlSettings)) });
export const UpdateSamlSettingsRequest = Type.Object({ samlSettings: SamlSettings });
export const UpdateSamlSettingsV2Request = Type.Object({ samlSettings: Type.Array(SamlSettings, { maxItems: 10 }) });
export const SsoEnvelope = ResponseOf({});

const scimFields = {
  addUsersOnRoleMismatch: Opt(Bool),
  rhombusKeyAppSettings: Opt(RhombusKeyAppSettings),
  sendWelcomeEmailToNewRhombusKeyUsers: Opt(Bool),
  sendWelcomeEmailToNewUsers: Opt(Bool),
};
export const ScimSettingsRequest = Type.Object(scimFields);
export const ScimSettings = Type.Object({
  ...scimFields,
  orgUuid: Field(Ruuid()),
  forceRolesStrictSchemaFormat: Field(Bool),
  rolesFormat: Field(StringEnum(['LIST_OF_STRINGS', 'LIST_OF_MULTI_VALUED_ATTRIBUTES'] as const)),
  createdAtMillis: Field(Type.Integer()),
  updatedAtMillis: Field(Type.Integer()),
});
export const FindScimSettingsRequest = EmptyRequest;
export const FindScimSettingsResponse = ResponseOf({ scimSettings: Field(ScimSettings) });
export const SetupScimResponse = ResponseOf({
  token: Field(Type.String({ description: 'the SCIM token: answered this once, kept sealed' })),
  scimAccessAlreadySetupFailure: Field(Bool),
});
export const RevokeScimRequest = EmptyRequest;
export const GetScimDisplayInfoRequest = EmptyRequest;
export const GetScimDisplayInfoResponse = ResponseOf({
  scimEndpointUrl: Field(Type.String({ description: 'null until SCIM access is set up' })),
  azureScimEndpointUrl: Field(Type.String({ description: 'null until SCIM access is set up' })),
});

import { Type } from 'typebox';
import { EmptyRequest, Field, MAX_EPOCH_MS, Own, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { PartnerNotificationSettings, SmsPhoneNumbers } from './notification-settings.schemas.js';
import { MAX_VALUE_LENGTH, VALUE_TYPES } from './user-metadata.service.js';
import { ListedUser } from './schemas.js';
import { NotRef } from '../../../schemas/record-kinds.js';

const Opt = Field;
const Int = Type.Integer();

// --- User metadata (custom fields) ---

const ValueType = StringEnum(VALUE_TYPES, 'Gatehouse: the kind of value (default TEXT); saved values are checked against it');
const AllowedValues = Type.Array(Type.String({ maxLength: MAX_VALUE_LENGTH }), { maxItems: 500, description: 'Gatehouse: the only values allowed' });
const MaxLength = Type.Integer({ minimum: 1, maximum: MAX_VALUE_LENGTH, description: `Gatehouse: the longest value (default ${MAX_VALUE_LENGTH})` });
const templateFields = {
  fieldName: Opt(Type.String({ minLength: 1, maxLength: 100 })),
  scimFieldName: Opt(Type.String({ maxLength: 200 })),
  valueType: Opt(ValueType),
  allowedValues: Opt(AllowedValues),
  maxLength: Opt(MaxLength),
};
const VALUE_RULE = "a rule of the template's values: the template's create and update take it, and saved values are checked against it";
export const MetadataTemplate = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  ...templateFields,
  valueType: Opt(Own(ValueType, VALUE_RULE)),
  allowedValues: Opt(Own(AllowedValues, VALUE_RULE)),
  maxLength: Opt(Own(MaxLength, VALUE_RULE)),
  createdAtMillis: Field(Int),
  updatedAtMillis: Field(Int),
});
export const MetadataField = Type.Object({
  orgUuid: Field(Ruuid()),
  userUuid: Field(Ruuid()),
  templateUuid: Field(Ruuid()),
  fieldValue: Field(Type.String()),
  createdAtMillis: Field(Int),
  updatedAtMillis: Field(Int),
});
export const CreateTemplateRequest = Type.Object({ template: Type.Object({ ...templateFields, fieldName: Type.String({ minLength: 1, maxLength: 100 }) }) });
export const UpdateTemplateRequest = Type.Object({
  selectiveUpdate: Type.Object({ uuid: NotRef('subject', Ruuid()), ...templateFields, updatedSetMethodMap: Opt(Type.Record(Type.String(), Type.Boolean())) }),
});
export const TemplateUuidRequest = Type.Object({ templateUuid: NotRef('handler', Ruuid()) });
export const TemplateResponse = ResponseOf({ template: Field(MetadataTemplate) });
export const FindTemplatesRequest = EmptyRequest;
export const TemplateMapResponse = ResponseOf({ templateMap: Field(Type.Record(Type.String(), MetadataTemplate)) });
export const SaveFieldsRequest = Type.Object({
  userUuid: NotRef('handler', Ruuid()),
  fieldValueMap: Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: MAX_VALUE_LENGTH }), {
    description: 'template uuid (or field name) to value',
  }),
});
export const FieldsRequest = Type.Object({ userUuid: NotRef('handler', Ruuid()) });
export const FieldsResponse = ResponseOf({
  templateMap: Field(Type.Record(Type.String(), MetadataTemplate)),
  userFieldValueMap: Field(Type.Record(Type.String(), MetadataField)),
});
export const DeleteFieldRequest = Type.Object({ userUuid: NotRef('handler', Ruuid()), templateUuid: NotRef('handler', Ruuid()) });
export const DeleteFieldResponse = ResponseOf({ field: Field(MetadataField) });

// --- Rhombus Key settings ---

/** The catalogue's EpochSecondsProvisioner: one kind, a fixed date in epoch seconds (kept in milliseconds). */
export const PROVISIONER_TYPE = 'StaticEpochSecondsProvisioner' as const;
const provisionerValue = Type.Integer({ minimum: 0, maximum: MAX_EPOCH_MS / 1000, description: 'epoch seconds' });
const ProvisionerInput = Type.Object({ type: Opt(StringEnum([PROVISIONER_TYPE])), value: Opt(provisionerValue) });
const Provisioner = Type.Object({ type: Type.Literal(PROVISIONER_TYPE), value: Field(provisionerValue) });
export const RhombusKeySettingsRequest = Type.Object({
  userUuid: NotRef('handler', Ruuid()),
  rhombusKeyAccessEnabled: Opt(Type.Boolean()),
  remoteUnlockEnabled: Opt(Type.Boolean()),
  bypassSaml: Opt(Type.Boolean()),
  maxMobileCredsAllowed: Opt(Type.Integer({ minimum: 0, maximum: 100 })),
  startDateProvisioner: Opt(ProvisionerInput),
  endDateProvisioner: Opt(ProvisionerInput),
});
export const RhombusKeySettingsResponse = ResponseOf({
  userRhombusKeyConfig: Field(
    Type.Object({
      orgUuid: Field(Ruuid()),
      rhombusOrgUserUuid: Field(Ruuid()),
      createdAtMillis: Field(Int),
      updatedAtMillis: Field(Int),
      settings: Field(
        Type.Object({
          rhombusKeyAccessEnabled: Field(Type.Boolean()),
          remoteUnlockEnabled: Field(Type.Boolean()),
          bypassSaml: Field(Type.Boolean()),
          credentialProvisioningRules: Field(
            Type.Object({ maxMobileCredsAllowed: Field(Int), startDateProvisioner: Field(Provisioner), endDateProvisioner: Field(Provisioner) }),
          ),
        }),
      ),
    }),
  ),
});

// --- Partner users ---

export const GetPartnerUsersRequest = EmptyRequest;
export const GetPartnerUsersResponse = ResponseOf({
  partnerUsers: Field(Type.Array(ListedUser)),
  partnerPermissions: Field(Type.Array(Type.Object({ userUuid: Field(Ruuid()), orgUuid: Field(Ruuid()), groupUuid: Field(Ruuid()) }))),
  notificationSettingsV2: Field(Type.Array(Type.Object({ ...PartnerNotificationSettings.properties, orgUuid: Field(Ruuid()), userUuid: Field(Ruuid()) }))),
});
export const UpdatePartnerUserRequest = Type.Object({
  userUuid: NotRef('handler', Ruuid()),
  name: Opt(Type.String({ minLength: 1, maxLength: 200 })),
  permissionGroupUuid: Opt(NotRef('handler', Ruuid({ description: 'the partner permission group' }))),
  mfaEnabled: Opt(Type.Boolean()),
  bypassSaml: Opt(Type.Boolean()),
  smsPhoneNumbers: Opt(SmsPhoneNumbers),
  summaryEmailEnabled: Opt(Type.Boolean()),
  notificationSettingsV2: Opt(PartnerNotificationSettings),
});
export const UpdatePartnerUserNotificationsRequest = Type.Object({
  ...PartnerNotificationSettings.properties,
  userUuid: Opt(NotRef('handler', Ruuid({ description: "the partner user; absent: the key's own" }))),
  orgUuid: Opt(NotRef('otherOrg', Ruuid())),
  updatedSetMethodMap: Opt(Type.Record(Type.String(), Type.Boolean())),
});
export const UserExtrasEnvelope = ResponseOf({});

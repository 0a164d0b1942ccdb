import { Type, type Static } from 'typebox';
import { EmptyRequest, Field, Own, ResponseOf, Ruuid, StringEnum } from '../../schemas/common.js';

const Str = Type.String();
const Bool = Type.Boolean();
const Int = Type.Integer();

/** The firmware update window (minutes of the week, 0 = Monday 00:00) and mode. */
export const FirmwareUpdateSettings = Type.Object({
  mode: StringEnum(['MANUAL', 'SCHEDULED'] as const),
  intervalsV2: Type.Array(Type.Object({ minuteOfWeekStart: Type.Integer(), minuteOfWeekStop: Type.Integer() }), { maxItems: 100 }),
});
export const FirmwareOverride = Type.Object({
  deviceTypes: Type.Array(Type.String({ pattern: '^[A-Z_]{1,40}$' }), { maxItems: 20 }),
  firmwareUpdateSettings: FirmwareUpdateSettings,
});
export const UapSettings = Type.Object({ enabled: Bool, text: Field(Type.String({ maxLength: 10_000 })) });

/** The organization record (the reference's OrgV2Type / OrgType, with the fields Gatehouse keeps). */
export const Org = Type.Object({
  uuid: Ruuid(),
  name: Field(Str),
  teamName: Field(Str),
  type: Field(StringEnum(['PARTNER', 'CUSTOMER', 'UNKNOWN'] as const)),
  createdAtMillis: Field(Int),
  deleted: Field(Bool),
  address1: Field(Str),
  address2: Field(Str),
  postalCode: Field(Str),
  countryCode: Field(Str),
  accountOwnerEmail: Field(Str),
  accountBillingContactEmail: Field(Str),
  accountTechnicalContactEmail: Field(Str),
  accountTechnicalContacts: Field(Type.Array(Str)),
  defaultPlayerViewLiveType: Field(StringEnum(['REALTIME', 'BUFFERED'] as const)),
  inactivityTimeout: Field(Int),
  uapSettings: Field(UapSettings),
  itemizedInvoice: Field(Bool),
  mfaEnabled: Field(Bool),
  v3AuthNumDaysSkip2FAForTrustedDevices: Field(Int),
  firmwareUpdateSettings: Field(FirmwareUpdateSettings),
  firmwareUpdateSettingsOverrides: Field(Type.Array(FirmwareOverride)),
  shareAiTrainingMediaWithRhombus: Field(Bool),
  audioAnalysisEnabled: Field(Bool),
  audioRecordingEnabled: Field(Bool),
  llmUsageEnabled: Field(Bool),
  companyLogoUuid: Field(Ruuid()),
  companyLogoUrl: Field(Str),
  keypadLogoUuid: Field(Ruuid()),
  keypadLogoUrl: Field(Str),
  rhombusKeyLogoUuid: Field(Ruuid()),
  rhombusKeyLogoUrl: Field(Str),
});

/** A video setting a camera model offers: its resolution (the catalogue's VideoConfigurationOption, with what Gatehouse keeps). */
const VideoConfigurationOption = Type.Object({ resolution: Field(Type.Object({ width: Field(Int), height: Field(Int) })) });
export type CameraConfigOptions = Record<string, Array<Static<typeof VideoConfigurationOption>>>;

/** The reference's OrgV2Type: the record without the team name, which getOrg (OrgType) answers. */
export const OrgV2 = Type.Omit(Org, ['teamName']);

/** The reference's OrgType (getOrg, deprecated): the older, shorter record, with the team name. */
export const OrgType = Type.Pick(Org, [
  'uuid',
  'name',
  'teamName',
  'type',
  'createdAtMillis',
  'address1',
  'address2',
  'postalCode',
  'countryCode',
  'accountOwnerEmail',
  'uapSettings',
  'itemizedInvoice',
  'mfaEnabled',
  'firmwareUpdateSettings',
]);

export const GetOrgV2Request = EmptyRequest;
export const GetOrgV2Response = ResponseOf(
  {
    org: Field(OrgV2),
    orgUuid: Field(Own(Ruuid({ description: 'the organization UUID, needed for stream subscriptions' }), "the spec's getOrgV2 includes it")),
    featureFlags: Field(Type.Record(Type.String(), Type.String())),
    cameraConfigOptions: Field(
      Type.Record(Type.String(), Type.Array(VideoConfigurationOption), {
        description: "hardware model -> the resolutions the organization's cameras of that model are set to",
      }),
    ),
  },
  'Organization details (V2)',
);
export type GetOrgV2Response = Static<typeof GetOrgV2Response>;

export const GetOrganizationRequest = EmptyRequest;
export const GetOrganizationResponse = ResponseOf({ org: Field(OrgType) }, 'Organization record');

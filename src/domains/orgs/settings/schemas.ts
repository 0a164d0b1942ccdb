import { Type } from 'typebox';
import { EmptyRequest, Field, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { PermissionGroup } from '../permissions/schemas.js';
import { FirmwareOverride, FirmwareUpdateSettings, OrgV2, UapSettings } from '../schemas.js';
import { NotRef } from '../../../schemas/record-kinds.js';

const Opt = Field;
const Email = Type.String({ minLength: 3, maxLength: 254 });
const Text = (maxLength: number) => Type.String({ maxLength });
const Envelope = ResponseOf({});

/** updateOrg: the fields of the organization record that Gatehouse keeps (the others are accepted and ignored). */
export const UpdateOrgRequest = Type.Object({
  org: Type.Object({
    uuid: Opt(NotRef('subject', Ruuid())),
    name: Opt(Type.String({ minLength: 1, maxLength: 200 })),
    teamName: Opt(Text(100)),
    address1: Opt(Text(500)),
    address2: Opt(Text(500)),
    postalCode: Opt(Text(40)),
    countryCode: Opt(Type.String({ pattern: '^[A-Za-z]{2}$' })),
    accountOwnerEmail: Opt(Email),
    mfaEnabled: Opt(Type.Boolean()),
    itemizedInvoice: Opt(Type.Boolean()),
    firmwareUpdateSettings: Opt(FirmwareUpdateSettings),
    uapSettings: Opt(UapSettings),
  }),
});
export const UpdateOrgResponse = ResponseOf({
  samlEntityIdUniquenessConstraintFailure: Field(Type.Boolean()),
  teamNameNotAssignedFailure: Field(Type.Boolean()),
  teamNameUniquenessConstraintFailure: Field(Type.Boolean()),
});

export const UpdateGeneralSettingsRequest = Type.Object({
  name: Opt(Type.String({ minLength: 1, maxLength: 200 })),
  accountOwnerEmail: Opt(Email),
  accountBillingContactEmail: Opt(Email),
  accountTechnicalContactEmail: Opt(Email),
  accountTechnicalContacts: Opt(Type.Array(Email, { maxItems: 50 })),
  defaultPlayerViewLiveType: Opt(StringEnum(['REALTIME', 'BUFFERED'] as const)),
  inactivityTimeout: Opt(Type.Integer({ minimum: 0, maximum: 10_080, description: 'minutes' })),
  uapSettings: Opt(UapSettings),
});

export const UpdateMFASettingsRequest = Type.Object({
  mfaEnabled: Opt(Type.Boolean()),
  v3AuthNumDaysSkip2FAForTrustedDevices: Opt(Type.Integer({ minimum: 0, maximum: 365 })),
});
export const OrgResponse = ResponseOf({ org: Field(OrgV2) });

export const UpdateFirmwareSettingsRequest = Type.Object({
  firmwareSettings: Opt(FirmwareUpdateSettings),
  firmwareUpdateSettings: Opt(FirmwareUpdateSettings),
  firmwareUpdateSettingsOverrides: Opt(Type.Array(FirmwareOverride, { maxItems: 20 })),
});

/** The four yes/no policies, each its own operation with one boolean field. */
export const ORG_POLICIES = [
  ['/api/org/updateAiTrainingSettings', 'updateAiTrainingSettings', 'shareAiTrainingMediaWithRhombus', 'Share media with the platform for AI training'],
  ['/api/org/updateOrgAudioAnalysisPolicy', 'updateOrgAudioAnalysisPolicy', 'audioAnalysisEnabled', 'Turn audio analysis on or off'],
  ['/api/org/updateOrgAudioRecordingPolicy', 'updateOrgAudioRecordingPolicy', 'audioRecordingEnabled', 'Turn audio recording on or off'],
  ['/api/org/updateOrgLLMUsagePolicy', 'updateOrgLLMUsagePolicy', 'llmUsageEnabled', 'Allow or forbid the use of language models'],
] as const;
export type OrgPolicyField = (typeof ORG_POLICIES)[number][2];
export const policyRequest = (field: OrgPolicyField) => Type.Object({ [field]: Type.Boolean() });
export { Envelope as OrgEnvelope };

export const FindIfTeamNameAvailableRequest = Type.Object({ teamName: Type.String({ minLength: 1, maxLength: 100 }) });
export const FindIfTeamNameAvailableResponse = ResponseOf({ available: Field(Type.Boolean()) });

export const GetClientOrgRequest = Type.Object({ orgUuid: NotRef('otherOrg', Ruuid()) });
export const GetClientOrgResponse = ResponseOf({
  org: Field(OrgV2),
  featureFlags: Field(Type.Record(Type.String(), Type.String())),
  partnerOrgPermissionGroup: Field(PermissionGroup),
});

export const GetTemporaryOrgTokenRequest = EmptyRequest;
export const GetTemporaryOrgTokenResponse = ResponseOf({
  tempOrgToken: Field(Type.String({ description: 'an API key of the caller that stops working after 10 minutes' })),
});

import { Type, type Static, type TSchema } from 'typebox';
import { EpochMs, Field, MediaUri, MediaUriMap, Nullable, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { ActivityEnum, type Activity } from '../../../schemas/activities.js';
import { READINGS } from '../readings.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';
import { PLATFORM_DEVICE_TYPES } from '../../../schemas/device-types.js';

export const POLICY_ALERT_TYPES = ['POLICY_ALERT_V2', 'ACCESS_CONTROLLED_DOOR_POLICY_ALERT'] as const;
export const ALERT_DEVICE_TYPES = PLATFORM_DEVICE_TYPES;
export type AlertDeviceType = (typeof ALERT_DEVICE_TYPES)[number];

const str = () => Field(Type.String());
const bool = () => Field(Type.Boolean());
const int = () => Field(Type.Integer());
const num = () => Field(Type.Number());
const ruuid = () => Field(Ruuid());
const strings = () => Field(Type.Array(Type.String()));

export const MetaDataLocation = Type.Object({ region: str() }, { description: 'where media is kept: its region' });

const PolicyEventFace = Type.Object({
  faceId: str(),
  faceName: str(),
  imageS3Bucket: str(),
  imageS3Key: str(),
  imageS3Region: str(),
  labels: strings(),
  personUuid: ruuid(),
});

const PolicyEventVehicle = Type.Object({
  imageS3Bucket: str(),
  imageS3Key: str(),
  imageS3Region: str(),
  licensePlateNumber: str(),
  vehicleName: str(),
  labels: strings(),
});

const DwellEvent = Type.Object({
  activity: Field(ActivityEnum),
  deviceLabels: strings(),
  deviceUuid: ruuid(),
  locationUuid: ruuid(),
  orgUuid: ruuid(),
  regionUuid: ruuid(),
  durationSec: int(),
  dwellStartTimeMs: int(),
  timestampMs: int(),
  trackId: int(),
  locationLabels: strings(),
  subLocationsHierarchyKey: str(),
  thumbnailUri: str(),
});

const CheckCondition = Type.Object({ operator: Field(StringEnum(['GT', 'LT', 'LTE', 'GTE', 'EQ', 'CONTAINS'])), value: str() });

const readingFields: Record<string, TSchema> = {};
for (const r of READINGS) {
  readingFields[r.reading] = r.integer ? int() : num();
  readingFields[r.threshold] = r.integer ? int() : num();
}
readingFields.probeTempThreshold = num();

/**
 * The policy alert record (POLICY_ALERT_V2) with the specification's whole field set. The table keeps
 * the fields it filters and pages by as columns and the rest as JSON (see alerts.store.ts).
 */
export const PolicyAlertV2 = Type.Object(
  {
    // Identity and context
    uuid: Ruuid(),
    orgUuid: ruuid(),
    locationUuid: ruuid(),
    deviceUuid: ruuid(),
    componentUuid: ruuid(),
    policyUuid: ruuid(),
    type: Field(StringEnum(POLICY_ALERT_TYPES)),
    deviceType: Field(StringEnum(ALERT_DEVICE_TYPES)),
    subLocationsHierarchyKey: Field(Type.String({ description: 'location RUUIDs joined by dots' })),
    timestampMs: Field(EpochMs()),
    durationSec: int(),
    textDescription: str(),
    policyAlertTriggers: Field(Type.Array(ActivityEnum)),
    // Flags
    delayedProcessing: bool(),
    deleted: bool(),
    finalized: bool(),
    notificationSent: bool(),
    saved: bool(),
    shared: bool(),
    tampered: bool(),
    alertMonitoringVerified: bool(),
    tamperByMovementChange: num(),
    alertMonitoringThreatCaseUuid: ruuid(),
    // Media
    clipLocation: Field(MetaDataLocation),
    thumbnailLocation: Field(MetaDataLocation),
    clipLocationMap: Field(Type.Record(Type.String(), MetaDataLocation)),
    clipLocationMapV2: Field(MediaUriMap("each device's footage of the alert (a DASH manifest, or a saved clip's video)")),
    thumbnailLocationV2: Field(MediaUri('the alert thumbnail (JPEG)')),
    // People and counting
    numHumans: int(),
    peopleCountHighThreshold: int(),
    peopleCountLowThreshold: int(),
    ingressBoundaryDevices: Field(Type.Array(Ruuid())),
    egressBoundaryDevices: Field(Type.Array(Ruuid())),
    alertingEventFaces: Field(Type.Array(PolicyEventFace)),
    alertingEventVehicles: Field(Type.Array(PolicyEventVehicle)),
    alertingDwellEvents: Field(Type.Array(DwellEvent)),
    // Custom prompt analysis
    cllmBooleanValue: bool(),
    cllmIntegerValue: int(),
    cllmCheckCondition: Field(CheckCondition),
    cllmPromptTypeEnum: Field(StringEnum(['COUNT', 'PERCENT', 'BOOLEAN', 'TEXT'])),
    cllmPromptUuid: ruuid(),
    // Environmental flags
    leakDetected: bool(),
    vapeDetected: bool(),
    tempProbePresent: bool(),
    maxLuf: int(),
    cd: Field(Type.String({ maxLength: 100, description: 'custom activity display description' })),
    cdn: Field(Type.String({ maxLength: 32, description: 'custom activity display name' })),
    // Numeric sensor readings and their thresholds
    ...readingFields,
  },
  { description: 'Policy alert (POLICY_ALERT_V2)' },
);

/**
 * The policy alert as Gatehouse keeps it: the catalogue's record plus what Gatehouse adds. The catalogue's
 * operations answer PolicyAlertV2 (their serializer drops the additions); the additions are read through
 * Gatehouse's own operations (getExpiringPolicyAlerts) and the change stream.
 */
export const PolicyAlertV2Kept = Type.Object(
  {
    ...PolicyAlertV2.properties,
    dismissedAtMs: Field(EpochMs('when the alert was dismissed (it then leaves the feeds); null while it is not (Gatehouse addition)')),
    expiresAtMs: Field(EpochMs('when the alert expires and is deleted; null once saved as a clip, which keeps it (Gatehouse addition)')),
    notificationsMutedUntilMs: Field(
      EpochMs("raised while its device's notifications were muted (until then): it notified nobody, no webhook or chat either (Gatehouse addition)"),
    ),
    badAlertReport: Field(
      Type.Object(
        { reportedAtMs: Field(EpochMs()), userUuid: ruuid() },
        { description: 'the first report of the alert as a false positive (reportBadPolicyAlert; Gatehouse addition)' },
      ),
    ),
  },
  { description: 'Policy alert (POLICY_ALERT_V2) with the fields Gatehouse adds' },
);

/** A policy alert as the API returns it. Readings and thresholds are keyed by name (see readings.ts). */
type AlwaysPresent = 'uuid' | 'orgUuid' | 'deviceUuid' | 'timestampMs' | 'policyAlertTriggers';
export type PolicyAlertRecord = Omit<Static<typeof PolicyAlertV2Kept>, AlwaysPresent> & {
  uuid: string;
  orgUuid: string;
  deviceUuid: string;
  timestampMs: number;
  policyAlertTriggers: Activity[];
};

export const PolicyAlertGroup = Type.Object(
  {
    startTime: Field(EpochMs("time of the group's newest alert (groups run newest first)")),
    endTime: Field(EpochMs("time of the group's oldest alert")),
    policyAlerts: Field(Type.Array(PolicyAlertV2)),
  },
  { description: 'Alerts within 2 minutes of the previous one, at most 50' },
);

const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

export const ALERT_GROUP_PAGE = { default: 100, maximum: 5000 } as const;

export const GetPolicyAlertGroupsForDeviceRequest = Type.Object({
  deviceUuid: RefUuid('device', { description: 'device to query', notFound: true }),
  lastTimestampMs: Opt(Type.Integer({ description: 'pagination cursor: timestampMs of the last alert of the previous page; required together with lastUuid' })),
  lastUuid: Opt(
    NotRef('cursor', Ruuid({ description: 'pagination cursor: uuid of the last alert of the previous page; required together with lastTimestampMs' })),
  ),
  maxResults: Opt(
    Type.Integer({
      minimum: 1,
      maximum: ALERT_GROUP_PAGE.maximum,
      description: `Maximum number of alerts (not groups) in the page: default ${ALERT_GROUP_PAGE.default}, maximum ${ALERT_GROUP_PAGE.maximum}. A page holds whole groups only; when the first group alone has more alerts than maxResults, it is returned whole (a group has at most 50).`,
    }),
  ),
});
export type GetPolicyAlertGroupsForDeviceRequest = Static<typeof GetPolicyAlertGroupsForDeviceRequest>;
export const GetPolicyAlertGroupsForDeviceResponse = ResponseOf({ policyAlertGroups: Field(Type.Array(PolicyAlertGroup)) });

export const ALERT_LIST_PAGE = { default: 100, maximum: 1000 } as const;

/** The filters and cursor of the alert list reads (getPolicyAlertsV2, and V1 with its door filter). */
export const policyAlertListFields = {
  afterTimestampMs: Opt(Type.Integer({ description: 'only alerts at or after this time (inclusive)' })),
  beforeTimestampMs: Opt(Type.Integer({ description: 'only alerts before this time (exclusive)' })),
  deviceFilter: Opt(NotRef('filter', Type.Array(Ruuid(), { maxItems: 1000, description: 'only alerts of these devices' }))),
  locationFilter: Opt(NotRef('filter', Type.Array(Ruuid(), { maxItems: 1000, description: 'only alerts at these locations' }))),
  lastTimestampMs: Opt(Type.Integer({ description: 'pagination cursor (with lastUuid): the last alert of the previous page' })),
  lastUuid: Opt(NotRef('cursor', Ruuid())),
  maxResults: Opt(
    Type.Integer({ minimum: 1, maximum: ALERT_LIST_PAGE.maximum, description: `default ${ALERT_LIST_PAGE.default}, maximum ${ALERT_LIST_PAGE.maximum}` }),
  ),
};

export const GetPolicyAlertsV2Request = Type.Object(policyAlertListFields);
export type GetPolicyAlertsV2Request = Static<typeof GetPolicyAlertsV2Request>;
export const GetPolicyAlertsV2Response = ResponseOf({
  policyAlerts: Field(Type.Array(PolicyAlertV2)),
  oldestPolicyAlert: Field(PolicyAlertV2),
});

export const GetPolicyAlertDetailsRequest = Type.Object({ policyAlertUuid: NotRef('handler', Ruuid()) });

export const SavePolicyAlertV2Request = Type.Object({
  alertUuid: NotRef('handler', Ruuid({ description: 'the policy alert to save as a clip' })),
  savedClipTitle: Opt(Type.String({ maxLength: 500 })),
  savedClipDescription: Opt(Type.String({ maxLength: 5000 })),
  fisheyePresentationMap: Opt(Type.Record(Type.String(), Type.Unknown())),
});
export type SavePolicyAlertV2Request = Static<typeof SavePolicyAlertV2Request>;
export const SavePolicyAlertV2Response = ResponseOf({});

export const DeletePolicyAlertsRequest = Type.Object({
  policyAlertUuids: NotRef('handler', Type.Array(Ruuid(), { minItems: 1, maxItems: 1000, uniqueItems: true })),
});
export const DeletePolicyAlertsResponse = ResponseOf({ deletedCount: Field(Type.Integer()) });

export const MuteNotificationsForDeviceRequest = Type.Object({
  deviceUuid: NotRef('handler', Ruuid()),
  durationSec: Type.Integer({ minimum: 0, maximum: 7 * 86_400, description: 'seconds from now (at most a week); 0 ends the mute' }),
});
export const NotificationMute = Type.Object({
  orgUuid: ruuid(),
  deviceUuid: ruuid(),
  mutedAtMs: Field(EpochMs()),
  mutedUntilMs: Field(EpochMs()),
  userUuid: ruuid(),
});
export const GetNotificationMutesResponse = ResponseOf({ mutes: Field(Type.Array(NotificationMute)) });
/** The alert reported: the platform's clients send the whole record; its uuid names it, the rest is ignored. */
export const ReportBadPolicyAlertRequest = Type.Object({ policyAlert: Type.Object({ uuid: NotRef('subject', Ruuid()) }) });

import { Type, type Static, type TSchema } from 'typebox';
import { ActivityEnum } from '../../schemas/activities.js';
import { EmptyRequest, Field, ResponseOf, Ruuid } from '../../schemas/common.js';
import { NotRef, type RecordKind, RefUuid } from '../../schemas/record-kinds.js';
import { Schedule } from '../schedules/schemas.js';

/**
 * Camera, door and access-controlled door policies (the reference's Policy family): which activities raise
 * policy alerts, and during which schedules. A request names its schedules by uuid; an answer carries each
 * schedule in full.
 */
const MAX_SCHEDULED_TRIGGERS = 100;
const MAX_TRIGGERS = 200;
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Labels = Type.Array(Type.String({ maxLength: 200 }), { maxItems: 500 });

/** A camera trigger: an activity, with the thresholds and labels some activities read. */
export const CameraTrigger = Type.Object({
  activity: ActivityEnum,
  threshold: Field(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  faceAlertLabelSet: Field(Labels),
  faceAlertUnidentified: Field(Type.Boolean()),
  faceAllowedLabelSet: Field(Labels),
  vehicleAlertLabelSet: Field(Labels),
  vehicleAlertUnidentified: Field(Type.Boolean()),
  vehicleAllowedLabelSet: Field(Labels),
});
export type CameraTrigger = Static<typeof CameraTrigger>;

const AjarSec = Type.Integer({ minimum: 0, maximum: 86_400 });

/** A policy in a request: its schedules by uuid, each with the triggers active during it (and the family's policy-level fields). */
function minimalPolicy<T extends TSchema, X extends Record<string, TSchema>, P extends Record<string, TSchema> = Record<never, TSchema>>(
  trigger: T,
  extra: X,
  policyFields?: P,
) {
  const scheduledTrigger = Type.Object({
    scheduleUuid: Field(RefUuid('schedule')),
    triggerSet: Field(Type.Array(trigger, { maxItems: MAX_TRIGGERS })),
    ...extra,
  });
  const fields = {
    orgUuid: Field(NotRef('callerOrg', Ruuid())),
    scheduledTriggers: Field(Type.Array(scheduledTrigger, { maxItems: MAX_SCHEDULED_TRIGGERS })),
    ...((policyFields ?? {}) as P),
  };
  return {
    create: Type.Object({ policy: Type.Object({ ...fields, uuid: Field(NotRef('subject', Ruuid())), name: Field(Name) }) }),
    update: Type.Object({ policy: Type.Object({ ...fields, uuid: NotRef('subject', Ruuid()), name: Field(Name) }) }),
  };
}

/** A policy as answered: each scheduled trigger with its schedule in full. */
function policyAnswer<T extends TSchema, X extends Record<string, TSchema>, D extends Record<string, TSchema>>(trigger: T, extra: X, defaults: D) {
  const scheduledTrigger = Type.Object({ schedule: Field(Schedule), triggerSet: Field(Type.Array(trigger)), ...extra });
  return Type.Object({
    uuid: Field(Ruuid()),
    orgUuid: Field(Ruuid()),
    name: Field(Type.String()),
    scheduledTriggers: Field(Type.Array(scheduledTrigger)),
    ...defaults,
  });
}

const doorExtra = { ajarThresholdSec: Field(AjarSec) };

export const CameraPolicy = policyAnswer(CameraTrigger, {}, { defaultTriggers: Field(Type.Array(CameraTrigger)) });
export const DoorPolicy = policyAnswer(ActivityEnum, doorExtra, { defaultTriggers: Field(Type.Array(ActivityEnum)), defaultAjarThresholdSec: Field(AjarSec) });
export const AccessControlledDoorPolicy = policyAnswer(ActivityEnum, {}, {});

const camera = minimalPolicy(CameraTrigger, {});
const door = minimalPolicy(ActivityEnum, doorExtra);
const accessControlledDoor = minimalPolicy(ActivityEnum, {});

export type PolicyInput = {
  orgUuid?: string | null;
  name?: string | null;
  description?: string | null;
  backoffAlertSecs?: Record<string, number> | null;
  scheduledTriggers?: Array<{ scheduleUuid?: string | null; triggerSet?: unknown[] | null } & Record<string, unknown>> | null;
};

export const CreatePolicyResponse = ResponseOf({ policyUuid: Field(Ruuid()) });
export const DeletePolicyRequest = Type.Object({ policyUuid: NotRef('handler', Ruuid()) });
export const PolicyEnvelope = ResponseOf({});
export const GetPoliciesRequest = EmptyRequest;

/** A trigger that fires when a measured value passes its threshold (audio level, a climate reading). */
export const ThresholdTrigger = Type.Object({ activity: ActivityEnum, threshold: Field(Type.Number({ minimum: -1e9, maximum: 1e9 })) });
export type ThresholdTrigger = Static<typeof ThresholdTrigger>;
/** A proximity trigger: an activity of a tag, in the locations named (none: anywhere). */
export const ProximityTrigger = Type.Object({ activity: ActivityEnum, locationUuids: Field(Type.Array(RefUuid('location'), { maxItems: 500 })) });
/** A video intercom trigger: an activity with the face, vehicle, loudness and people-count conditions some read. */
export const VideoIntercomTrigger = Type.Object({
  activity: ActivityEnum,
  faceAlertLabelSet: Field(Labels),
  faceAlertUnidentified: Field(Type.Boolean()),
  faceAllowedLabelSet: Field(Labels),
  lufsThreshold: Field(Type.Number({ minimum: -200, maximum: 200 })),
  peopleCountThreshold: Field(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  vehicleAlertLabelSet: Field(Labels),
  vehicleAlertUnidentified: Field(Type.Boolean()),
  vehicleAllowedLabelSet: Field(Labels),
});

const Description = Field(Type.String({ maxLength: 2000 }));
const Seconds = Field(Type.Integer({ minimum: 0, maximum: 30 * 86_400 }));
/** Per activity, the seconds after an alert during which the same activity raises no other. */
const BackoffAlertSecs = Field(Type.Record(Type.String(), Type.Integer({ minimum: 0, maximum: 30 * 86_400 })));
const described = { description: Description };
const occupancyExtra = { occupancyThresholdSec: Seconds, vacancyThresholdSec: Seconds };
const proximityExtra = { departureThresholdSec: Seconds };

export const AudioPolicy = policyAnswer(ThresholdTrigger, {}, { ...described, defaultTriggers: Field(Type.Array(ThresholdTrigger)) });
export const ClimatePolicy = policyAnswer(
  ThresholdTrigger,
  {},
  { ...described, backoffAlertSecs: BackoffAlertSecs, defaultTriggers: Field(Type.Array(ThresholdTrigger)) },
);
export const OccupancyPolicy = policyAnswer(ActivityEnum, occupancyExtra, described);
export const ProximityPolicy = policyAnswer(ProximityTrigger, proximityExtra, described);
export const VideoIntercomPolicy = policyAnswer(VideoIntercomTrigger, {}, described);

const audio = minimalPolicy(ThresholdTrigger, {}, described);
const climate = minimalPolicy(ThresholdTrigger, {}, { ...described, backoffAlertSecs: BackoffAlertSecs });
const occupancy = minimalPolicy(ActivityEnum, occupancyExtra, described);
const proximity = minimalPolicy(ProximityTrigger, proximityExtra, described);
const videoIntercom = minimalPolicy(VideoIntercomTrigger, {}, described);

/** The request and answer schemas of each family, by the noun of its operations (`create<Noun>Policy`). */
export const FAMILY_SCHEMAS = {
  Camera: { ...camera, list: ResponseOf({ policies: Field(Type.Array(CameraPolicy)) }) },
  Door: { ...door, list: ResponseOf({ policies: Field(Type.Array(DoorPolicy)) }) },
  AccessControlledDoor: { ...accessControlledDoor, list: ResponseOf({ policies: Field(Type.Array(AccessControlledDoorPolicy)) }) },
  Audio: { ...audio, list: ResponseOf({ policies: Field(Type.Array(AudioPolicy)) }) },
  Climate: { ...climate, list: ResponseOf({ policies: Field(Type.Array(ClimatePolicy)) }) },
  Occupancy: { ...occupancy, list: ResponseOf({ policies: Field(Type.Array(OccupancyPolicy)) }) },
  Proximity: { ...proximity, list: ResponseOf({ policies: Field(Type.Array(ProximityPolicy)) }) },
  VideoIntercom: { ...videoIntercom, list: ResponseOf({ policies: Field(Type.Array(VideoIntercomPolicy)) }) },
};

export const GetPoliciesUsingScheduleRequest = Type.Object({ scheduleUuid: RefUuid('schedule', { notFound: true }) });
export const GetPoliciesUsingScheduleResponse = ResponseOf({
  cameraPolicyList: Field(Type.Array(CameraPolicy)),
  doorPolicyList: Field(Type.Array(DoorPolicy)),
  accessControlledDoorPolicyList: Field(Type.Array(AccessControlledDoorPolicy)),
  audioPolicyList: Field(Type.Array(AudioPolicy)),
  climatePolicyList: Field(Type.Array(ClimatePolicy)),
  occupancyPolicyList: Field(Type.Array(OccupancyPolicy)),
  proximityPolicyList: Field(Type.Array(ProximityPolicy)),
  videoIntercomPolicyList: Field(Type.Array(VideoIntercomPolicy)),
});

/** The pause and addendum operations: what they apply to, when and for how long. */
const Uuids = (ref: RecordKind, notFound?: string) => Field(Type.Array(RefUuid(ref, notFound ? { notFound } : undefined), { maxItems: 1000 }));
const WindowTiming = {
  durationSec: Field(Type.Integer({ minimum: 1, maximum: 366 * 86_400, description: 'the window, in seconds' })),
  scheduledTimestampSec: Field(Type.Integer({ minimum: 0, maximum: 253_402_300_799, description: 'when it starts, epoch seconds; now when not given' })),
};
export const PauseAlertPolicyRequest = Type.Object({
  deviceUuids: Uuids('device'),
  locationUuids: Uuids('location'),
  // A component composite is a door (the platform's name for it in pauses).
  componentCompositeUuids: Uuids('door', '{path}: Component composite {id}'),
  ...WindowTiming,
});
export const DeleteWindowRequest = Type.Object({ uuid: NotRef('subject', Ruuid()) });
export const DeleteWindowsRequest = Type.Object({ uuids: NotRef('handler', Type.Array(Ruuid(), { minItems: 1, maxItems: 1000 })) });
const ScheduledInterval = Type.Object({ uuid: Field(Ruuid()), timestampSec: Field(Type.Integer()), durationSecs: Field(Type.Integer()) });
const IntervalsByTarget = Field(Type.Record(Type.String(), Type.Array(ScheduledInterval)));
export const GetPolicyPauseSettingsResponse = ResponseOf({
  policiesPausedForDevicesMap: IntervalsByTarget,
  policiesPausedForLocationsMap: IntervalsByTarget,
  policiesPausedForComponentCompositesMap: IntervalsByTarget,
});
const Activities = Field(Type.Array(ActivityEnum, { maxItems: 200 }));
export const CreateAddendumsForDevicesRequest = Type.Object({ deviceUuids: Uuids('device'), activities: Activities, ...WindowTiming });
export const CreateAddendumForLocationRequest = Type.Object({ locationUuid: RefUuid('location'), activities: Activities, ...WindowTiming });
export const GetPolicyAddendumsResponse = ResponseOf({ deviceAddendumsMap: IntervalsByTarget, locationAddendumsMap: IntervalsByTarget });

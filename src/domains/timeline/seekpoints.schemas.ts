import { Type, type Static, type TSchema } from 'typebox';
import { ACTIVITIES, FOOTAGE_COLORS } from '../../schemas/activities.js';
import { Field, Nullable, ResponseOf, Ruuid, StringEnum } from '../../schemas/common.js';
import { TIMELINE_LIMITS } from './span.js';
import { NotRef } from '../../schemas/record-kinds.js';

/**
 * The shapes every timeline read answers (the catalogue's seekpoint and presence-window types), shared by the
 * domains that read the records behind them: events (cameras, audio gateways), access (doors) and devices (sensors).
 */

export const Activity = StringEnum(ACTIVITIES, 'activity');
export const SeekpointColor = StringEnum(FOOTAGE_COLORS, 'colour of a custom activity');

const str = () => Field(Type.String());
const bool = () => Field(Type.Boolean());
const int = () => Field(Type.Integer());
const num = () => Field(Type.Number());

/** The catalogue's SubLocationsHierarchyKey: the location and the locations above it. */
export const SubLocationsKey = Type.Object({ locationUuids: Field(Type.Array(Ruuid())) });

/** FootageSeekPointV2Type: one activity at one instant of a device's timeline, in the catalogue's short names. */
export const FootageSeekPoint = Type.Object({
  a: Activity,
  ts: Type.Integer({ description: 'epoch ms of the activity' }),
  al: bool(),
  cc: Field(SeekpointColor),
  cd: str(),
  cdn: str(),
  dcao: bool(),
  fn: str(),
  id: int(),
  loudness: int(),
  lp: str(),
  m: bool(),
  p: str(),
  ro: Field(Type.Array(Type.String())),
  sensorValType: Field(Type.Object({ sensorBoolean: bool(), sensorDouble: num(), sensorLong: int() })),
  toi: Field(
    Type.Object({ employeeName: str(), guid: str(), locationName: str(), restaurantName: str(), toastCheckInfo: Field(Type.Object({ totalAmount: num() })) }),
  ),
  tu: str(),
  uf: str(),
  vn: str(),
});
export type FootageSeekPoint = Static<typeof FootageSeekPoint>;

/** ComponentSeekPointType: an activity of an access-controlled door (or a doorbell camera), with the event behind it. */
export const ComponentSeekPoint = Type.Object({
  activity: Field(Activity),
  componentCompositeUuid: Field(Ruuid()),
  componentUuid: Field(Ruuid()),
  customActivityColor: Field(SeekpointColor),
  customActivityDescription: str(),
  customActivityDisplayName: str(),
  locationUuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  originalEvent: Field(Type.Record(Type.String(), Type.Unknown())),
  ownerDeviceUuid: Field(Ruuid()),
  subLocationsHierarchyKey: Field(SubLocationsKey),
  timestampMs: int(),
  userUuid: Field(Ruuid()),
  uuid: Field(Ruuid()),
});
export type ComponentSeekPoint = Static<typeof ComponentSeekPoint>;

/** Eventsearch_CombinedSeekPointType: a seekpoint of the event search, a run of one activity when combined. */
export const CombinedSeekPoint = Type.Object({
  activity: Field(Activity),
  cameraUuid: str(),
  customActivityColor: Field(SeekpointColor),
  customActivityDescription: str(),
  customActivityDisplayName: str(),
  faceName: str(),
  licensePlate: str(),
  objectId: int(),
  originalEvent: Field(Type.Record(Type.String(), Type.Unknown())),
  seekpointEndTimeMs: int(),
  seekpointStartTimeMs: int(),
  thumbnailUrl: str(),
  timestampMs: int(),
  unidentifiedFaceId: str(),
});
export type CombinedSeekPoint = Static<typeof CombinedSeekPoint>;

/** Sensor_FootageSensorSeekPointDisplayType: a sensor's activity, with its readings and the sensor's names. */
export const SensorSeekPoint = Type.Object({
  a: Activity,
  ts: Type.Integer({ description: 'epoch ms of the activity' }),
  al: bool(),
  cd: str(),
  cdn: str(),
  co2: num(),
  cu: Field(Type.Array(Type.String(), { description: 'cameras associated with the sensor (facet ids)' })),
  ethanol: num(),
  h: int(),
  heatIndexDegF: num(),
  hp: int(),
  iaq: num(),
  lu: Field(Ruuid()),
  pm25: num(),
  probeTempC: num(),
  sn: str(),
  su: Field(Ruuid()),
  subLocationsHierarchyKey: Field(SubLocationsKey),
  t: int(),
  tc: int(),
  thcPercent: num(),
  tvoc: num(),
  vapeSmokePercent: num(),
});
export type SensorSeekPoint = Static<typeof SensorSeekPoint>;

/** SeekpointIndexType: a custom seekpoint as getCustomFootageSeekpointsV2 lists it. */
export const SeekpointIndex = Type.Object({
  compositComponentUuid: Field(Ruuid()),
  customDescription: str(),
  customDisplayName: str(),
  deviceUuid: str(),
  locationUuid: Field(Ruuid()),
  objectType: Field(Activity),
  orgUuid: Field(Ruuid()),
  seekPointType: Field(StringEnum(['0', '1', '2'])),
  seekpointType: Field(StringEnum(['0', '1', '2'])),
  subLocationsHierarchyKey: Field(SubLocationsKey),
  timestampMs: int(),
});
export type SeekpointIndex = Static<typeof SeekpointIndex>;

/** CustomFootageSeekPointType: a custom seekpoint to create. */
export const CustomSeekpointInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 32 }),
  timestampMs: Type.Integer({ minimum: 0, description: 'epoch ms of the mark' }),
  color: Type.Optional(Nullable(SeekpointColor)),
  displayOverlay: Type.Optional(Nullable(Type.Boolean({ description: 'draw the name over the footage' }))),
});
export type CustomSeekpointInput = Static<typeof CustomSeekpointInput>;
export const CustomSeekpointList = Type.Array(CustomSeekpointInput, { minItems: 1, maxItems: TIMELINE_LIMITS.maxCustomPerCall });

/** TimeWindowSeconds: a window of a presence timeline. */
export const TimeWindow = Type.Object({ startSeconds: int(), durationSeconds: int() });
export type TimeWindow = Static<typeof TimeWindow>;

// --- Request pieces: every span is a start and a duration; each is checked for presence by spanOf (span.ts). ---

const Maybe = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
/** A span's start in epoch seconds. */
export const StartSec = (what = 'start of the span, epoch seconds') => Maybe(Type.Integer({ minimum: 0, description: what }));
/** A span's length in seconds, at most TIMELINE_LIMITS.maxSpanSec. */
export const DurationSec = () => Maybe(Type.Integer({ minimum: 1, maximum: TIMELINE_LIMITS.maxSpanSec, description: 'length of the span, seconds' }));
/** A device named by uuid or facet id (`<uuid>.v0`), nullable as the catalogue has it (its presence is checked by the service). */
export const DeviceRef = (description: string) => Type.Optional(Nullable(Type.String({ maxLength: 64, description })));

/** The presence-window request of the sensor families (door, climate, occupancy) and the audio gateway. */
export const PresenceWindowsRequest = Type.Object({
  deviceUuid: NotRef('handler', DeviceRef('the device: its uuid')),
  startTimeSec: StartSec(),
  durationSec: DurationSec(),
});
export type PresenceWindowsRequest = Static<typeof PresenceWindowsRequest>;
/** Presence windows of one device. */
export const PresenceWindowsResponse = ResponseOf({ presenceWindows: Field(Type.Array(TimeWindow)) });
/** Presence windows by facet id (a camera's `<uuid>.v0`, an audio gateway's `<uuid>.a0`). */
export const PresenceWindowMapResponse = ResponseOf({ presenceWindows: Field(Type.Record(Type.String(), Type.Array(TimeWindow))) });

import { Type, type Static, type TSchema } from 'typebox';
import { EpochMs, Field, Nullable, ResponseOf, Ruuid } from '../../../schemas/common.js';
import {
  Activity,
  CombinedSeekPoint,
  CustomSeekpointList,
  DeviceRef,
  DurationSec,
  FootageSeekPoint,
  SeekpointIndex,
  StartSec,
} from '../../timeline/seekpoints.schemas.js';
import { NotRef } from '../../../schemas/record-kinds.js';

/** Request and response schemas of the camera, audio gateway and event-search timeline reads (the catalogue's shapes). */

const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const Refs = (description: string) => Opt(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 100, description }));
const IncludeAnyMotion = Opt(Type.Boolean({ description: 'also plain MOTION alerts (left out by default: the noisiest activity)' }));
const ActivitySet = Opt(Type.Array(Activity, { maxItems: 200, description: 'only these activities (none: all)' }));

export const GetCameraFootageSeekpointsV2Request = Type.Object({
  cameraUuid: NotRef('handler', DeviceRef('the camera: its uuid or facet id')),
  startTime: StartSec(),
  duration: DurationSec(),
  includeAnyMotion: IncludeAnyMotion,
});
export type GetCameraFootageSeekpointsV2Request = Static<typeof GetCameraFootageSeekpointsV2Request>;
export const FootageSeekpointsResponse = ResponseOf({ footageSeekPoints: Field(Type.Array(FootageSeekPoint)) });

export const GetFootageSeekpointsForMultipleRequest = Type.Object({
  cameraUuids: NotRef('handler', Refs('the cameras: uuids or facet ids')),
  startTimeSec: StartSec(),
  durationSec: DurationSec(),
  includeAnyMotion: IncludeAnyMotion,
});
export type GetFootageSeekpointsForMultipleRequest = Static<typeof GetFootageSeekpointsForMultipleRequest>;

/** Camera_FootageSeekPointSummaryType: a camera's activities over the span, summed up. */
export const FootageSeekPointSummary = Type.Object({
  activityCountMap: Field(
    Type.Record(Type.String(), Type.Record(Type.String(), Type.Integer()), { description: 'minute (epoch seconds of its start) -> activity -> count' }),
  ),
  alert: Field(Type.Boolean()),
  faceNames: Field(Type.Array(Type.String())),
  poses: Field(Type.Array(Type.String())),
  recognizedObjects: Field(Type.Array(Type.String())),
  unidentifiedFaceIds: Field(Type.Array(Type.String())),
  vehicleLicensePlates: Field(Type.Array(Type.String())),
  vehicleNames: Field(Type.Array(Type.String())),
});
export type FootageSeekPointSummary = Static<typeof FootageSeekPointSummary>;
export const GetFootageSeekpointsForMultipleResponse = ResponseOf({
  footageSeekPointMap: Field(Type.Record(Type.String(), FootageSeekPointSummary, { description: 'by camera, as named' })),
});

export const CreateCustomFootageSeekpointsRequest = Type.Object({
  cameraUuid: NotRef('handler', DeviceRef('the camera: its uuid or facet id')),
  footageSeekPoints: Opt(CustomSeekpointList),
});
export type CreateCustomFootageSeekpointsRequest = Static<typeof CreateCustomFootageSeekpointsRequest>;

/**
 * camera/createFootageSeekpoints (the platform's older API, which its examples call): seekpoints of kind CUSTOM,
 * kept as custom marks named by `cdn`. The Python example sends one `footageSeekPoint`, the JavaScript one a list.
 */
const OlderSeekpoint = Type.Object({
  a: Type.Literal('CUSTOM', { description: 'only CUSTOM seekpoints are created' }),
  ts: Type.Integer({ minimum: 0, description: 'epoch ms of the mark' }),
  cdn: Opt(Type.String({ maxLength: 32, description: 'the name shown (default CUSTOM)' })),
});
export type OlderSeekpoint = Static<typeof OlderSeekpoint>;
export const CreateFootageSeekpointsRequest = Type.Object({
  cameraUuid: NotRef('handler', DeviceRef('the camera: its uuid or facet id')),
  footageSeekPoint: Opt(OlderSeekpoint),
  footageSeekPoints: Opt(Type.Array(OlderSeekpoint, { maxItems: 100 })),
});

export const GetCustomFootageSeekpointsV2Request = Type.Object({
  deviceUuids: NotRef('handler', Refs('the cameras: uuids or facet ids')),
  locationUuids: Opt(NotRef('handler', Type.Array(Ruuid(), { maxItems: 100, description: 'the locations (when no cameras are named)' }))),
  customDisplayName: Opt(Type.String({ maxLength: 32, description: 'only marks of this name' })),
  customDescription: Opt(Type.String({ maxLength: 1000, description: 'only marks of this description' })),
  startTime: StartSec(),
  duration: DurationSec(),
});
export type GetCustomFootageSeekpointsV2Request = Static<typeof GetCustomFootageSeekpointsV2Request>;
export const GetCustomFootageSeekpointsV2Response = ResponseOf({ customFootageSeekPoints: Field(Type.Array(SeekpointIndex)) });

export const DELETE_RANGE_MAX_MS = 86_400_000;
export const DeleteCustomFootageSeekpointsRequest = Type.Object({
  cameraUuids: NotRef('handler', Refs('the cameras: uuids or facet ids')),
  customName: Opt(Type.String({ maxLength: 32, description: 'only marks of this name' })),
  startTimestampMs: Opt(EpochMs('first instant of the range (inclusive)')),
  endTimestampMs: Opt(EpochMs('last instant of the range (inclusive), at most a day after the first')),
});
export type DeleteCustomFootageSeekpointsRequest = Static<typeof DeleteCustomFootageSeekpointsRequest>;
export const DeleteCustomFootageSeekpointsResponse = ResponseOf({
  deleteSeekpointResponseMap: Field(
    Type.Record(Type.String(), Type.Object({ err: Field(Type.Boolean()), errMsg: Field(Type.String()) }), { description: 'by camera, as named' }),
  ),
});

export const GetAudioSeekpointsRequest = Type.Object({
  deviceUuid: NotRef('handler', DeviceRef('the audio gateway: its uuid or facet id')),
  startTime: StartSec(),
  duration: DurationSec(),
});
export type GetAudioSeekpointsRequest = Static<typeof GetAudioSeekpointsRequest>;

export const GetCameraPresenceWindowsRequest = Type.Object({
  cameraUuid: NotRef('handler', DeviceRef('the camera: its uuid or facet id')),
  startTimeSec: StartSec(),
  durationSec: DurationSec(),
});
export type GetCameraPresenceWindowsRequest = Static<typeof GetCameraPresenceWindowsRequest>;

// --- Event search ---

export const GetCameraOrDoorbellCameraSeekpointsRequest = Type.Object({
  deviceUuid: NotRef('handler', DeviceRef('the camera or doorbell camera: its uuid or facet id')),
  startTimeSec: StartSec(),
  durationSecs: DurationSec(),
  includeAnyMotion: IncludeAnyMotion,
  activitySet: ActivitySet,
  seekpointDurationIntervalSecs: Opt(
    Type.Integer({ minimum: 0, maximum: 3600, description: 'activities of one kind less than this apart make one seekpoint (0: none combined)' }),
  ),
});
export type GetCameraOrDoorbellCameraSeekpointsRequest = Static<typeof GetCameraOrDoorbellCameraSeekpointsRequest>;
export const CombinedSeekpointsResponse = ResponseOf({ combinedSeekpoints: Field(Type.Array(CombinedSeekPoint)) });

const ComponentSpan = { durationSec: DurationSec(), startTimeSecEpochExclusive: StartSec('start of the span, epoch seconds (exclusive)') };

export const GetEventSeekpointsRequest = Type.Object({
  activitySet: ActivitySet,
  startTimeSec: StartSec('start of the span of the sub-requests that give none'),
  durationSec: DurationSec(),
  seekpointsWSRequest: Opt(
    Type.Object({
      deviceUuid: NotRef('handler', DeviceRef('a camera')),
      startTimeSec: StartSec(),
      durationSecs: DurationSec(),
      includeAnyMotion: IncludeAnyMotion,
    }),
  ),
  videoFootageWSRequest: Opt(
    Type.Object({
      cameraUuid: NotRef('handler', DeviceRef('a camera')),
      cameraUuids: NotRef('handler', Refs('cameras')),
      startTime: StartSec(),
      duration: DurationSec(),
      includeAnyMotion: IncludeAnyMotion,
      useMultiCamera: Opt(Type.Boolean()),
    }),
  ),
  componentSeekPointsByAccessControlledDoorWSRequest: Opt(Type.Object({ accessControlledDoorUuid: Opt(NotRef('handler', Ruuid())), ...ComponentSpan })),
  componentSeekPointsByAccessControlledDoorsWSRequest: Opt(
    Type.Object({
      accessControlledDoorUuidList: Opt(NotRef('handler', Type.Array(Ruuid(), { maxItems: 100 }))),
      sortResponse: Opt(Type.Boolean()),
      ...ComponentSpan,
    }),
  ),
  componentSeekPointsByOwnerDeviceWSRequest: Opt(Type.Object({ ownerDeviceUuid: Opt(NotRef('handler', Ruuid())), ...ComponentSpan })),
  searchColorAndVehicleByColorWSRequest: Opt(Type.Record(Type.String(), Type.Unknown())),
  searchMotionGridWithActivitiesWSRequest: Opt(Type.Record(Type.String(), Type.Unknown())),
});
export type GetEventSeekpointsRequest = Static<typeof GetEventSeekpointsRequest>;

import { Type } from 'typebox';
import { Alias, FacetId, Field, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { DEVICE_STATUSES } from '../tables.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';
import { RegionOfInterestGroups, RegionPolygon } from './regions.schemas.js';

/** Camera details, configuration, reboot and uptime (issue 19); shapes from the reference catalogue. */
const Str = Type.String();
const Int = Type.Integer();
const Num = Type.Number();
const Bool = Type.Boolean();
const Strings = Type.Array(Str);
const SubLocations = Type.Object({ locationUuids: Field(Strings) });

export const CameraDetails = Type.Object({
  uuid: Field(Str),
  name: Field(Str),
  description: Field(Str),
  customData: Field(Str),
  locationUuid: Field(Str),
  serialNumber: Field(Str),
  hwVariation: Field(Str),
  type: Field(Str),
  createdAtMillis: Field(Int),
  facetNameMap: Field(Type.Record(Str, Str)),
  floorNumber: Field(Int),
  latitude: Field(Num),
  longitude: Field(Num),
  directionRadians: Field(Num),
  policyUuid: Field(Str),
  mummified: Field(Bool),
  deleted: Field(Bool),
  pending: Field(Bool),
  subLocationsHierarchyKey: Field(SubLocations),
});

/** A camera of the organization, refused as the platform words it ("Camera not found"). */
const CameraUuid = RefUuid('camera', { notFound: true });

export const GetCameraDetailsRequest = Type.Object({ cameraUuids: Type.Array(CameraUuid, { minItems: 1, maxItems: 1000 }) });
export const GetCameraDetailsResponse = ResponseOf({ cameras: Field(Type.Array(CameraDetails)) });
export const GetCameraDetailsV2Request = Type.Object({ cameraUuid: CameraUuid });
export const GetCameraDetailsV2Response = ResponseOf({ camera: Field(CameraDetails) });

export const Name = Type.String({ minLength: 1, maxLength: 200 });
export const Description = Type.String({ maxLength: 2000 });
export const Latitude = Type.Number({ minimum: -90, maximum: 90 });
export const Longitude = Type.Number({ minimum: -180, maximum: 180 });
export const Floor = Type.Integer({ minimum: -200, maximum: 500 });
const Direction = Type.Number({ minimum: -7, maximum: 7, description: 'radians' });

/** The fields updateDetails sets (the reference's backwards-compatible update: a field given is set). */
export const CameraDetailsUpdate = Type.Object({
  uuid: NotRef('subject', Ruuid()),
  name: Field(Name),
  description: Field(Description),
  locationUuid: Field(RefUuid('location', { notFound: true })),
  floorNumber: Field(Floor),
  latitude: Field(Latitude),
  longitude: Field(Longitude),
});
export const UpdateCameraDetailsRequest = Type.Object({ camera: CameraDetailsUpdate });

/** updateDetailsV2: each field is set only when its `<field>Updated` flag is true. */
export const UPDATABLE_V2 = [
  'name',
  'description',
  'customData',
  'locationUuid',
  'floorNumber',
  'latitude',
  'longitude',
  'directionRadians',
  'policyUuid',
] as const;
export const UpdateCameraDetailsV2Request = Type.Object({
  uuid: NotRef('subject', Ruuid()),
  name: Field(Name),
  nameUpdated: Field(Bool),
  description: Field(Description),
  descriptionUpdated: Field(Bool),
  customData: Field(Type.String({ maxLength: 10_000 })),
  customDataUpdated: Field(Bool),
  locationUuid: Field(RefUuid('location', { notFound: true })),
  locationUuidUpdated: Field(Bool),
  floorNumber: Field(Floor),
  floorNumberUpdated: Field(Bool),
  latitude: Field(Latitude),
  latitudeUpdated: Field(Bool),
  longitude: Field(Longitude),
  longitudeUpdated: Field(Bool),
  directionRadians: Field(Direction),
  directionRadiansUpdated: Field(Bool),
  policyUuid: Field(NotRef('handler', Ruuid({ description: 'the camera policy it follows; null: none' }))),
  policyUuidUpdated: Field(Bool),
});
export const UpdateDetailsBulkV2Request = Type.Object({
  cameraBulkDetails: Alias(Type.Array(UpdateCameraDetailsV2Request, { minItems: 1, maxItems: 1000 }), ['updates']),
});

export const FullCameraState = Type.Object({
  uuid: Field(Str),
  name: Field(Str),
  locationUuid: Field(Str),
  serialNumber: Field(Str),
  firmwareVersion: Field(Str),
  hwVariation: Field(Str),
  createdAtMillis: Field(Int),
  connectionStatus: Field(Type.Enum(DEVICE_STATUSES)),
  connectionTimestampMs: Field(Int),
  healthStatus: Field(Type.Enum(DEVICE_STATUSES)),
  healthStatusDetails: Field(Str),
  stateUpdatedTimestampMs: Field(Int),
  defaultInterfaceMac: Field(Str),
  facetNameMap: Field(Type.Record(Str, Str)),
  supportedFacets: Field(Strings),
  floorNumber: Field(Int),
  latitude: Field(Num),
  longitude: Field(Num),
  directionRadians: Field(Num),
  policyUuid: Field(Str),
  audioSupported: Field(Bool),
  mummified: Field(Bool),
  region: Field(Str),
  mediaRegion: Field(Str),
});
export const GetFullCameraStateRequest = Type.Object({ cameraUuid: CameraUuid, force: Field(Bool) });
export const GetFullCameraStateResponse = ResponseOf({ fullCameraState: Field(FullCameraState) });

const Percent = Type.Integer({ minimum: 0, maximum: 100 });
const Unit = Type.Number({ minimum: 0, maximum: 1 });
/** The camera settings Gatehouse keeps, each with its range: a value outside it is refused naming the field. */
export const CAMERA_CONFIG_FIELDS = {
  img_brightness: Percent,
  img_contrast: Percent,
  img_saturation: Percent,
  img_sharpness: Percent,
  night_img_brightness: Percent,
  night_img_contrast: Percent,
  night_img_saturation: Percent,
  night_img_sharpness: Percent,
  exposure_level: Type.Integer({ minimum: -10, maximum: 10 }),
  night_exposure_level: Type.Integer({ minimum: -10, maximum: 10 }),
  hdr_enabled: Bool,
  wdr_enabled: Bool,
  wdr_strength: Percent,
  rotation: Type.Union([Type.Literal(0), Type.Literal(90), Type.Literal(180), Type.Literal(270)]),
  resolution: Type.String({ pattern: '^[0-9]{2,4}x[0-9]{2,4}$' }),
  snapshot_interval_secs: Type.Integer({ minimum: 1, maximum: 86_400 }),
  media_ttl_minutes: Type.Integer({ minimum: 0, maximum: 60 * 24 * 3650 }),
  human_detection: Bool,
  vehicle_detection: Bool,
  occupancy_counting: Bool,
  video_persist_disabled: Bool,
  audio_record: Bool,
  audio_internal_mic_volume: Percent,
  audio_internal_speaker_volume: Percent,
  led_stealth_mode: Bool,
  face_ai_threshold: Unit,
  face_match_threshold: Unit,
  max_detections_per_frame: Type.Integer({ minimum: 1, maximum: 1000 }),
  region_of_interest_groups: RegionOfInterestGroups,
};
const configProperties = Object.fromEntries(Object.entries(CAMERA_CONFIG_FIELDS).map(([k, v]) => [k, Field(v)])) as {
  [K in keyof typeof CAMERA_CONFIG_FIELDS]: ReturnType<typeof Field<(typeof CAMERA_CONFIG_FIELDS)[K]>>;
};
export const CROSSING_DIRECTIONS = ['INGRESS', 'EGRESS'] as const;
export const CROSSING_OBJECTS = ['HUMAN', 'VEHICLE', 'FACE', 'LPR', 'POSE', 'CLIP_EMBED', 'UNKNOWN'] as const;
/**
 * The line a camera counts crossings of (updateCameraLineCrossingThresholds) as the catalogue's settings have
 * it: the two parts of the image it divides (lineSides), the one an INGRESS crossing enters first.
 */
const CrossCountingSettings = Type.Object({
  object_type: Field(StringEnum(CROSSING_OBJECTS)),
  directions: Field(Type.Array(StringEnum(CROSSING_DIRECTIONS))),
  in_roi: Field(Type.Array(RegionPolygon)),
  out_roi: Field(Type.Array(RegionPolygon)),
});
/** A resolution as the catalogue gives it: its two sides (the settings keep `WIDTHxHEIGHT`). */
const Side = Type.Integer({ minimum: 10, maximum: 9999 });
export const Resolution = Type.Object({ width: Field(Side), height: Field(Side) });
export const CameraConfig = Type.Object({
  deviceUuid: Field(Str),
  orgUuid: Field(Str),
  lastModified: Field(Int),
  ...configProperties,
  resolution: Field(Resolution),
  cross_counting: Field(Bool),
  cross_counting_settings: Field(CrossCountingSettings),
});
export const GetCameraConfigRequest = Type.Object({ cameraUuid: CameraUuid });
export const GetCameraConfigResponse = ResponseOf({ config: Field(CameraConfig) });
export const UpdateCameraConfigRequest = Type.Object({
  config: Type.Object(
    {
      deviceUuid: CameraUuid,
      ...configProperties,
      resolution: Field(Type.Union([CAMERA_CONFIG_FIELDS.resolution, Resolution], { description: "WIDTHxHEIGHT, or the catalogue's two sides" })),
    },
    { additionalProperties: false },
  ),
});

export const REBOOT_STATUSES = ['SUCCESS_REBOOT_SENT', 'FAILED_CAMERA_OFFLINE', 'FAILED_CAMERA_NOT_AUTHORIZED'] as const;
export const RebootCameraRequest = Type.Object({ cameraUuid: CameraUuid });
export const RebootCameraResponse = ResponseOf({ status: Field(Type.Enum(REBOOT_STATUSES)) });

/** The platform's MCP client sends this range in milliseconds, though the catalogue says seconds: both are read. */
const MS_READING = "a value of 10^11 or more, as the platform's MCP client sends, is read as epoch milliseconds";
export const GetUptimeWindowsRequest = Type.Object({
  cameraUuid: CameraUuid,
  startTime: Type.Integer({ minimum: 0, description: `epoch seconds (${MS_READING})` }),
  endTime: Type.Integer({ minimum: 0, description: `epoch seconds (${MS_READING})` }),
});
/** When a device was online, in whole seconds. */
export const UptimeWindows = Type.Array(Type.Object({ startSeconds: Field(Int), durationSeconds: Field(Int) }));
export const GetUptimeWindowsResponse = ResponseOf({ uptimeWindows: Field(UptimeWindows) });

const Confidence = Type.Number({ minimum: 0, maximum: 1 });
/** A camera's AI thresholds, each with its range. */
export const AI_THRESHOLD_FIELDS = {
  humanConfidenceThreshold: Confidence,
  vehicleConfidenceThreshold: Confidence,
  faceConfidenceThreshold: Confidence,
  faceMatchConfidenceThreshold: Confidence,
  lprConfidenceThreshold: Confidence,
  consecutiveHumanFilter: Type.Integer({ minimum: 1, maximum: 100 }),
  consecutiveVehicleFilter: Type.Integer({ minimum: 1, maximum: 100 }),
  maxEventDurationMs: Type.Integer({ minimum: 1000, maximum: 3_600_000 }),
};
const thresholdProperties = Object.fromEntries(Object.entries(AI_THRESHOLD_FIELDS).map(([k, v]) => [k, Field(v)])) as {
  [K in keyof typeof AI_THRESHOLD_FIELDS]: ReturnType<typeof Field<(typeof AI_THRESHOLD_FIELDS)[K]>>;
};
export const GetCameraAIThresholdsRequest = Type.Object({ cameraUuid: NotRef('handler', Alias(Ruuid(), ['deviceUuid'])) });
export const GetCameraAIThresholdsResponse = ResponseOf(thresholdProperties);
export const UpdateCameraAIThresholdsRequest = Type.Object({ cameraUuid: CameraUuid, ...thresholdProperties });

export const RevertCameraToDefaultsRequest = Type.Object({ cameraUuid: CameraUuid });
const Coordinate = Type.Object({
  x: Field(Type.Number({ minimum: 0.1, maximum: 0.9, description: 'share of the image width' })),
  y: Field(Type.Number({ minimum: 0.1, maximum: 0.9, description: 'share of the image height' })),
});
export const UpdateCameraLineCrossingThresholdsRequest = Type.Object({
  cameraUuid: NotRef('handler', Type.Union([Ruuid(), FacetId()])),
  objectType: Field(StringEnum(CROSSING_OBJECTS)),
  directions: Field(Type.Array(StringEnum(CROSSING_DIRECTIONS), { maxItems: 2 })),
  inverted: Field(Bool),
  pointA: Field(Coordinate),
  pointB: Field(Coordinate),
});

import { Type } from 'typebox';
import { EmptyRequest, Field, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { ACTIVITIES } from '../../../schemas/activities.js';
import { FullCameraState } from '../cameras/camera-details.schemas.js';
import { DeviceId, SubjectDeviceId } from '../lifecycle/schemas.js';
import { gatewaySenseFields, GetEventsForEnvironmentalGatewayRequest, MinimalEnvironmentalGatewayState } from '../sensors/schemas.js';
import { NotRef } from '../../../schemas/record-kinds.js';

/** Reads of climate sensors, gateways, audio gateways, cameras and device features (issue 19); shapes from the catalogue. */
const Str = Type.String();
const Int = Type.Integer();
const Num = Type.Number();
const Bool = Type.Boolean();
const Unit = Type.Number({ minimum: 0, maximum: 1 });

export const GetClimateSensorConfigRequest = Type.Object({ uuid: NotRef('subject', Ruuid()) });
export const GetClimateSensorConfigResponse = ResponseOf({
  config: Field(
    Type.Object({
      deviceUuid: Field(Str),
      orgUuid: Field(Str),
      lastModified: Field(Int),
      accelerometer_change_tamper_threshold: Field(Unit),
      accelerometer_disabled: Field(Bool),
      alert_window_minutes: Field(Int),
      pressure_switch_tamper_disabled: Field(Bool),
      smoke_ai_threshold: Field(Unit),
      thc_ai_threshold: Field(Unit),
      vape_ai_threshold: Field(Unit),
    }),
  ),
});

export const EnvironmentalGatewayShadow = Type.Object({
  deviceUuid: Field(Str),
  orgUuid: Field(Str),
  type: Field(Str),
  connected: Field(Bool),
  connectionTimestampMs: Field(Int),
  disconnectTimestampMs: Field(Int),
  firmwareVersion: Field(Str),
  defaultInterfaceMac: Field(Str),
  timestampMs: Field(Int),
  stateUpdatedTimestampMs: Field(Int),
  ...gatewaySenseFields,
});
export const GetEnvironmentalGatewayShadowsRequest = EmptyRequest;
export const GetEnvironmentalGatewayShadowsResponse = ResponseOf({ environmentalGatewayShadows: Field(Type.Array(EnvironmentalGatewayShadow)) });
export const GetMinimalStateEventsForEnvironmentalGatewayRequest = GetEventsForEnvironmentalGatewayRequest;
export const GetMinimalStateEventsForEnvironmentalGatewayResponse = ResponseOf({
  minimalEnvironmentalGatewayStates: Field(Type.Array(MinimalEnvironmentalGatewayState)),
  lastEvaluatedKey: Field(Str),
});

export const GetFullAudioGatewayStateRequest = Type.Object({ deviceUuid: SubjectDeviceId, force: Field(Bool) });
export const GetFullAudioGatewayStateResponse = ResponseOf({ fullAudioGatewayState: Field(FullCameraState) });
export const GetAudioGatewayUptimeWindowsRequest = Type.Object({
  deviceUuid: NotRef('handler', Ruuid()),
  startTimeMs: Type.Integer({ minimum: 0, description: 'epoch ms' }),
  endTimeMs: Type.Integer({ minimum: 0, description: 'epoch ms' }),
});
export const GetAudioGatewayUptimeWindowsResponse = ResponseOf({
  uptimeWindows: Field(Type.Array(Type.Object({ startSeconds: Field(Int), durationSeconds: Field(Int) }))),
});

const ThreeColours = StringEnum(['RED', 'ORANGE', 'GREEN'] as const);
const HealthDetails = StringEnum(['DISCONNECTED', 'FIRMWARE_BEHIND', 'NONE'] as const);
export const MinimalCamera = Type.Object({
  uuid: Field(Str),
  name: Field(Str),
  locationUuid: Field(Str),
  serialNumber: Field(Str),
  connectionStatus: Field(ThreeColours),
  healthStatus: Field(ThreeColours),
  healthStatusDetails: Field(HealthDetails),
  defaultInterfaceMac: Field(Str),
  floorNumber: Field(Int),
  latitude: Field(Num),
  longitude: Field(Num),
  policyUuid: Field(Str),
  liveStreamShared: Field(Bool),
  mummified: Field(Bool),
});
export const GetCameraMinimalListRequest = Type.Object({ includeMummified: Field(Type.Boolean({ description: 'accepted; no camera is mummified here' })) });
export const GetCameraMinimalListResponse = ResponseOf({ cameras: Field(Type.Array(MinimalCamera)) });
export const GetMinimalCameraLocationMapRequest = EmptyRequest;
export const GetMinimalCameraLocationMapResponse = ResponseOf({
  cameraLocationMap: Field(Type.Record(Str, Type.Object({ cameraName: Field(Str), locationName: Field(Str), locationUuid: Field(Str) }))),
});
const Settings = Type.Record(Str, Type.Unknown());
export const GetCurrentCameraStateRequest = Type.Object({ cameraUuid: SubjectDeviceId, force: Field(Bool) });
export const GetCurrentCameraStateResponse = ResponseOf({
  cameraState: Field(
    Type.Object({
      connectionStatus: Field(ThreeColours),
      connectionTimestampMs: Field(Int),
      healthStatus: Field(ThreeColours),
      healthStatusDetails: Field(HealthDetails),
      firmwareVersion: Field(Str),
      latestFirmwareVersion: Field(Str),
      versionsBehind: Field(Int),
      serialNumber: Field(Str),
      defaultInterfaceMac: Field(Str),
      baseVideoOperationUri: Field(Str),
      onCameraState: Field(Settings),
      onCloudState: Field(Settings),
    }),
  ),
});

export const GetDeviceEventTypesRequest = Type.Object({ deviceUuid: SubjectDeviceId });
export const GetDeviceEventTypesResponse = ResponseOf({ eventTypes: Field(Type.Array(StringEnum(ACTIVITIES))) });
export const GetDeviceFeaturesListRequest = Type.Object({ deviceUuids: NotRef('handler', Type.Array(DeviceId, { minItems: 1, maxItems: 1000 })) });
export const GetDeviceFeaturesListResponse = ResponseOf({
  featureList: Field(Type.Array(Type.Object({ deviceUuid: Field(Str), featureMap: Field(Type.Record(Str, Bool)) }))),
});
export const GetFeatureCompatabilityMatrixRequest = EmptyRequest;
export const GetFeatureCompatabilityMatrixResponse = ResponseOf({
  featureCompatabilityMatrix: Field(
    Type.Array(
      Type.Object({
        featureName: Field(Str),
        generatedActivities: Field(Type.Array(Str)),
        supportedHardware: Field(Type.Array(Str)),
        hardwareDefaultMap: Field(Type.Record(Str, Bool)),
        requiredLicenses: Field(Type.Array(Str)),
      }),
    ),
  ),
});

/** The organization's analytics features (org/getFeatures), from its cameras and settings. */
export const GetFeaturesRequest = EmptyRequest;
export const FEATURES = [
  'behaviorDetection',
  'cloudArchiving',
  'engagementCounting',
  'faceCounting',
  'faceCountingNonUnique',
  'faceRecognition',
  'licensePlateRecognition',
  'peopleCounting',
  'ppeDetection',
  'rulesEngine',
  'vehicleCounting',
] as const;
export type Feature = (typeof FEATURES)[number];
const featureFields = Object.fromEntries(FEATURES.map((f) => [f, Field(Type.Boolean())])) as unknown as Record<
  Feature,
  ReturnType<typeof Field<ReturnType<typeof Type.Boolean>>>
>;
export const GetFeaturesResponse = ResponseOf(featureFields);

export const GetBaseStationsRequest = EmptyRequest;
export const GetBaseStationsResponse = ResponseOf({ baseStations: Field(Type.Array(Ruuid())) });

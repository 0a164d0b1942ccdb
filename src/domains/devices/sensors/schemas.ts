import { Type, type TProperties } from 'typebox';
import { EmptyRequest, Field, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { DEVICE_STATUSES } from '../tables.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';

/**
 * Sensors (issue 19): the minimal state lists and event histories of climate sensors, environmental
 * gateways, door sensors, occupancy sensors, proximity tags, keypads, audio gateways and doorbell cameras.
 * Shapes follow the reference catalogue; the fields Gatehouse has no source for are left out.
 */
export const DOOR_SENSOR_STATES = ['OPEN', 'CLOSED', 'AJAR'] as const;
export const OCCUPANCY_STATES = ['VACANT', 'MOVEMENT', 'OCCUPIED'] as const;
export const PROXIMITY_STATUSES = ['ACTIVE', 'STATIONARY', 'OFFLINE'] as const;
export const LOCOMOTION_MOVEMENTS = ['ARRIVAL', 'DEPARTURE', 'MOVED_SIGNIFICANTLY', 'UNKNOWN'] as const;
export const KEYPAD_CONNECTION_STATES = ['ONLINE', 'OFFLINE'] as const;
export const COMPONENT_EVENT_TYPES = ['DoorbellEvent', 'ButtonEvent', 'CredentialReceivedEvent'] as const;

const Str = Type.String();
const Int = Type.Integer();
const Num = Type.Number();
const Bool = Type.Boolean();
const Enum = <T extends readonly string[]>(values: T) => Type.Enum(values);
const Strings = Type.Array(Type.String());
const SubLocations = Type.Object({ locationUuids: Field(Strings) });

/** The fields every sensor's minimal state has. */
const minimalSensorFields = {
  sensorUuid: Field(Str),
  name: Field(Str),
  locationUuid: Field(Str),
  serialNumber: Field(Str),
  firmwareVersion: Field(Str),
  hwVariation: Field(Str),
  createdAtMillis: Field(Int),
  health: Field(Enum(['GREEN', 'RED'] as const)),
  healthDetails: Field(Enum(['FIRMWARE_BEHIND', 'NO_HEARTBEAT', 'NONE'] as const)),
  batteryPercent: Field(Int),
  signalStrength: Field(Int),
  lastSeenSec: Field(Int),
  associatedCameras: Field(Strings),
  closestBaseStation: Field(Str),
  floorNumber: Field(Int),
  latitude: Field(Num),
  longitude: Field(Num),
  policyUuid: Field(Str),
  subLocationsHierarchyKey: Field(SubLocations),
};

/** The fields every sensor event has. */
const sensorEventFields = {
  orgUuid: Field(Str),
  locationUuid: Field(Str),
  timestampMs: Field(Int),
  batteryPercentage: Field(Int),
  baseStationUuid: Field(Str),
  bleDeviceUuid: Field(Str),
  bleRssi: Field(Int),
  closeBaseStations: Field(Strings),
  subLocationsHierarchyKey: Field(SubLocations),
};

/** A family's minimal state: the shared fields but those its catalogue state lacks, and its own. */
const MinimalState = (properties: TProperties, lacks: ReadonlyArray<keyof typeof minimalSensorFields> = []) =>
  Type.Object({ ...Object.fromEntries(Object.entries(minimalSensorFields).filter(([k]) => !lacks.includes(k as never))), ...properties });
const SensorEvent = (properties: TProperties) => Type.Object({ ...sensorEventFields, ...properties });

/** A history request: the device, a time range and a page size, and the family's filter. */
const HistoryRequest = <K extends string, F extends TProperties = Record<never, never>>(idField: K, filter: F = {} as F) =>
  Type.Object({
    ...({ [idField]: NotRef('subject', Ruuid()) } as Record<K, ReturnType<typeof Ruuid>>),
    createdAfterMs: Field(Type.Integer({ minimum: 0, description: 'events at or after this instant (epoch ms)' })),
    createdBeforeMs: Field(
      Type.Integer({ minimum: 0, description: 'events before this instant (epoch ms); the next page is before the last event of this one' }),
    ),
    limit: Field(Type.Integer({ minimum: 1, description: 'at most this many events, newest first (default 100, at most 1000)' })),
    ...filter,
  });

// Climate sensors
export const MinimalClimateState = MinimalState({
  temperatureCelcius: Field(Num),
  humidity: Field(Num),
  co2: Field(Num),
  pm25: Field(Num),
  tvoc: Field(Num),
  iaq: Field(Num),
  ethanol: Field(Num),
  heatIndexDegF: Field(Num),
  probeTempC: Field(Num),
  thcPercent: Field(Num),
  vapePercent: Field(Num),
  calibrating: Field(Bool),
  probeConnected: Field(Bool),
});
export const ClimateEvent = SensorEvent({
  temp: Field(Num),
  humidity: Field(Num),
  co2: Field(Num),
  pm25: Field(Num),
  tvoc: Field(Num),
  iaq: Field(Num),
  ethanol: Field(Num),
  heatIndexDegF: Field(Num),
  probeTempC: Field(Num),
  thcPercent: Field(Num),
  vapeSmokePercent: Field(Num),
  thcDetected: Field(Bool),
  vapeSmokeDetected: Field(Bool),
  tampered: Field(Bool),
  alertActivities: Field(Strings),
});
export const GetMinimalClimateStateListResponse = ResponseOf({ climateStates: Field(Type.Array(MinimalClimateState)) });
export const GetClimateEventsForSensorRequest = HistoryRequest('sensorUuid');
export const GetClimateEventsForSensorResponse = ResponseOf({ climateEvents: Field(Type.Array(ClimateEvent)) });

// Environmental gateways
const gatewayReadings = {
  tempC: Field(Num),
  relHumid: Field(Num),
  co2Ppm: Field(Int),
  pm1p0: Field(Num),
  pm2p5: Field(Num),
  pm4p0: Field(Num),
  pm10p0: Field(Num),
  vocIdx: Field(Num),
  noxIdx: Field(Num),
  pressure: Field(Num),
  ch2oPpb: Field(Num),
  coConcentration: Field(Num),
  airQualityIndex: Field(Int),
  heatIndexDegF: Field(Num),
  vapeDetected: Field(Bool),
};
export const MinimalEnvironmentalGatewayState = Type.Object({
  deviceUuid: Field(Str),
  orgUuid: Field(Str),
  name: Field(Str),
  locationUuid: Field(Str),
  serialNumber: Field(Str),
  firmwareVersion: Field(Str),
  hwVariation: Field(Str),
  createdAtMillis: Field(Int),
  connected: Field(Bool),
  healthStatus: Field(Enum(DEVICE_STATUSES)),
  healthDetails: Field(Str),
  defaultInterfaceMac: Field(Str),
  timestampMs: Field(Int),
  alertTriggers: Field(Strings),
  associatedCameras: Field(Strings),
  ...gatewayReadings,
});
const Sense = (properties: TProperties) => Field(Type.Object({ ...properties, timestampSec: Field(Int) }));
/** An environmental gateway's readings by the module that senses them (its events and its shadow). */
export const gatewaySenseFields = {
  co2Sense: Sense({ co2Ppm: Field(Int), relHumid: Field(Num), tempC: Field(Num) }),
  pmSense: Sense({ pm1p0: Field(Num), pm2p5: Field(Num), pm4p0: Field(Num), pm10p0: Field(Num), vocIdx: Field(Num), noxIdx: Field(Num) }),
  pressSense: Sense({ pressure: Field(Num) }),
  formaSense: Sense({ ch2oPpb: Field(Num) }),
  carbonMonoSense: Sense({ coConcentration: Field(Num) }),
  derivedValues: Sense({ airQualityIndex: Field(Int), heatIndexDegF: Field(Num), vapeDetected: Field(Bool) }),
};
export const EnvironmentalGatewayEvent = Type.Object({
  uuid: Field(Str),
  deviceUuid: Field(Str),
  orgUuid: Field(Str),
  deviceType: Field(Str),
  firmwareVersion: Field(Str),
  hwVariation: Field(Str),
  timestampMs: Field(Int),
  alertTriggers: Field(Strings),
  alertTriggerThresholds: Field(Type.Array(Num)),
  activities: Field(Strings),
  ...gatewaySenseFields,
});
export const GetMinimalEnvironmentalGatewayStatesResponse = ResponseOf({
  minimalEnvironmentalGatewayStates: Field(Type.Array(MinimalEnvironmentalGatewayState)),
  lastEvaluatedKey: Field(Str),
});
export const GetEventsForEnvironmentalGatewayRequest = Type.Object({
  deviceUuid: NotRef('handler', Ruuid()),
  createdAfterMs: Field(Type.Integer({ minimum: 0 })),
  createdBeforeMs: Field(Type.Integer({ minimum: 0 })),
  maxPageSize: Field(Type.Integer({ minimum: 1, description: 'default 100, at most 1000' })),
  lastEvaluatedKey: Field(Type.String({ maxLength: 64, description: "the previous page's lastEvaluatedKey" })),
});
export const GetEventsForEnvironmentalGatewayResponse = ResponseOf({ events: Field(Type.Array(EnvironmentalGatewayEvent)), lastEvaluatedKey: Field(Str) });

// Door sensors
export const MinimalDoorState = MinimalState({ status: Field(Enum(DOOR_SENSOR_STATES)) }, ['subLocationsHierarchyKey']);
export const DoorSensorEvent = SensorEvent({ state: Field(Enum(DOOR_SENSOR_STATES)), stateChanged: Field(Bool) });
export const GetMinimalDoorStateListResponse = ResponseOf({ doorStates: Field(Type.Array(MinimalDoorState)) });
export const GetDoorEventsForSensorRequest = HistoryRequest('sensorUuid', { stateFilter: Field(Enum(DOOR_SENSOR_STATES)) });
export const GetDoorEventsForSensorResponse = ResponseOf({ doorEvents: Field(Type.Array(DoorSensorEvent)) });

// Occupancy sensors
export const MinimalOccupancySensorState = MinimalState({ status: Field(Enum(OCCUPANCY_STATES)), rawLux: Field(Int), normalizedLux: Field(Num) }, [
  'createdAtMillis',
]);
export const OccupancyEvent = SensorEvent({ state: Field(Enum(OCCUPANCY_STATES)), stateChanged: Field(Bool), lux: Field(Int), tampered: Field(Bool) });
export const GetMinimalOccupancySensorStateListResponse = ResponseOf({ occupancySensorStates: Field(Type.Array(MinimalOccupancySensorState)) });
export const GetOccupancyEventsForSensorRequest = HistoryRequest('sensorUuid');
export const GetOccupancyEventsForSensorResponse = ResponseOf({ events: Field(Type.Array(OccupancyEvent)) });

// Proximity tags
const Gps = Type.Object({ lat: Field(Num), lon: Field(Num), floor: Field(Int) });
export const MinimalProximityState = Type.Object({
  tagUuid: Field(Str),
  name: Field(Str),
  locationUuid: Field(Str),
  serialNumber: Field(Str),
  firmwareVersion: Field(Str),
  hwVariation: Field(Str),
  createdAtMillis: Field(Int),
  health: Field(Enum(['GREEN'] as const)),
  healthDetails: Field(Enum(['FIRMWARE_BEHIND', 'NONE'] as const)),
  batteryPercent: Field(Int),
  signalStrength: Field(Int),
  lastSeenSec: Field(Int),
  status: Field(Enum(PROXIMITY_STATUSES)),
  gpsLocation: Field(Gps),
  imageUrl: Field(Str),
  policyUuid: Field(Str),
});
const { timestampMs: _t, ...proximityEventFields } = sensorEventFields;
/** The catalogue's proximity event: its span, and no timestampMs. */
export const ProximityEvent = Type.Object({
  ...proximityEventFields,
  status: Field(Enum(PROXIMITY_STATUSES)),
  startTimeMs: Field(Int),
  endTimeMs: Field(Int),
  gpsLocation: Field(Gps),
});
export const LocomotionEvent = Type.Object({
  tagUuid: Field(Str),
  orgUuid: Field(Str),
  locationUuid: Field(Str),
  baseStationUuid: Field(Str),
  movement: Field(Enum(LOCOMOTION_MOVEMENTS)),
  gpsLocation: Field(Gps),
  timestampMs: Field(Int),
});
export const GetMinimalProximityStateListResponse = ResponseOf({ proximityStates: Field(Type.Array(MinimalProximityState)) });
export const GetProximityEventsForTagRequest = HistoryRequest('tagUuid', { statusFilter: Field(Enum(PROXIMITY_STATUSES)) });
export const GetProximityEventsForTagResponse = ResponseOf({ proximityEvents: Field(Type.Array(ProximityEvent)) });
export const GetLocomotionEventsForTagRequest = HistoryRequest('tagUuid', { movementFilter: Field(Enum(LOCOMOTION_MOVEMENTS)) });
export const GetLocomotionEventsForTagResponse = ResponseOf({ locomotionEvents: Field(Type.Array(LocomotionEvent)) });

// Keypads
export const KeypadConfig = Type.Object({
  uuid: Field(Str),
  orgUuid: Field(Str),
  name: Field(Str),
  locationUuid: Field(Str),
  locationName: Field(Str),
  tz: Field(Str),
  connectionState: Field(Enum(KEYPAD_CONNECTION_STATES)),
  armCountdownSecs: Field(Int),
  floorNumber: Field(Int),
  latitude: Field(Num),
  longitude: Field(Num),
  lastModified: Field(Int),
  signalStrength: Field(Int),
  platform: Field(Enum(['ANDROID', 'IOS'] as const)),
  ipAddress: Field(Str),
  buildingAdminPhoneNumber: Field(Str),
  showCallBuildingAdmin: Field(Bool),
  additionalFeaturesDisabled: Field(Bool),
  logoUuid: Field(Str),
  videoWallUuid: Field(Str),
  qualifiedAddress: Field(
    Type.Object({
      addressline1: Field(Str),
      addressLine2: Field(Str),
      locality: Field(Str),
      administrativeArea: Field(Str),
      postalCode: Field(Str),
      regionCode: Field(Str),
    }),
  ),
  subLocationsHierarchyKey: Field(SubLocations),
});
export const GetKeypadsForOrgResponse = ResponseOf({ keypads: Field(Type.Array(KeypadConfig)) });

// Audio gateways
export const MinimalAudioGatewayState = Type.Object({
  uuid: Field(Str),
  sensorUuid: Field(Str),
  name: Field(Str),
  locationUuid: Field(Str),
  serialNumber: Field(Str),
  firmwareVersion: Field(Str),
  createdAtMillis: Field(Int),
  connectionStatus: Field(Enum(DEVICE_STATUSES)),
  healthStatus: Field(Enum(DEVICE_STATUSES)),
  healthStatusDetails: Field(Str),
  defaultInterfaceMac: Field(Str),
  supportedFacets: Field(Strings),
  facetNameMap: Field(Type.Record(Type.String(), Type.String())),
  associatedCameras: Field(Strings),
  mummified: Field(Bool),
});
export const GetMinimalAudioGatewayStateListResponse = ResponseOf({ audioGatewayStates: Field(Type.Array(MinimalAudioGatewayState)) });

const Volume = (description: string) => Type.Integer({ minimum: 0, maximum: 100, description });
const Boost = Type.Integer({ minimum: 0, maximum: 30, description: 'dB' });
const Equalizer = Type.Object({
  frequency: Field(Type.Integer({ minimum: 20, maximum: 20_000 })),
  gain: Field(Type.Integer({ minimum: -24, maximum: 24 })),
  q: Field(Type.Integer({ minimum: 0, maximum: 100 })),
});
/** The audio settings a gateway keeps: each a configuration field of the reference's update request, with its range. */
export const AUDIO_CONFIG_FIELDS = {
  audioExternalMicBoost: Boost,
  audioExternalMicVolume: Volume('percent'),
  audioExternalSpeakerVolume: Volume('percent'),
  audioInternalMicAecEnabled: Bool,
  audioInternalMicBoost: Boost,
  audioInternalMicVolume: Volume('percent'),
  audioInternalSpeakerVolume: Volume('percent'),
  audioRecord: Bool,
  audioUseExternalMic: Bool,
  audioUseExternalSpeaker: Bool,
  deviceMicEnabled: Bool,
  deviceSpeakerEnabled: Bool,
  frontendNoiseSuppression: Bool,
  frontendEqualizerLowShelf: Equalizer,
  frontendEqualizerHighShelf: Equalizer,
  frontendEqualizerPeaking1: Equalizer,
  frontendEqualizerPeaking2: Equalizer,
  frontendEqualizerPeaking3: Equalizer,
};
export const AudioGatewayConfig = Type.Object({
  deviceUuid: Field(Str),
  orgUuid: Field(Str),
  lastModified: Field(Int),
  audio_external_mic_boost: Field(Int),
  audio_external_mic_volume: Field(Int),
  audio_external_speaker_volume: Field(Int),
  audio_internal_mic_aec_enabled: Field(Bool),
  audio_internal_mic_boost: Field(Int),
  audio_internal_mic_volume: Field(Int),
  audio_internal_speaker_volume: Field(Int),
  audio_record: Field(Bool),
  audio_use_external_mic: Field(Bool),
  audio_use_external_speaker: Field(Bool),
  device_mic_enabled: Field(Bool),
  device_speaker_enabled: Field(Bool),
  frontendNoiseSuppression: Field(Bool),
  frontendEqualizerLowShelf: Field(Equalizer),
  frontendEqualizerHighShelf: Field(Equalizer),
  frontendEqualizerPeaking1: Field(Equalizer),
  frontendEqualizerPeaking2: Field(Equalizer),
  frontendEqualizerPeaking3: Field(Equalizer),
});
export const GetAudioGatewayConfigRequest = Type.Object({ audioGatewayUuid: RefUuid('device', { notFound: 'Audio gateway' }) });
export const GetAudioGatewayConfigResponse = ResponseOf({ config: Field(AudioGatewayConfig) });
export const UpdateAudioGatewayConfigRequest = Type.Object({
  uuid: NotRef('subject', Ruuid()),
  ...Object.fromEntries(Object.entries(AUDIO_CONFIG_FIELDS).map(([k, v]) => [k, Field(v)])),
});
export const UpdateAudioGatewayConfigResponse = ResponseOf({});

// Doorbell cameras
export const ComponentEvent = Type.Object({
  uuid: Field(Str),
  componentUuid: Field(Str),
  ownerDeviceUuid: Field(Str),
  orgUuid: Field(Str),
  locationUuid: Field(Str),
  correlationId: Field(Str),
  type: Field(Enum(COMPONENT_EVENT_TYPES)),
  timestampMs: Field(Int),
  createdAtMs: Field(Int),
});
export const FindComponentEventsForDoorbellCameraRequest = HistoryRequest('doorbellCameraUuid', {
  typeFilter: Field(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 50 })),
});
export const FindComponentEventsForDoorbellCameraResponse = ResponseOf({ componentEvents: Field(Type.Array(ComponentEvent)) });

// Device features
export const GetDeviceFeaturesRequest = Type.Object({ deviceUuid: RefUuid('device', { notFound: true }) });
export const GetDeviceFeaturesResponse = ResponseOf({
  features: Field(Type.Object({ deviceUuid: Field(Str), featureMap: Field(Type.Record(Type.String(), Type.Boolean())) })),
});
export const UpdateDeviceFeaturesRequest = Type.Object({
  deviceUuid: RefUuid('device', { notFound: true }),
  featureMap: Type.Record(Type.String({ pattern: '^[A-Za-z0-9_]{1,64}$' }), Type.Boolean(), { maxProperties: 100 }),
});

export const ListRequest = EmptyRequest;

import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet } from '../../../ids.js';
import { write } from '../../../bus/write.js';
import { updateDeviceAttributes } from './device-events.service.js';
import type { Activity } from '../../../schemas/activities.js';
import { findDevice, findDevices, type DeviceRecord } from '../service.js';
import { DEVICE_KINDS, type DeviceKind } from '../tables.js';

/** What each kind of device can do, before an organization turns features off or on (updateDeviceFeatures). */
const KIND_FEATURES: Record<DeviceKind, readonly string[]> = {
  CAMERA: [
    'video',
    'audio',
    'motionDetection',
    'peopleDetection',
    'vehicleDetection',
    'faceRecognition',
    'lineCrossing',
    'occupancyCounting',
    'footageSeekpoints',
    'timelapse',
    'sharedLiveStream',
    'reboot',
  ],
  DOORBELL_CAMERA: ['video', 'audio', 'motionDetection', 'peopleDetection', 'doorbellPress', 'twoWayAudio', 'sharedLiveStream'],
  BUTTON: ['buttonPress', 'battery'],
  ENVIRONMENTAL_SENSOR: ['temperature', 'humidity', 'co2', 'pm25', 'tvoc', 'iaq', 'vapeDetection', 'thcDetection', 'battery'],
  ENVIRONMENTAL_GATEWAY: [
    'temperature',
    'humidity',
    'co2',
    'pm25',
    'vocIndex',
    'noxIndex',
    'pressure',
    'formaldehyde',
    'carbonMonoxide',
    'vapeDetection',
    'reboot',
  ],
  AUDIO_GATEWAY: ['audio', 'soundDetection', 'twoWayAudio'],
  DOOR_CONTROLLER: ['accessControl', 'doorPosition', 'requestToExit'],
  RELAY: ['relayOutput'],
  NVR: ['video', 'thirdPartyCameras', 'reboot', 'firmwareUpdate'],
  ELEVATOR_LANDING: ['accessControl'],
  DOOR_SENSOR: ['doorPosition', 'battery'],
  OCCUPANCY_SENSOR: ['occupancy', 'lux', 'battery'],
  BLE_TRACKER: ['proximity', 'locomotion', 'battery'],
  BADGE_READER: ['credentialRead', 'reboot'],
  KEYPAD: ['keypadEntry', 'alarmArming'],
};

export function featureMapOf(device: DeviceRecord): Record<string, boolean> {
  const overrides = (device.attributes.features ?? {}) as Record<string, boolean>;
  // What the device's licenses grant (access/licenses): present once it has been licensed.
  const licensed = (device.attributes.licenseFeatures ?? {}) as Record<string, boolean>;
  return { ...Object.fromEntries(KIND_FEATURES[device.deviceType].map((f) => [f, true])), ...overrides, ...licensed };
}

export async function getDeviceFeatures(deps: Pick<Deps, 'store'>, ctx: CallerContext, deviceUuid: string) {
  const device = await findDevice(deps, ctx.orgUuid, deviceUuid);
  if (!device) throw fail('NOT_FOUND', 'Device');
  return { deviceUuid: device.uuid, featureMap: featureMapOf(device) };
}

/** Turns features of a device on or off; only features its kind has may be set. */
export async function updateDeviceFeatures(
  deps: Pick<Deps, 'store' | 'bus' | 'clock'>,
  ctx: CallerContext,
  input: { deviceUuid: string; featureMap: Record<string, boolean> },
) {
  await write(deps, ctx, async (w) => {
    const device = await findDevice(w, ctx.orgUuid, input.deviceUuid);
    if (!device) throw fail('NOT_FOUND', 'Device');
    const known = new Set(KIND_FEATURES[device.deviceType]);
    const unknown = Object.keys(input.featureMap).filter((f) => !known.has(f));
    if (unknown.length > 0) throw fail('INVALID_VALUE', `featureMap.${unknown[0]}: not a feature of a ${device.deviceType} (${[...known].join(', ')})`);
    const features = { ...((device.attributes.features ?? {}) as Record<string, boolean>), ...input.featureMap };
    await updateDeviceAttributes(
      w,
      device,
      { ...device.attributes, features },
      { entity: 'DEVICE', update: (d) => ({ deviceUuid: d.uuid, featureMap: featureMapOf(d) }) },
    );
  });
}

/** The activities each feature raises: a device's event types are those of its features that are on. */
const FEATURE_ACTIVITIES: Record<string, readonly Activity[]> = {
  motionDetection: ['MOTION'],
  peopleDetection: ['MOTION_HUMAN'],
  vehicleDetection: ['MOTION_CAR'],
  faceRecognition: ['FACE', 'FACE_IDENTIFIED', 'FACE_UNIDENTIFIED'],
  lineCrossing: ['HUMAN_ENTER', 'HUMAN_EXIT', 'CAR_ENTER', 'CAR_EXIT'],
  occupancyCounting: ['PEOPLECOUNT_HIGH', 'PEOPLECOUNT_LOW'],
  audio: ['SOUND_LOUD'],
  soundDetection: ['AUDIO_SOUND_LOUD', 'AUDIO_SOUND_GUN', 'AUDIO_SOUND_GLASS_BREAK', 'AUDIO_SOUND_HELP'],
  doorbellPress: ['AC_DB_TRIGGERED', 'VISITOR_ARRIVED'],
  buttonPress: ['BUTTON_SINGLE_PRESSED', 'BUTTON_DOUBLE_PRESSED', 'BUTTON_LONG_PRESSED'],
  temperature: ['TEMPERATURE_EXCEEDED_HIGH', 'TEMPERATURE_EXCEEDED_LOW'],
  humidity: ['HUMIDITY_EXCEEDED_HIGH', 'HUMIDITY_EXCEEDED_LOW'],
  co2: ['CO2_EXCEEDED_HIGH', 'CO2_EXCEEDED_LOW'],
  pm25: ['PM25_EXCEEDED_HIGH'],
  tvoc: ['TVOC_EXCEEDED_HIGH'],
  iaq: ['IAQ_EXCEEDED_HIGH'],
  vocIndex: ['VOC_IDX_EXCEEDED_HIGH'],
  noxIndex: ['NOX_IDX_EXCEEDED_HIGH'],
  pressure: ['PRESSURE_EXCEEDED_HIGH', 'PRESSURE_EXCEEDED_LOW'],
  formaldehyde: ['FORMALDEHYDE_EXCEEDED_HIGH'],
  carbonMonoxide: ['CARBON_MONOXIDE_EXCEEDED_HIGH'],
  vapeDetection: ['CLIMATE_VAPE'],
  thcDetection: ['CLIMATE_THC'],
  doorPosition: ['DOOR_OPENED', 'DOOR_CLOSED', 'DOOR_AJAR'],
  occupancy: ['PIR_OCCUPIED', 'PIR_MOVEMENT', 'PIR_VACANT'],
  proximity: ['TAG_ARRIVED', 'TAG_DEPARTED'],
  locomotion: ['TAG_MOVED'],
  credentialRead: ['BADGE_AUTHORIZED', 'BADGE_UNAUTHORIZED'],
  accessControl: ['AC_BADGE_AUTHORIZED', 'AC_BADGE_UNAUTHORIZED', 'AC_REMOTE_UNLOCK'],
  requestToExit: ['AC_REX_ACTIVE'],
};

/** `feature/getDeviceEventTypes`: the activities the device can raise with the features it has on, in a stable order. */
export async function getDeviceEventTypes(deps: Pick<Deps, 'store'>, ctx: CallerContext, deviceId: string): Promise<Activity[]> {
  const device = await findDevice(deps, ctx.orgUuid, deviceOfFacet(deviceId) ?? deviceId);
  if (!device) throw fail('NOT_FOUND', 'Device');
  const on = Object.entries(featureMapOf(device)).filter(([, enabled]) => enabled);
  return [...new Set(on.flatMap(([feature]) => FEATURE_ACTIVITIES[feature] ?? []))];
}

/** `feature/getDeviceFeaturesList`: the feature maps of the devices asked for (one query); one the organization lacks fails the call. */
export async function getDeviceFeaturesList(deps: Pick<Deps, 'store'>, ctx: CallerContext, deviceIds: readonly string[]) {
  const uuids = deviceIds.map((id) => deviceOfFacet(id) ?? id);
  const devices = await findDevices(deps, ctx.orgUuid, uuids);
  return uuids.map((uuid) => {
    const device = devices.get(uuid);
    if (!device) throw fail('NOT_FOUND', 'Device');
    return { deviceUuid: device.uuid, featureMap: featureMapOf(device) };
  });
}

/** The hardware of each kind, as the platform names it (the kinds without a model of their own are left out). */
const KIND_HARDWARE: Partial<Record<DeviceKind, string>> = {
  CAMERA: 'CAMERA_R510',
  DOORBELL_CAMERA: 'CAMERA_R510',
  ENVIRONMENTAL_SENSOR: 'SENSOR_ENVIRONMENTAL_E2',
  ENVIRONMENTAL_GATEWAY: 'GATEWAY_ENVIRONMENTAL_E50',
  AUDIO_GATEWAY: 'GATEWAY_A100',
  DOOR_CONTROLLER: 'DOOR_CONTROLLER_DC20',
  DOOR_SENSOR: 'SENSOR_DOOR_D20',
  OCCUPANCY_SENSOR: 'SENSOR_MOTION_M15',
  BLE_TRACKER: 'SENSOR_ASSET_TAG_T1',
  BADGE_READER: 'BADGE_READER_DR40',
  BUTTON: 'BLE_BUTTON_B10',
};

/**
 * `feature/getFeatureCompatabilityMatrix`: every feature Gatehouse's devices have, the hardware that has it (on
 * by default there), and the activities it raises; from the same tables that decide a device's features.
 */
export function getFeatureCompatabilityMatrix() {
  const features = [...new Set(DEVICE_KINDS.flatMap((k) => KIND_FEATURES[k]))].sort();
  return features.map((feature) => {
    const hardware = [...new Set(DEVICE_KINDS.filter((k) => KIND_FEATURES[k].includes(feature)).flatMap((k) => KIND_HARDWARE[k] ?? []))];
    return {
      featureName: feature,
      generatedActivities: [...(FEATURE_ACTIVITIES[feature] ?? [])],
      supportedHardware: hardware,
      hardwareDefaultMap: Object.fromEntries(hardware.map((h) => [h, true])),
      requiredLicenses: [],
    };
  });
}

import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { write } from '../../store/write.js';
import { updateDeviceAttributes } from './device-events.service.js';
import { findDevice, type DeviceRecord } from './service.js';
import type { DeviceKind } from './tables.js';

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
  ELEVATOR_LANDING: ['accessControl'],
  DOOR_SENSOR: ['doorPosition', 'battery'],
  OCCUPANCY_SENSOR: ['occupancy', 'lux', 'battery'],
  BLE_TRACKER: ['proximity', 'locomotion', 'battery'],
  BADGE_READER: ['credentialRead', 'reboot'],
  KEYPAD: ['keypadEntry', 'alarmArming'],
};

export function featureMapOf(device: DeviceRecord): Record<string, boolean> {
  const overrides = (device.attributes.features ?? {}) as Record<string, boolean>;
  return { ...Object.fromEntries(KIND_FEATURES[device.deviceType].map((f) => [f, true])), ...overrides };
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

/** The platform's names of its device types, as its alerts and licenses name them. */
export const PLATFORM_DEVICE_TYPES = [
  'BLE_TRACKER',
  'CAMERA',
  'DOOR_SENSOR',
  'ENVIRONMENTAL_SENSOR',
  'OCCUPANCY_SENSOR',
  'AUDIO_GATEWAY',
  'EXECUTABLE',
  'BADGE_READER',
  'DOOR_CONTROLLER',
  'BLE_BUTTON',
  'IO_BOARD',
  'ENVIRONMENTAL_GATEWAY',
  'NVR',
  'ROBOT',
  'UNKNOWN',
] as const;
export type PlatformDeviceType = (typeof PLATFORM_DEVICE_TYPES)[number];

/** Where devices stand. The monitoring pin is kept only as a digest (see pins.ts). */
export interface LocationsTable {
  uuid: string;
  org_uuid: string;
  name: string;
  /** IANA time zone name; schedules are evaluated in it. */
  time_zone: string;
  monitoring_pin_digest: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  postal_code: string | null;
  country_code: string | null;
  latitude: number | null;
  longitude: number | null;
  created_at_ms: number;
  updated_at_ms: number;
}

export const DEVICE_KINDS = [
  'CAMERA',
  'BUTTON',
  'ENVIRONMENTAL_SENSOR',
  'AUDIO_GATEWAY',
  'DOOR_CONTROLLER',
  'RELAY',
  'ELEVATOR_LANDING',
] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];

/** The platform's DeviceStatusEnum, used for both connection and health. */
export const DEVICE_STATUSES = ['RED', 'ORANGE', 'YELLOW', 'GREEN'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

/** Every kind of device in one table: what differs by kind (thresholds, floor) lives in `attributes`. */
export interface DevicesTable {
  uuid: string;
  org_uuid: string;
  location_uuid: string | null;
  kind: DeviceKind;
  name: string;
  serial_number: string | null;
  firmware_version: string | null;
  connection_status: DeviceStatus;
  health_status: DeviceStatus;
  /** Normalised: lowercase hex pairs joined by colons. */
  mac_address: string | null;
  /** JSON object: `{thresholds}` for environmental sensors, `{floor}` for elevator landings. */
  attributes: string;
  created_at_ms: number;
  updated_at_ms: number;
}

/** Third-party (ONVIF) cameras a relay has seen on the network, by MAC address. */
export interface ThirdPartyCameraDiscoveriesTable {
  org_uuid: string;
  /** Normalised: lowercase hex pairs joined by colons. */
  mac_address: string;
  /** How many assignments (to a relay, a location) the discovery has; it may be deleted only at 0. */
  assignments: number;
  created_at_ms: number;
}

export interface DeviceTables {
  locations: LocationsTable;
  devices: DevicesTable;
  third_party_camera_discoveries: ThirdPartyCameraDiscoveriesTable;
}

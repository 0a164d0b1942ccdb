import type { Generated } from 'kysely';

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
  /** The location this one is a sub-location of (locations.service.ts); null or absent for a top-level one. */
  parent_uuid?: string | null;
}

export const DEVICE_KINDS = [
  'CAMERA',
  'BUTTON',
  'ENVIRONMENTAL_SENSOR',
  'AUDIO_GATEWAY',
  'DOOR_CONTROLLER',
  'RELAY',
  'ELEVATOR_LANDING',
  'ENVIRONMENTAL_GATEWAY',
  'DOOR_SENSOR',
  'OCCUPANCY_SENSOR',
  'BLE_TRACKER',
  'BADGE_READER',
  'KEYPAD',
  'DOORBELL_CAMERA',
  'NVR',
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
  /** JSON: what the relay saw (address, make, model, codec, the device that saw it and when); absent for older rows. */
  details?: string | null;
}

/** A grid of camera facets that a user arranges; visible to its owner, and to everyone once `shared`. */
export interface VideoWallsTable {
  uuid: string;
  org_uuid: string;
  /** The user behind the key that created it; null when no user was (a key without one). */
  owner_user_uuid: string | null;
  display_name: string;
  /** JSON array of device facet ids (`<camera uuid>.v0`). */
  device_list: string;
  /** JSON object: the layout settings, kept as given. */
  settings: string;
  shared: number;
  others_can_edit: number;
  created_at_ms: number;
  updated_at_ms: number;
}

/** Boxes around what a camera saw, at an instant: edges in permyriad of the image (0..10000). */
export interface FootageBoundingBoxesTable {
  id: Generated<number>;
  org_uuid: string;
  camera_uuid: string;
  /** Epoch ms of the frame. */
  ts: number;
  /** JSON: the box as the API returns it (a, ts, l, t, r, b and the optional fields). */
  box: string;
}

/** Whether alert monitoring is on at a location; a location without a row has never had it on. */
export interface LocationMonitoringTable {
  location_uuid: string;
  org_uuid: string;
  enabled: number;
  enabled_on_ms: number | null;
  disabled_on_ms: number | null;
}

export interface ElevatorLandingLabelsTable {
  landing_uuid: string;
  label: string;
  org_uuid: string;
  created_at_ms: number;
}

/**
 * What a device reported, one row per event (issue 19): climate readings, door and occupancy states, tag
 * status and movement, doorbell presses, connection changes. `record` is the event as the REST API returns it.
 */
export interface DeviceEventsTable {
  id: Generated<number>;
  org_uuid: string;
  device_uuid: string;
  /** Which history the event belongs to (see sensor-families.ts): climate, door, occupancy, connection, ... */
  family: string;
  /** Epoch ms of the event. */
  ts: number;
  /** The state the event reports (OPEN, OCCUPIED, ONLINE, ...), for filters; null when it has none. */
  state: string | null;
  /** JSON: the event as the REST API returns it. */
  record: string;
}

/** What a shared live stream shows: one camera, one doorbell camera, or the cameras of a video wall. */
export const LIVE_SHARE_KINDS = ['CAMERA', 'DOORBELL_CAMERA', 'VIDEO_WALL'] as const;
export type LiveShareKind = (typeof LIVE_SHARE_KINDS)[number];

/** Shared live video streams and shared video walls: key-less links (src/footage/share-links.ts) to live video. */
export interface SharedLiveStreamsTable {
  uuid: string;
  org_uuid: string;
  kind: LiveShareKind;
  /** The camera or doorbell camera (null for a video wall). */
  device_uuid: string | null;
  /** The video wall (null for a camera). */
  video_wall_uuid: string | null;
  name: string | null;
  /** StreamTypeEnum: who it is shared with (USER, ALARM_MONITORING, ...). */
  stream_type: string;
  vod_enabled: number;
  created_at_ms: number;
  /** null: the link does not expire. */
  expires_at_ms: number | null;
  /** scrypt digest of the link's password, or null for an open link. */
  password_digest: string | null;
  /** The secret in the link. */
  share_token: string;
  /** JSON object: the rest of the request, kept as given (includeAudio, audioGatewayUuid). */
  settings: string;
}

/** Raw HTTP streams of cameras: a path on the media host (`custom_path_part`) and its secret, sealed. */
export interface RawHttpStreamsTable {
  custom_path_part: string;
  org_uuid: string;
  device_uuid: string;
  name: string | null;
  stream_type: string;
  created_at_ms: number;
  /** The user who created it, or the API key's id when no user did. */
  created_by: string | null;
  /** The stream's secret, sealed with the server's key (identity: raw-http-stream:<org>:<path>). */
  secret_sealed: string;
}

/** A custom alert monitoring pin of a location (createCustomPinForLocation): only its salted digest is kept. */
export interface AlertMonitoringPinsTable {
  uuid: string;
  org_uuid: string;
  location_uuid: string;
  name: string;
  description: string | null;
  pin_digest: string;
  created_at_ms: number;
}

export interface DeviceTables {
  locations: LocationsTable;
  devices: DevicesTable;
  third_party_camera_discoveries: ThirdPartyCameraDiscoveriesTable;
  video_walls: VideoWallsTable;
  footage_bounding_boxes: FootageBoundingBoxesTable;
  location_monitoring: LocationMonitoringTable;
  elevator_landing_labels: ElevatorLandingLabelsTable;
  device_events: DeviceEventsTable;
  shared_live_streams: SharedLiveStreamsTable;
  raw_http_streams: RawHttpStreamsTable;
  alert_monitoring_pins: AlertMonitoringPinsTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../store/schema.js' {
  interface DB extends DeviceTables {}
}

import type { Generated } from 'kysely';

/**
 * Policy alerts. The fields the API filters, orders and pages by are columns (indexed for the cursor:
 * org, device, timestamp, uuid); every other field of the record is kept in `details` as JSON.
 */
export interface PolicyAlertsTable {
  uuid: string;
  org_uuid: string;
  device_uuid: string;
  location_uuid: string | null;
  /** PolicyAlertEnumType: POLICY_ALERT_V2. */
  type: string;
  /** DeviceTypeEnum of the raising device. */
  device_type: string;
  timestamp_ms: number;
  duration_sec: number | null;
  /** JSON array of activity values. */
  triggers: string;
  text_description: string | null;
  /** 0/1: saved as a clip. */
  saved: number;
  /** JSON object: the rest of the record (flags, media, counts, faces, vehicles, readings and thresholds...). */
  details: string;
  /** When the alert was dismissed; dismissed alerts leave the feeds (lists, groups, counts). */
  dismissed_at_ms: number | null;
  /** When the alert expires (is deleted); null for a saved alert, which is kept. */
  expires_at_ms: number | null;
}

export const CLIP_STATUSES = ['INITIATING', 'UPLOADING', 'RENDERING', 'FAILED', 'COMPLETE', 'OFFLINE', 'DELETED', 'UNKNOWN'] as const;
export type ClipStatus = (typeof CLIP_STATUSES)[number];

/** Saved clips; the media itself lives on the media host (src/media), under the data dir. */
export interface SavedClipsTable {
  uuid: string;
  org_uuid: string;
  /** The camera whose footage the clip holds. */
  device_uuid: string;
  source_alert_uuid: string | null;
  user_uuid: string | null;
  status: ClipStatus;
  /** Start of the footage: the order of getSavedClipsV2. */
  timestamp_ms: number;
  duration_sec: number;
  created_at_ms: number;
  title: string | null;
  description: string | null;
  sha256_hex: string | null;
  byte_count: number | null;
  video_content_type: string | null;
  thumbnail_content_type: string | null;
  /** JSON object: the rest of the record (access settings, maps, resolution...). */
  details: string;
  /** 0/1: spliced from the camera's footage, so Gatehouse renders its video (src/domains/events/clip-renderer.ts). */
  spliced: number;
  /** The render that owns the clip: a retry starts a new one, and an older render's moves then change nothing. */
  render_attempt: number;
  visibility: ClipVisibility;
  external_transaction_id: string | null;
  updated_at_ms: number | null;
}

export const CLIP_VISIBILITIES = ['PRIVATE', 'ROLE_RESTRICTED', 'ORG_WIDE'] as const;
export type ClipVisibility = (typeof CLIP_VISIBILITIES)[number];

/** Shared clip groups: a link to some clips the media host serves without an API key until it expires. */
export interface SharedClipGroupsTable {
  uuid: string;
  org_uuid: string;
  title: string | null;
  description: string | null;
  created_at_ms: number;
  expiration_time_secs: number;
  expires_at_ms: number;
  /** scrypt digest of the link's password, or null for an open link. */
  password_digest: string | null;
  /** The secret in the share link. */
  share_token: string;
  /** JSON array of {clipUuid, alertUuid}. */
  clips: string;
}

export const CROSSING_OBJECTS = ['HUMAN', 'VEHICLE', 'FACE'] as const;
export type CrossingObject = (typeof CROSSING_OBJECTS)[number];

/** Line-crossing counts a camera reported: what the people-counting reports add up. */
export interface CrossingEventsTable {
  id: Generated<number>;
  org_uuid: string;
  device_uuid: string;
  object: CrossingObject;
  timestamp_ms: number;
  ingress: number;
  egress: number;
}

/** Saved vehicles of an organization, by normalised licence plate: `alert` puts it on the watch list, `trust` on the trusted list. */
export interface VehiclesTable {
  org_uuid: string;
  license_plate: string;
  name: string | null;
  alert: number;
  trust: number;
  thumbnail_s3_key: string | null;
  /** JSON array of label strings. */
  labels: string;
  created_at_ms: number;
}

/** A licence plate a camera read. */
export interface VehicleEventsTable {
  uuid: string;
  org_uuid: string;
  device_uuid: string;
  location_uuid: string | null;
  license_plate: string;
  timestamp_ms: number;
}

/** When a running average (getRunningAverage) was last started again, per scope and its device, location or organization. */
export interface RunningAverageResetsTable {
  org_uuid: string;
  /** DEVICE, LOCATION or ORG. */
  scope: string;
  /** The device, location or (ORG) organization uuid. */
  target_uuid: string;
  reset_at_ms: number;
}

export interface EventTables {
  vehicles: VehiclesTable;
  vehicle_events: VehicleEventsTable;
  policy_alerts: PolicyAlertsTable;
  saved_clips: SavedClipsTable;
  shared_clip_groups: SharedClipGroupsTable;
  crossing_events: CrossingEventsTable;
  running_average_resets: RunningAverageResetsTable;
}

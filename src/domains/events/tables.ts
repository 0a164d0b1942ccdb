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

/**
 * What a saved clip holds: a video (uploaded by the camera, or spliced), a spliced frame (a JPEG), or a
 * timelapse. Timelapses are rendered by the same renderer and served from the same media paths, but they are
 * not saved clips: the saved-clip operations leave them out (SAVED_CLIP_KINDS) and the timelapse ones read them.
 */
export const CLIP_KINDS = ['CLIP', 'FRAME', 'TIMELAPSE'] as const;
export type ClipKind = (typeof CLIP_KINDS)[number];
export const SAVED_CLIP_KINDS: readonly ClipKind[] = ['CLIP', 'FRAME'];

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
  /** 0/1: spliced from the camera's footage, so Gatehouse renders its video (src/domains/events/clips/clip-renderer.ts). */
  spliced: number;
  /** The render that owns the clip: a retry starts a new one, and an older render's moves then change nothing. */
  render_attempt: number;
  visibility: ClipVisibility;
  external_transaction_id: string | null;
  updated_at_ms: number | null;
  kind: ClipKind;
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
  /** What the group shares: saved clips, or timelapses. */
  kind: SharedGroupKind;
}

export const SHARED_GROUP_KINDS = ['CLIPS', 'TIMELAPSES'] as const;
export type SharedGroupKind = (typeof SHARED_GROUP_KINDS)[number];

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
  /** Where in the image the crossing was seen: shares of the width and height (0..1, from the top left); default the centre. */
  position_x: Generated<number>;
  position_y: Generated<number>;
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
  /** How sure the camera was of the read, 0..1; null for reads stored before it was kept. */
  confidence?: number | null;
  /** When the read was reported as a misread (reportVehicleEvent): it then leaves every list and search. */
  reported_at_ms?: number | null;
  reported_by?: string | null;
  /** The plate the camera read, when the read was associated with another saved vehicle (license_plate). */
  read_plate?: string | null;
}

/** A device whose policy alerts notify nobody until `muted_until_ms` (muteNotificationsForDevice). */
export interface NotificationMutesTable {
  org_uuid: string;
  device_uuid: string;
  muted_until_ms: number;
  muted_at_ms: number;
  user_uuid: string | null;
}

/** A scene-query prompt: what to ask of the cameras; the rest of the record (cameras, condition, trigger) is `details` JSON. */
export interface PromptConfigurationsTable {
  uuid: string;
  org_uuid: string;
  name: string;
  /** COUNT, PERCENT, BOOLEAN or TEXT: how its answers are read. */
  prompt_type: string;
  details: string;
  created_at_ms: number;
  updated_at_ms: number;
}

/** A custom event: the answer a prompt gave on a camera at a moment. */
export interface CustomEventsTable {
  uuid: string;
  org_uuid: string;
  prompt_uuid: string;
  device_uuid: string;
  location_uuid: string | null;
  timestamp_ms: number;
  /** The answer as text: a number, true/false, or free text. */
  value: string;
  /** The answer as a number (BOOLEAN: 1 or 0; TEXT: null). */
  numeric_value: number | null;
  /** The prompt's check condition met (1), not met (0), or none to check (null). */
  check_result: number | null;
  /** The prompt as asked of this camera (with its override or extension). */
  prompt_text: string;
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

/** A clip group: a folder of an organization's saved clips. */
export interface ClipGroupsTable {
  uuid: string;
  org_uuid: string;
  title: string | null;
  description: string | null;
  created_at_ms: number;
  updated_at_ms: number;
}

/** A saved clip in a clip group, at its place in the group's order. */
export interface ClipGroupClipsTable {
  group_uuid: string;
  clip_uuid: string;
  org_uuid: string;
  position: number;
}

export interface EventTables {
  vehicles: VehiclesTable;
  vehicle_events: VehicleEventsTable;
  policy_alerts: PolicyAlertsTable;
  saved_clips: SavedClipsTable;
  shared_clip_groups: SharedClipGroupsTable;
  clip_groups: ClipGroupsTable;
  clip_group_clips: ClipGroupClipsTable;
  crossing_events: CrossingEventsTable;
  running_average_resets: RunningAverageResetsTable;
  notification_mutes: NotificationMutesTable;
  prompt_configurations: PromptConfigurationsTable;
  custom_events: CustomEventsTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../store/schema.js' {
  interface DB extends EventTables {}
}

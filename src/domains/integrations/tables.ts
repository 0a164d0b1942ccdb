import type { PartnerKind } from './partners/catalogue.js';

/** The integrations modelled in full, one row each at most per organization. */
export const INTEGRATION_KINDS = ['SMART_SENSOR', 'CHAT', 'BADGE', 'VIDEO_ANALYTICS', 'TICKETING', 'WEBHOOK'] as const;
export type CoreIntegrationKind = (typeof INTEGRATION_KINDS)[number];
/** Every integration kind: those modelled in full and the partners the settings engine serves (partners/catalogue.ts). */
export type IntegrationKind = CoreIntegrationKind | PartnerKind;

export interface IntegrationsTable {
  uuid: string;
  org_uuid: string;
  kind: IntegrationKind;
  enabled: number;
  /** JSON: the settings as last saved, without the secret fields. */
  settings: string;
  /** JSON: secret field name to its sealed value (src/secrets.ts); never returned. */
  secrets: string;
  /** JSON: the reference's integrationAuditMap (who changed the integration, when), newest entries kept. */
  audit_map: string;
  /** The badge system's inbound webhook id: unique across organizations, it names the organization. */
  webhook_uuid: string | null;
  /** The API key issued to the video-analytics system while its integration is enabled. */
  api_key_id: string | null;
  created_at_ms: number;
  updated_at_ms: number;
}

/** A badge event the badge system posted, verified, and recorded against the mapped door. */
export interface BadgeEventsTable {
  uuid: string;
  org_uuid: string;
  /** The badge system's own id of the event, when it sends one. */
  external_id: string | null;
  event_type: string;
  /** The doorInfoMap key (the badge system's door id). */
  door_key: string;
  door_name: string | null;
  location_uuid: string | null;
  /** JSON array of the door's camera uuids at the time of the event. */
  camera_uuids: string;
  holder_name: string | null;
  holder_person_uuid: string | null;
  face_mismatch: number;
  timestamp_ms: number;
  received_at_ms: number;
  /** What the badge system told of the badge and the areas (null when it did not). */
  badge_status: string | null;
  badge_type: string | null;
  area_entering: string | null;
  area_exiting: string | null;
  /** 0/1, and what Gatehouse read of the event (badge-access.ts): its activity and whether it is an anomaly. */
  entry_made: number;
  anomaly: number;
  activity: string;
}

/** The access-event search's index: one row per camera that saw a badge event (or one without a camera). */
export interface BadgeEventCamerasTable {
  uuid: string;
  org_uuid: string;
  event_uuid: string;
  camera_uuid: string | null;
  location_uuid: string | null;
  timestamp_ms: number;
}

/** Signatures of accepted badge posts, kept for the replay window so that a post is accepted once. */
export interface BadgeWebhookSignaturesTable {
  signature: string;
  org_uuid: string;
  seen_at_ms: number;
}

/** A marker on a camera's footage timeline, left by an integration (a badge event at the camera's door). */
export interface SeekPointsTable {
  uuid: string;
  org_uuid: string;
  camera_uuid: string;
  timestamp_ms: number;
  label: string;
  /** The record the seek point marks, e.g. a badge event's uuid. */
  source_uuid: string;
  created_at_ms: number;
}

export interface IntegrationTables {
  integrations: IntegrationsTable;
  badge_events: BadgeEventsTable;
  badge_webhook_signatures: BadgeWebhookSignaturesTable;
  seek_points: SeekPointsTable;
  badge_event_cameras: BadgeEventCamerasTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../store/schema.js' {
  interface DB extends IntegrationTables {}
}

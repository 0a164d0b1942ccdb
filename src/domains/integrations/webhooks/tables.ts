/**
 * What a webhook endpoint is for: ACTIVITY and DIAGNOSTIC are the V2 webhook URLs (policy alerts, device
 * diagnostics); SUBSCRIPTION is an automation tool's event subscription (subscribeZapierWebhook); LISTENER a
 * developer's event listener (developer/createEventListener: policy alerts of some activities, of a device). The
 * classic one-URL webhook is an integration (kind WEBHOOK), not an endpoint row.
 */
export const ENDPOINT_PURPOSES = ['ACTIVITY', 'DIAGNOSTIC', 'SUBSCRIPTION', 'LISTENER'] as const;
export type EndpointPurpose = (typeof ENDPOINT_PURPOSES)[number];

export interface WebhookEndpointsTable {
  uuid: string;
  org_uuid: string;
  purpose: EndpointPurpose;
  /** Unique within the organization: `${purpose}:${url}` for a V2 URL, the uuid for a subscription. */
  endpoint_key: string;
  url: string;
  /** The signing secret, sealed (src/secrets.ts); null: deliveries are not signed. */
  secret: string | null;
  /** Its masked form, so that reads never decrypt. */
  secret_masked: string | null;
  disabled: number;
  /** Why the endpoint was disabled by the server (e.g. the receiver answered 410); null when by its owner. */
  disabled_reason: string | null;
  /** JSON: a subscription's filter (zapEnum, uuids, doorState, thresholds); {} for a V2 URL. */
  filter: string;
  /** A subscription's back-off: at most one delivery per this many seconds. */
  backoff_sec: number | null;
  last_fired_at_ms: number | null;
  /** The change-log id when it was added or enabled: older changes (a catch-up's replay) are not sent to it. */
  since_change_id: number;
  created_at_ms: number;
  updated_at_ms: number;
}

/**
 * Where the webhook dispatcher is in each organization's change log, by position: positions commit in
 * order within an organization (src/bus/write.ts), so a cursor on them never passes a change that
 * commits late, as one on the global change id could on PostgreSQL.
 */
export interface WebhookOrgCursorsTable {
  org_uuid: string;
  last_position: number;
  updated_at_ms: number;
}

/** The last connection state the dispatcher saw of a device: a diagnostic is sent when it changes. */
export interface WebhookDeviceStatusTable {
  device_uuid: string;
  org_uuid: string;
  online: number;
  /** The change-log id of the change that last told it: an older change (a replay) cannot undo a newer one. */
  change_id: number;
  updated_at_ms: number;
}

export interface WebhookTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_org_cursors: WebhookOrgCursorsTable;
  webhook_device_status: WebhookDeviceStatusTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../../store/schema.js' {
  interface DB extends WebhookTables {}
}

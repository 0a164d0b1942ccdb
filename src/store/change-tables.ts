import type { Generated } from 'kysely';

/** The durable change log: every change is written here in its transaction, then announced on the bus. */
export interface ChangeEventsTable {
  id: Generated<number>;
  org_uuid: string;
  entity: string;
  entity_uuid: string;
  type: string;
  device_uuid: string | null;
  timestamp_ms: number;
  /** The record as the REST API returns it, JSON. */
  payload: string;
  /** The organization's position: 1, 2, 3, ... in commit order, gap-free (migration 0015). */
  position: number;
  /** When the change was logged (the write's time), for the log's retention. */
  logged_at_ms: number;
}

/** Per organization: the last position assigned, and the last one the retention has removed from the log. */
export interface ChangePositionsTable {
  org_uuid: string;
  last_position: number;
  pruned_through: Generated<number>;
}

/** The store's own name, kept through reset and restore: the default bus namespace. */
export interface StoreIdentityTable {
  id: string;
}

/** Audit rows and the durable change log are written by src/bus/write.ts for every domain. */
export interface AuditLogTable {
  id: Generated<number>;
  at_ms: number;
  org_uuid: string;
  user_uuid: string | null;
  api_key_id: string | null;
  partner_org_uuid: string | null;
  operation: string;
  entity: string;
  entity_uuid: string;
  action: string;
  /** The request's client address and user agent (migration 0140), null off REST. */
  source_ip: string | null;
  user_agent: string | null;
}

/** The secret key's check value (migration 0014; src/store/secret-key-check.ts). */
export interface SecretKeyChecksTable {
  name: string;
  sealed: string;
  created_at_ms: number;
}

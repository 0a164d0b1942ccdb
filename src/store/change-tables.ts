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
}

import type { Generated } from 'kysely';

/** A token that lets cameras register themselves into the organization, with where and how they land. */
export interface CameraBatchRegistrationsTable {
  /** The token's digest (batch-registration.service.ts), never the token. */
  token: string;
  org_uuid: string;
  location_uuid: string | null;
  policy_uuid: string | null;
  latitude: number | null;
  longitude: number | null;
  /** JSON arrays of permission group uuids. */
  admin_groups: string;
  read_only_groups: string;
  created_at_ms: number;
}

/** Each camera's attempt to register with a batch token, and its result. */
export interface CameraBatchRegistrationUsesTable {
  id: Generated<number>;
  token: string;
  org_uuid: string;
  /** The camera registered; null when the attempt was refused. */
  device_uuid: string | null;
  hardware_uuid: string;
  serial_number: string;
  result: string;
  ts: number;
}

export interface CameraTables {
  camera_batch_registrations: CameraBatchRegistrationsTable;
  camera_batch_registration_uses: CameraBatchRegistrationUsesTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../../store/schema.js' {
  interface DB extends CameraTables {}
}

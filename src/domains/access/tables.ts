import type { Generated } from 'kysely';

export type DoorPosition = 'OPEN' | 'CLOSED' | 'AJAR' | 'FORCED_OPEN';
export type LockState = 'LOCKED' | 'UNLOCKED';

export interface DoorsTable {
  uuid: string;
  org_uuid: string;
  location_uuid: string;
  name: string;
  has_lock: number;
  /** The schedule during which the door's access rules apply; null means always. */
  schedule_uuid: string | null;
  /** The DOOR_CONTROLLER device that drives the door. */
  controller_device_uuid: string | null;
  unlock_duration_ms: number;
  position: DoorPosition;
  lock_state: LockState;
  controller_online: number;
  /** When an unlocked door relocks; null while locked. Persisted so that a restart re-arms the relock. */
  relock_at_ms: number | null;
  created_at_ms: number;
  updated_at_ms: number;
}

export interface DoorCamerasTable {
  door_uuid: string;
  camera_uuid: string;
  org_uuid: string;
}

/** Which users may open which doors. */
export interface DoorAccessTable {
  door_uuid: string;
  user_uuid: string;
  org_uuid: string;
}

export type WorkflowStatus = 'ACTIVE' | 'UNASSIGNED' | 'SUSPENDED' | 'REVOKED';

export interface CredentialsTable {
  uuid: string;
  org_uuid: string;
  user_uuid: string | null;
  /** The specification's type name (aliases are stored canonical). */
  type: string;
  value: string;
  lowercase_hex_value: string;
  /** What a presentation at a reader is matched on (credential-formats.ts lookupKey). */
  lookup_key: string;
  /** The lookup key while the credential claims its value; null once revoked, which releases the value. */
  claimed_key: string | null;
  num_bits: number;
  facility_code: number | null;
  company_id: number | null;
  card_number: number | null;
  note: string | null;
  workflow_status: WorkflowStatus;
  start_epoch_sec: number | null;
  end_epoch_sec: number | null;
  last_used_at_ms: number | null;
  last_used_door_uuid: string | null;
  last_used_location_uuid: string | null;
  created_at_ms: number;
  updated_at_ms: number;
}

/** A door's event history: every event's full record is the JSON payload; the columns are what it is queried by. */
export interface DoorEventsTable {
  id: Generated<number>;
  uuid: string;
  org_uuid: string;
  door_uuid: string;
  type: string;
  timestamp_ms: number;
  user_uuid: string | null;
  payload: string;
}

/** A location under lockdown; no row means standard security. */
export interface LocationLockdownsTable {
  location_uuid: string;
  org_uuid: string;
  lockdown_plan_uuid: string | null;
  started_at_ms: number;
}

export interface AccessTables {
  doors: DoorsTable;
  door_cameras: DoorCamerasTable;
  door_access: DoorAccessTable;
  access_credentials: CredentialsTable;
  door_events: DoorEventsTable;
  location_lockdowns: LocationLockdownsTable;
}

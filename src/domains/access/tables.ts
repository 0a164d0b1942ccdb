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
  /** The door's state when no schedule, exception or lockdown says otherwise (door-state.ts). */
  default_state: DoorAccessState;
  /** The schedules during which the door is UNLOCKED / ACCESS_CONTROLLED (the platform's doorStateToScheduleUuidMap). */
  unlocked_schedule_uuid: string | null;
  controlled_schedule_uuid: string | null;
  /** Why the relay is held unlocked (a schedule, an exception, a lockdown, the default state); null when not held. */
  held_source: DoorStateSource | null;
  /** When the door's expected state next changes: the scheduler re-applies it then. */
  state_check_at_ms: number | null;
  /** The expected state last applied, what decided it, and when (the door shadow). */
  access_state: DoorAccessState;
  access_state_source: DoorStateSource;
  access_state_at_ms: number | null;
}

export type DoorAccessState = 'UNLOCKED' | 'ACCESS_CONTROLLED';
/** What decided a door's state, in the platform's AccessStateSourceEnum names. */
export type DoorStateSource = 'DEFAULT_STATE' | 'SCHEDULE' | 'SCHEDULE_EXCEPTION' | 'LOCKDOWN';

export interface DoorCamerasTable {
  door_uuid: string;
  camera_uuid: string;
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
  // What the component event finders search (door-events.store.ts), copied out of the payload.
  location_uuid: string | null;
  owner_device_uuid: string | null;
  credential_uuid: string | null;
  credential_hex_value: string | null;
  credential_value: string | null;
  correlation_id: string | null;
  api_token_uuid: string | null;
}

export interface AccessTables {
  doors: DoorsTable;
  door_cameras: DoorCamerasTable;
  access_credentials: CredentialsTable;
  door_events: DoorEventsTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../store/schema.js' {
  interface DB extends AccessTables {}
}

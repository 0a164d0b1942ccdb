import type { Generated } from 'kysely';
import type { DoorStateSource, LockState } from './tables.js';

/** A location's lockdown state, once tracked; no row means standard security and nothing tracked. */
export interface LocationLockdownStatesTable {
  location_uuid: string;
  org_uuid: string;
  state: 'LOCKED_DOWN' | 'STANDARD_SECURITY';
  /** JSON: the active plans' uuids (empty for a plan-less lockdown). */
  active_plans: string;
  /** Test mode: an activation follows the plans' test plans (what they override) instead of overriding everything. */
  following_test_plan: number;
  /** What the active lockdown overrides: the doors' relays, and the users' access. */
  doors_overridden: number;
  access_overridden: number;
  created_at_ms: number;
  updated_at_ms: number;
  state_changed_at_ms: number | null;
}

/** A door's relay as it was when a lockdown took it over. */
export interface LockdownDoorSnapshotsTable {
  door_uuid: string;
  org_uuid: string;
  location_uuid: string;
  lock_state: LockState;
  relock_at_ms: number | null;
  held_source: DoorStateSource | null;
}

export interface LocationLockdownEventsTable {
  id: Generated<number>;
  uuid: string;
  org_uuid: string;
  location_uuid: string;
  created_at_ms: number;
  payload: string;
}

/** A door schedule exception: the record is JSON; its dates and doors are what the lookups use. */
export interface DoorScheduleExceptionsTable {
  uuid: string;
  org_uuid: string;
  location_uuid: string | null;
  /** YYYY-MM-DD on the wall clock of the doors' locations, inclusive both. */
  local_start_date: string;
  local_end_date: string;
  data: string;
  created_at_ms: number;
}

export interface DoorScheduleExceptionDoorsTable {
  exception_uuid: string;
  door_uuid: string;
  org_uuid: string;
  local_start_date: string;
  local_end_date: string;
}

export interface GuestPassesTable {
  uuid: string;
  org_uuid: string;
  location_uuid: string;
  /** SHA-256 of the organization and the value: how a presented value is matched without keeping it readable. */
  value_digest: string;
  sealed_value: string;
  lifecycle: 'ACTIVE' | 'SUSPENDED' | 'EXPIRED' | 'ARCHIVED';
  pass_start_ms: number;
  pass_end_ms: number;
  data: string;
  created_at_ms: number;
  updated_at_ms: number;
}

export interface GuestPassDoorsTable {
  pass_uuid: string;
  door_uuid: string;
  org_uuid: string;
}

export interface AccessLockdownTables {
  location_lockdown_states: LocationLockdownStatesTable;
  lockdown_door_snapshots: LockdownDoorSnapshotsTable;
  location_lockdown_events: LocationLockdownEventsTable;
  door_schedule_exceptions: DoorScheduleExceptionsTable;
  door_schedule_exception_doors: DoorScheduleExceptionDoorsTable;
  guest_passes: GuestPassesTable;
  guest_pass_doors: GuestPassDoorsTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../store/schema.js' {
  interface DB extends AccessLockdownTables {}
}

import { fail } from '../../errors.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import type { WriteScope } from '../../store/write.js';
import { findLocation } from '../devices/service.js';
import { lockRelay } from './relay.service.js';
import { findDoor } from './service.js';
import * as store from './store.js';
import type { LocationLockdownsTable } from './tables.js';

/** The entity name of lockdown state changes on the stream. */
export const LOCKDOWN_ENTITY = 'LOCATION_LOCKDOWN';

/** A location's lockdown state (the reference's LocationLockdownStateType, with the fields Gatehouse keeps). */
export interface LocationLockdownRecord {
  orgUuid: string;
  locationUuid: string;
  state: 'LOCKED_DOWN' | 'STANDARD_SECURITY';
  activeLockdownPlans: Array<{ lockdownPlanUuid: string | null; scope: 'LOCATION_LOCKDOWN'; scopeUuid: string }>;
  stateChangedAtMillis: number | null;
}

function toLockdownRecord(orgUuid: string, locationUuid: string, row: LocationLockdownsTable | undefined, changedAtMs: number | null): LocationLockdownRecord {
  return {
    orgUuid,
    locationUuid,
    state: row ? 'LOCKED_DOWN' : 'STANDARD_SECURITY',
    activeLockdownPlans: row ? [{ lockdownPlanUuid: row.lockdown_plan_uuid, scope: 'LOCATION_LOCKDOWN', scopeUuid: locationUuid }] : [],
    stateChangedAtMillis: row ? Number(row.started_at_ms) : changedAtMs,
  };
}

async function locationOf(w: WriteScope, locationUuid: string): Promise<string> {
  const location = await findLocation(w, w.actor.orgUuid, locationUuid);
  if (!location) throw fail('NOT_FOUND', 'Location');
  return location.uuid;
}

/**
 * Locks a location down, in the caller's write: badge-ins at its doors are refused until it ends, and its
 * unlocked doors lock at once. Starting a lockdown that holds already changes nothing.
 */
export async function startLocationLockdown(w: WriteScope, input: { locationUuid: string; lockdownPlanUuid?: string | null }): Promise<LocationLockdownRecord> {
  const orgUuid = w.actor.orgUuid;
  const locationUuid = await locationOf(w, input.locationUuid);
  const existing = await store.findLockdown(w.tx, orgUuid, locationUuid);
  if (existing) return toLockdownRecord(orgUuid, locationUuid, existing, null);
  const row = { location_uuid: locationUuid, org_uuid: orgUuid, lockdown_plan_uuid: input.lockdownPlanUuid ?? null, started_at_ms: w.nowMs };
  await store.insertLockdown(w.tx, row);
  for (const unlocked of await store.listUnlockedDoorsAtLocation(w.tx, orgUuid, locationUuid)) {
    await lockRelay(w, (await findDoor(w, orgUuid, unlocked.uuid))!, w.nowMs, {});
  }
  const record = toLockdownRecord(orgUuid, locationUuid, row, null);
  w.change({ entity: LOCKDOWN_ENTITY, entityUuid: locationUuid, type: 'UPDATE', update: record });
  return record;
}

/** Ends a location's lockdown, in the caller's write; ending one that does not hold changes nothing. */
export async function endLocationLockdown(w: WriteScope, input: { locationUuid: string }): Promise<LocationLockdownRecord> {
  const orgUuid = w.actor.orgUuid;
  const locationUuid = await locationOf(w, input.locationUuid);
  if (!(await store.findLockdown(w.tx, orgUuid, locationUuid))) return toLockdownRecord(orgUuid, locationUuid, undefined, null);
  await store.deleteLockdown(w.tx, orgUuid, locationUuid);
  const record = toLockdownRecord(orgUuid, locationUuid, undefined, w.nowMs);
  w.change({ entity: LOCKDOWN_ENTITY, entityUuid: locationUuid, type: 'UPDATE', update: record });
  return record;
}

/** Whether a location of the organization is locked down. */
export async function isLockedDown(source: ReadSource, orgUuid: string, locationUuid: string): Promise<boolean> {
  return (await store.findLockdown(dbOf(source), orgUuid, locationUuid)) !== undefined;
}

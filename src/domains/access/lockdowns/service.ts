import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { findLocation } from '../../devices/service.js';
import type { LocationLockdownStatesTable } from '../access-lockdown.tables.js';
import { recordDoorEvent } from '../door-events/service.js';
import { applyDoorState } from '../doors/door-state.js';
import { doorLockdownOf, plansByUuid, plansOfLocation } from './lockdown-plans.js';
import { doorStateUnderPlans, originatorOf, type LocationLockdownEventRecord, type LocationLockdownRecord, type LockdownPlanRecord } from './model.js';
import * as store from './store.js';
import { changeDoorState, listDoorsAt, type DoorRecord } from '../service.js';

export type { LocationLockdownRecord } from './model.js';

/** The entity names of lockdown states and lockdown events on the stream. */
export const LOCKDOWN_ENTITY = 'LOCATION_LOCKDOWN';
export const LOCKDOWN_EVENT_ENTITY = 'LOCATION_LOCKDOWN_EVENT';
export const LOCKDOWN_EVENT_PAGE = { default: 100, max: 1000 };

type LockdownDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

export type ActivationResult = 'SUCCESS' | 'INVALID_LOCKDOWN_PLANS' | 'OPTIMISTIC_CONCURRENCY';

const activePlansOf = (row: LocationLockdownStatesTable | undefined): string[] => (row?.state === 'LOCKED_DOWN' ? JSON.parse(row.active_plans) : []);

function toRecord(orgUuid: string, locationUuid: string, row: LocationLockdownStatesTable | undefined): LocationLockdownRecord {
  const plans = activePlansOf(row);
  const refs = (row?.state === 'LOCKED_DOWN' && plans.length === 0 ? [null] : plans).map((lockdownPlanUuid) => ({
    lockdownPlanUuid,
    scope: 'LOCATION_LOCKDOWN' as const,
    scopeUuid: locationUuid,
  }));
  return {
    orgUuid,
    locationUuid,
    state: row?.state ?? 'STANDARD_SECURITY',
    activeLockdownPlans: refs,
    followingTestPlan: Boolean(row?.following_test_plan),
    createdAtMillis: row ? Number(row.created_at_ms) : null,
    updatedAtMillis: row ? Number(row.updated_at_ms) : null,
    stateChangedAtMillis: row?.state_changed_at_ms == null ? null : Number(row.state_changed_at_ms),
  };
}

async function locationOf(w: WriteScope, locationUuid: string): Promise<string> {
  if (!(await findLocation(w, w.actor.orgUuid, locationUuid))) throw fail('NOT_FOUND', 'Location');
  return locationUuid;
}

/** Writes the state row (inserting it when the location is not tracked yet) and announces it. */
async function saveState(w: WriteScope, previous: LocationLockdownStatesTable | undefined, row: LocationLockdownStatesTable): Promise<LocationLockdownRecord> {
  await (previous ? store.updateState(w.tx, row) : store.insertState(w.tx, row));
  const record = toRecord(row.org_uuid, row.location_uuid, row);
  w.change({ entity: LOCKDOWN_ENTITY, entityUuid: row.location_uuid, type: previous ? 'UPDATE' : 'CREATE', update: record });
  return record;
}

function newStateRow(w: WriteScope, locationUuid: string): LocationLockdownStatesTable {
  return {
    location_uuid: locationUuid,
    org_uuid: w.actor.orgUuid,
    state: 'STANDARD_SECURITY',
    active_plans: '[]',
    following_test_plan: 0,
    doors_overridden: 0,
    access_overridden: 0,
    created_at_ms: w.nowMs,
    updated_at_ms: w.nowMs,
    state_changed_at_ms: null,
  };
}

async function recordLockdownEvent(
  w: WriteScope,
  row: LocationLockdownStatesTable,
  type: LocationLockdownEventRecord['type'],
  planUuids: string[],
): Promise<void> {
  const event: LocationLockdownEventRecord = {
    uuid: newRuuid(),
    orgUuid: row.org_uuid,
    locationUuid: row.location_uuid,
    type,
    followingTestPlan: Boolean(row.following_test_plan),
    originator: originatorOf(w.actor),
    lockdownPlanUuids: planUuids,
    stateChangedAtMillis: w.nowMs,
    createdAtMillis: w.nowMs,
  };
  await store.insertEvent(w.tx, {
    uuid: event.uuid,
    org_uuid: event.orgUuid,
    location_uuid: event.locationUuid,
    created_at_ms: w.nowMs,
    payload: JSON.stringify(event),
  });
  w.change({ entity: LOCKDOWN_EVENT_ENTITY, entityUuid: event.uuid, type: 'CREATE', update: event });
}

/** Every door of the location records the lockdown state it now has (DoorLocationLockdownStateEvent). */
async function recordDoorLockdownStates(w: WriteScope, doors: readonly DoorRecord[], stateOf: (door: DoorRecord) => string): Promise<void> {
  for (const door of doors) {
    const state = stateOf(door);
    await recordDoorEvent(w, door, w.nowMs, {
      type: 'DoorLocationLockdownStateEvent',
      newState: state,
      activeDoorLockdownState: state as 'LOCKED_DOWN' | 'ACCESS_CONTROLLED' | 'UNLOCKED',
      originator: originatorOf(w.actor),
    });
  }
}

/**
 * Activates a lockdown at a location, in the caller's write, with the given plans (none given: every plan of
 * the location; a location without plans locks every door down). Plans add to those already active. Unless the
 * location follows its test plan, the lockdown overrides its doors (each door's relay is kept, then the door
 * takes its lockdown state: LOCKED_DOWN and ACCESS_CONTROLLED lock it at once, UNLOCKED holds it unlocked) and
 * its users' access (badge-ins are refused but for the plans' physicalAccess users). In test mode it overrides
 * only what the plans' testPlan enables, and records the same events.
 */
export async function activateLockdown(
  w: WriteScope,
  input: { locationUuid: string; lockdownPlanUuids?: string[] | null; stateUpdatedAtMillis?: number | null },
): Promise<{ result: ActivationResult; state: LocationLockdownRecord }> {
  const orgUuid = w.actor.orgUuid;
  const locationUuid = await locationOf(w, input.locationUuid);
  const previous = await store.findState(w.tx, orgUuid, locationUuid);
  if (input.stateUpdatedAtMillis != null && previous && Number(previous.updated_at_ms) !== input.stateUpdatedAtMillis)
    return { result: 'OPTIMISTIC_CONCURRENCY', state: toRecord(orgUuid, locationUuid, previous) };
  const asked = [...new Set(input.lockdownPlanUuids ?? [])];
  let added: LockdownPlanRecord[];
  if (asked.length > 0) {
    added = await plansByUuid(w, orgUuid, asked);
    if (added.length !== asked.length || added.some((p) => p.locationUuid !== locationUuid))
      return { result: 'INVALID_LOCKDOWN_PLANS', state: toRecord(orgUuid, locationUuid, previous) };
  } else {
    added = await plansOfLocation(w, orgUuid, locationUuid);
  }
  const before = activePlansOf(previous);
  const active = [...new Set([...before, ...added.map((p) => p.uuid)])].sort();
  if (previous?.state === 'LOCKED_DOWN' && active.join() === [...before].sort().join())
    return { result: 'SUCCESS', state: toRecord(orgUuid, locationUuid, previous) };

  const plans = await plansByUuid(w, orgUuid, active);
  const testing = Boolean(previous?.following_test_plan);
  const doorsOverridden = !testing || plans.some((p) => p.testPlan.doorStateOverrideEnabled);
  const accessOverridden = !testing || plans.some((p) => p.testPlan.userAccessOverrideEnabled);
  const row: LocationLockdownStatesTable = {
    ...(previous ?? newStateRow(w, locationUuid)),
    state: 'LOCKED_DOWN',
    active_plans: JSON.stringify(active),
    doors_overridden: doorsOverridden ? 1 : 0,
    access_overridden: accessOverridden ? 1 : 0,
    updated_at_ms: w.nowMs,
    state_changed_at_ms: previous?.state === 'LOCKED_DOWN' ? previous.state_changed_at_ms : w.nowMs,
  };
  const state = await saveState(w, previous, row);
  const doors = await listDoorsAt(w, orgUuid, locationUuid);
  if (doorsOverridden) {
    for (const door of doors) {
      if (door.hasLock) {
        await store.saveSnapshot(w.tx, {
          door_uuid: door.uuid,
          org_uuid: orgUuid,
          location_uuid: locationUuid,
          lock_state: door.lockState,
          relock_at_ms: door.relockAtMillis,
          held_source: door.heldSource,
        });
      }
      await applyDoorState(w, door);
    }
  }
  await recordDoorLockdownStates(w, doors, (door) => doorStateUnderPlans(plans, door.uuid));
  await recordLockdownEvent(w, row, 'LOCKDOWN_ACTIVATED', active);
  return { result: 'SUCCESS', state };
}

/**
 * Ends a location's lockdown, in the caller's write: each door taken over gets back what it had (an unlock
 * still running resumes until its relock), then follows its schedules again. Ending none changes nothing.
 */
export async function deactivateLockdown(
  w: WriteScope,
  input: { locationUuid: string; stateUpdatedAtMillis?: number | null },
): Promise<{ result: Exclude<ActivationResult, 'INVALID_LOCKDOWN_PLANS'>; state: LocationLockdownRecord }> {
  const orgUuid = w.actor.orgUuid;
  const locationUuid = await locationOf(w, input.locationUuid);
  const previous = await store.findState(w.tx, orgUuid, locationUuid);
  if (input.stateUpdatedAtMillis != null && previous && Number(previous.updated_at_ms) !== input.stateUpdatedAtMillis)
    return { result: 'OPTIMISTIC_CONCURRENCY', state: toRecord(orgUuid, locationUuid, previous) };
  if (previous?.state !== 'LOCKED_DOWN') return { result: 'SUCCESS', state: toRecord(orgUuid, locationUuid, previous) };
  const ended = activePlansOf(previous);
  const row: LocationLockdownStatesTable = {
    ...previous,
    state: 'STANDARD_SECURITY',
    active_plans: '[]',
    doors_overridden: 0,
    access_overridden: 0,
    updated_at_ms: w.nowMs,
    state_changed_at_ms: w.nowMs,
  };
  const state = await saveState(w, previous, row);
  const snapshots = new Map((await store.takeSnapshots(w.tx, orgUuid, locationUuid)).map((s) => [s.door_uuid, s]));
  const doors = await listDoorsAt(w, orgUuid, locationUuid);
  for (let door of doors) {
    const snapshot = snapshots.get(door.uuid);
    const resumed = snapshot?.lock_state === 'UNLOCKED' && snapshot.held_source === null && Number(snapshot.relock_at_ms ?? 0) > w.nowMs;
    if (resumed && door.lockState === 'LOCKED') {
      await recordDoorEvent(w, door, w.nowMs, { type: 'DoorRelayStateChangeEvent', newState: 'UNLOCKED', originator: originatorOf(w.actor) });
      door = await changeDoorState(w, door, { lockState: 'UNLOCKED', relockAtMillis: Number(snapshot.relock_at_ms), heldSource: null });
    }
    await applyDoorState(w, door);
  }
  await recordDoorLockdownStates(w, doors, () => 'ACCESS_CONTROLLED');
  await recordLockdownEvent(w, row, 'LOCKDOWN_DEACTIVATED', ended);
  return { result: 'SUCCESS', state };
}

/** Test mode of a location: while on, an activation overrides only what its plans' testPlan enables. */
export async function setTestMode(w: WriteScope, input: { locationUuid: string }, on: boolean): Promise<LocationLockdownRecord> {
  const locationUuid = await locationOf(w, input.locationUuid);
  const previous = await store.findState(w.tx, w.actor.orgUuid, locationUuid);
  if (previous && Boolean(previous.following_test_plan) === on) return toRecord(w.actor.orgUuid, locationUuid, previous);
  return saveState(w, previous, { ...(previous ?? newStateRow(w, locationUuid)), following_test_plan: on ? 1 : 0, updated_at_ms: w.nowMs });
}

/** The lockdown state of a location, tracked from now on if it was not. */
export async function getOrCreateState(w: WriteScope, input: { locationUuid: string }): Promise<LocationLockdownRecord> {
  const locationUuid = await locationOf(w, input.locationUuid);
  const previous = await store.findState(w.tx, w.actor.orgUuid, locationUuid);
  return previous ? toRecord(w.actor.orgUuid, locationUuid, previous) : saveState(w, undefined, newStateRow(w, locationUuid));
}

/** Stops tracking a location's lockdown state; refused while the location is locked down. */
export async function deleteState(w: WriteScope, input: { locationUuid: string }): Promise<void> {
  const locationUuid = await locationOf(w, input.locationUuid);
  const previous = await store.findState(w.tx, w.actor.orgUuid, locationUuid);
  if (!previous) return;
  if (previous.state === 'LOCKED_DOWN') throw fail('NOT_ALLOWED', 'The location is locked down; deactivate the lockdown first');
  await store.deleteState(w.tx, w.actor.orgUuid, locationUuid);
  w.change({ entity: LOCKDOWN_ENTITY, entityUuid: locationUuid, type: 'DELETE', update: toRecord(w.actor.orgUuid, locationUuid, undefined) });
}

export async function findStates(
  deps: Pick<Deps, 'store'>,
  ctx: Pick<CallerContext, 'orgUuid'>,
  input: { stateFilter?: Array<LocationLockdownStatesTable['state']> | null },
): Promise<LocationLockdownRecord[]> {
  return (await store.listStates(deps.store.db, ctx.orgUuid, input.stateFilter ?? undefined)).map((r) => toRecord(ctx.orgUuid, r.location_uuid, r));
}

export async function findEvents(
  deps: Pick<Deps, 'store'>,
  ctx: Pick<CallerContext, 'orgUuid'>,
  input: { locationUuid: string; createdAfterMs?: number | null; createdBeforeMs?: number | null; limit?: number | null },
): Promise<LocationLockdownEventRecord[]> {
  const rows = await store.listEvents(deps.store.db, ctx.orgUuid, input.locationUuid, {
    afterMs: input.createdAfterMs ?? undefined,
    beforeMs: input.createdBeforeMs ?? undefined,
    limit: Math.min(input.limit ?? LOCKDOWN_EVENT_PAGE.default, LOCKDOWN_EVENT_PAGE.max),
  });
  return rows.map((r) => JSON.parse(r.payload) as LocationLockdownEventRecord);
}

/** The REST operations that change a lockdown, each in its own write. */
export const lockdownWrites = {
  activate: (deps: LockdownDeps, ctx: CallerContext, input: Parameters<typeof activateLockdown>[1]) => write(deps, ctx, (w) => activateLockdown(w, input)),
  deactivate: (deps: LockdownDeps, ctx: CallerContext, input: Parameters<typeof deactivateLockdown>[1]) =>
    write(deps, ctx, (w) => deactivateLockdown(w, input)),
  testMode: (deps: LockdownDeps, ctx: CallerContext, input: { locationUuid: string }, on: boolean) => write(deps, ctx, (w) => setTestMode(w, input, on)),
  getOrCreate: (deps: LockdownDeps, ctx: CallerContext, input: { locationUuid: string }) => write(deps, ctx, (w) => getOrCreateState(w, input)),
  remove: (deps: LockdownDeps, ctx: CallerContext, input: { locationUuid: string }) => write(deps, ctx, (w) => deleteState(w, input)),
};

/**
 * Locks a location down with one plan (or, without one, as activateLockdown does with none), in the caller's
 * write: what a rule's activateLocationLockdown action does. A plan that is not the location's is refused.
 */
export async function startLocationLockdown(w: WriteScope, input: { locationUuid: string; lockdownPlanUuid?: string | null }): Promise<LocationLockdownRecord> {
  const { result, state } = await activateLockdown(w, {
    locationUuid: input.locationUuid,
    lockdownPlanUuids: input.lockdownPlanUuid ? [input.lockdownPlanUuid] : [],
  });
  if (result === 'INVALID_LOCKDOWN_PLANS') throw fail('NOT_FOUND', `Lockdown plan ${input.lockdownPlanUuid} of the location`);
  return state;
}

/** Ends a location's lockdown, in the caller's write; ending one that does not hold changes nothing. */
export async function endLocationLockdown(w: WriteScope, input: { locationUuid: string }): Promise<LocationLockdownRecord> {
  return (await deactivateLockdown(w, input)).state;
}

/** Whether a location of the organization is locked down. */
export async function isLockedDown(source: ReadSource, orgUuid: string, locationUuid: string): Promise<boolean> {
  return (await store.findState(dbOf(source), orgUuid, locationUuid))?.state === 'LOCKED_DOWN';
}

/** Why a door refuses a remote unlock while its location's lockdown holds it, or null when it does not. */
export async function lockdownRefusal(source: ReadSource, door: DoorRecord): Promise<string | null> {
  const lockdown = await doorLockdownOf(source, door);
  if (!lockdown?.doorsOverridden || lockdown.state === 'UNLOCKED') return null;
  return `Door ${door.name} is locked down: its location's lockdown holds it`;
}

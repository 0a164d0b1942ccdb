import { firstByName } from '../../../store/by-name.js';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { orgRecords } from '../../../records/org-records.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { forgetRecord, type RecordCleaner, type RecordFinder } from '../../../records/references.js';
import { findLocation } from '../../devices/service.js';
import type { LocationUsageCheck } from '../../devices/locations/service.js';
import { DOOR_LOCKDOWN_STATES, doorStateUnderPlans, type DoorLockdown, type LockdownPlanRecord, type LockdownUsersAndGroups } from './model.js';
import * as lockdownStore from './store.js';
import { findDoors } from '../service.js';

/**
 * A plan's lists of users and access groups, each kept without repeats. That they are the organization's is
 * checked before the handler runs, as for every id a request names (src/records/references.ts).
 */
function distinctMembers(list: LockdownUsersAndGroups | null | undefined): LockdownUsersAndGroups {
  return { userUuids: [...new Set(list?.userUuids ?? [])], groupUuids: [...new Set(list?.groupUuids ?? [])] };
}

/**
 * Checks a plan about to be stored: its location is the organization's, every door of its map stands at that
 * location, its users are the organization's. A plan is always a LOCATION_LOCKDOWN of its location.
 */
async function checkPlan(w: WriteScope, plan: LockdownPlanRecord, previous: LockdownPlanRecord | null): Promise<LockdownPlanRecord> {
  if (!plan.name?.trim()) throw fail('INVALID_VALUE', 'lockdownPlan.name: required');
  if (previous && plan.locationUuid !== previous.locationUuid) throw fail('INVALID_VALUE', 'lockdownPlan.locationUuid: a plan cannot move to another location');
  if (!plan.locationUuid || !(await findLocation(w, w.actor.orgUuid, plan.locationUuid))) throw fail('NOT_FOUND', 'Location');
  const map = plan.doorLockdownStateMap ?? {};
  for (const [door, state] of Object.entries(map)) {
    if (!DOOR_LOCKDOWN_STATES.includes(state))
      throw fail('INVALID_VALUE', `lockdownPlan.doorLockdownStateMap.${door}: must be one of ${DOOR_LOCKDOWN_STATES.join(', ')}`);
  }
  const doors = await findDoors(w, w.actor.orgUuid, Object.keys(map));
  const known = new Map(doors.map((d) => [d.uuid, d]));
  for (const door of Object.keys(map)) {
    if (!known.has(door)) throw fail('NOT_FOUND', `lockdownPlan.doorLockdownStateMap: door ${door}`);
    if (known.get(door)!.locationUuid !== plan.locationUuid)
      throw fail('INVALID_VALUE', `lockdownPlan.doorLockdownStateMap: door ${door} is not at the plan's location`);
  }
  return {
    ...plan,
    orgUuid: w.actor.orgUuid,
    type: 'LOCATION_LOCKDOWN',
    scopeUuid: plan.locationUuid,
    // A plan that names no default locks its other doors down: it says so (the catalogue's field is not nullable).
    defaultLockdownState: plan.defaultLockdownState ?? 'LOCKED_DOWN',
    doorLockdownStateMap: map,
    physicalAccess: distinctMembers(plan.physicalAccess),
    activationPlan: {
      ...distinctMembers(plan.activationPlan),
      rhombusKeyNotificationMessage: plan.activationPlan?.rhombusKeyNotificationMessage ?? null,
    },
    deactivationPlan: {
      ...distinctMembers(plan.deactivationPlan),
      rhombusKeyNotificationMessage: plan.deactivationPlan?.rhombusKeyNotificationMessage ?? null,
    },
    testPlan: {
      doorStateOverrideEnabled: plan.testPlan?.doorStateOverrideEnabled ?? false,
      userAccessOverrideEnabled: plan.testPlan?.userAccessOverrideEnabled ?? false,
    },
  };
}

/** A plan in force cannot be deleted: the lockdown would lose what it does to its doors. */
async function refuseActive(w: WriteScope, plan: LockdownPlanRecord): Promise<void> {
  const state = await lockdownStore.findState(dbOf(w), w.actor.orgUuid, plan.locationUuid);
  const active: string[] = state ? JSON.parse(state.active_plans) : [];
  if (state?.state === 'LOCKED_DOWN' && active.includes(plan.uuid))
    throw fail('NOT_ALLOWED', `Lockdown plan ${plan.name} is active at its location; deactivate the lockdown first`);
}

/** The organization's lockdown plans (org-scoped records, src/records). */
export const lockdownPlans = orgRecords({
  entity: 'LOCKDOWN_PLAN',
  label: 'Lockdown plan',
  nameOf: (plan) => plan.name,
  ownerOf: (plan) => plan.locationUuid,
  check: checkPlan,
  beforeDelete: refuseActive,
  stamp: (plan, t) => ({ ...plan, createdAtMillis: t.createdAtMs, updatedAtMillis: t.updatedAtMs }),
});

/** The organization's lockdown plans, name to uuid (a site file seeded again finds them by name). */
export async function planUuidsByName(source: ReadSource, orgUuid: string): Promise<Map<string, string>> {
  return firstByName(await lockdownPlans.list(source, orgUuid));
}

/** The plans of a location, by name. */
export async function plansOfLocation(source: ReadSource, orgUuid: string, locationUuid: string): Promise<LockdownPlanRecord[]> {
  return lockdownPlans.list(source, orgUuid, { ownerUuids: [locationUuid] });
}

/** A location with lockdown plans may not be deleted: a plan is of its location, and rules name it (deletePlan lets them go). */
export const plansAtLocation: LocationUsageCheck = async (source, orgUuid, locationUuid) => {
  const plans = await lockdownPlans.listByOwner(source, orgUuid, locationUuid);
  return plans.length ? `${plans.length} lockdown plan(s)` : null;
};

/** The plans among the uuids (unknown and foreign ones are left out). */
export async function plansByUuid(source: ReadSource, orgUuid: string, uuids: readonly string[]): Promise<LockdownPlanRecord[]> {
  return lockdownPlans.list(source, orgUuid, { uuids });
}

/**
 * A door while its location is locked down: its state under the active plans, what the lockdown overrides
 * (test mode may override less), and who keeps access. Null while the location is not locked down.
 */
/** The record finder of kind lockdownPlan (src/records/references.ts). */
export const findLockdownPlanUuids: RecordFinder = async (source, orgUuid, uuids) => new Set((await plansByUuid(source, orgUuid, uuids)).map((p) => p.uuid));

export async function doorLockdownOf(source: ReadSource, door: { uuid: string; orgUuid: string; locationUuid: string }): Promise<DoorLockdown | null> {
  const state = await lockdownStore.findState(dbOf(source), door.orgUuid, door.locationUuid);
  if (state?.state !== 'LOCKED_DOWN') return null;
  const planUuids: string[] = JSON.parse(state.active_plans);
  const plans = planUuids.length > 0 ? await plansByUuid(source, door.orgUuid, planUuids) : [];
  return {
    state: doorStateUnderPlans(plans, door.uuid),
    doorsOverridden: Boolean(state.doors_overridden),
    accessOverridden: Boolean(state.access_overridden),
    exemptUserUuids: new Set(plans.flatMap((p) => p.physicalAccess.userUuids ?? [])),
    exemptGroupUuids: new Set(plans.flatMap((p) => p.physicalAccess.groupUuids ?? [])),
  };
}

/**
 * What the create and update operations give of a plan: the request's fields, any of them absent (a null is
 * dropped at the edge). checkPlan completes and checks them, so they are taken here as given.
 */
type PlanInput = Record<string, unknown>;

/** A new plan of the organization from the fields given (checkPlan completes it when it is stored). */
export function newPlan(orgUuid: string, fields: PlanInput & { name: string; locationUuid: string }): Omit<LockdownPlanRecord, 'uuid'> {
  const { type: _type, ...given } = fields;
  const plan = { defaultLockdownState: null, doorLockdownStateMap: {}, ...given, orgUuid, type: 'LOCATION_LOCKDOWN', scopeUuid: fields.locationUuid };
  return { ...plan, createdAtMillis: 0, updatedAtMillis: 0 } as unknown as Omit<LockdownPlanRecord, 'uuid'>;
}

export async function createPlan(
  deps: Pick<Deps, 'store' | 'bus' | 'clock'>,
  ctx: CallerContext,
  fields: PlanInput & { name: string; locationUuid: string },
): Promise<LockdownPlanRecord> {
  return lockdownPlans.create(deps, ctx, newPlan(ctx.orgUuid, fields));
}

export async function updatePlan(
  deps: Pick<Deps, 'store' | 'bus' | 'clock'>,
  ctx: CallerContext,
  input: PlanInput & { lockdownPlanUuid: string },
): Promise<LockdownPlanRecord> {
  const { lockdownPlanUuid, ...fields } = input;
  return lockdownPlans.update(deps, ctx, lockdownPlanUuid, fields as Partial<LockdownPlanRecord>);
}

/** Deletes a plan (refused while active) and takes it out of every record that names it (a rule's lockdown action), in one write. */
export async function deletePlan(
  deps: Pick<Deps, 'store' | 'bus' | 'clock' | 'recordCleaners'>,
  ctx: CallerContext,
  uuid: string,
): Promise<LockdownPlanRecord> {
  return write(deps, ctx, async (w) => {
    const plan = await lockdownPlans.delete(w, uuid);
    await forgetRecord(deps, w, 'lockdownPlan', plan.uuid);
    return plan;
  });
}

export async function findPlans(
  deps: Pick<Deps, 'store'>,
  ctx: Pick<CallerContext, 'orgUuid'>,
  input: { locationUuid?: string },
): Promise<LockdownPlanRecord[]> {
  if (input.locationUuid === undefined) return lockdownPlans.list(deps, ctx.orgUuid);
  return plansOfLocation(deps, ctx.orgUuid, input.locationUuid);
}

/**
 * Plans as answers carry them: with their description ('' when none was given) and whether each is in force
 * at its location now (among the active plans of a location locked down), which the platform's MCP server reads.
 */
export async function planAnswers(source: ReadSource, orgUuid: string, plans: readonly LockdownPlanRecord[]) {
  const lockedDown = await lockdownStore.listStates(dbOf(source), orgUuid, ['LOCKED_DOWN']);
  const active = new Set(lockedDown.flatMap((state) => JSON.parse(state.active_plans) as string[]));
  return plans.map((plan) => ({ ...plan, description: plan.description ?? '', active: active.has(plan.uuid) }));
}

export const planAnswer = async (source: ReadSource, orgUuid: string, plan: LockdownPlanRecord) => (await planAnswers(source, orgUuid, [plan]))[0]!;

/** A deleted user (userUuids) or access group (groupUuids) leaves every plan's physical access, activation and deactivation lists. */
export const lockdownPlansForget =
  (field: 'userUuids' | 'groupUuids'): RecordCleaner =>
  async (w, uuid) => {
    for (const plan of await lockdownPlans.list(w, w.actor.orgUuid)) {
      const lists = ['physicalAccess', 'activationPlan', 'deactivationPlan'] as const;
      if (!lists.some((list) => plan[list]?.[field]?.includes(uuid))) continue;
      const without = <L extends LockdownUsersAndGroups>(list: L | null | undefined) =>
        list ? { ...list, [field]: (list[field] ?? []).filter((u) => u !== uuid) } : list;
      await lockdownPlans.put(w, plan.uuid, {
        physicalAccess: without(plan.physicalAccess),
        activationPlan: without(plan.activationPlan),
        deactivationPlan: without(plan.deactivationPlan),
      } as Partial<LockdownPlanRecord>);
    }
  };

import { firstByName } from '../../../store/by-name.js';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import type { RecordCleaner } from '../../../records/references.js';
import { findDevices, findLocation } from '../../devices/service.js';
import { findSchedule } from '../../schedules/service.js';
import { touchAccessVersion } from '../access-version.js';
import { checkedLabel } from '../doors/door-labels.service.js';
import * as store from './store.js';
import type { AccessRefType, AccessRuleKind, AccessRuleRefsTable, AccessRulesTable } from './tables.js';
import { requireGroups, requireUsers } from '../groups/service.js';
import { findDoorsByUuids } from '../store.js';
import type { ScheduleUse } from '../../schedules/schedule-usage.js';
import type { LocationUsageCheck } from '../../devices/locations/service.js';

type RuleDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/**
 * Location access grants and revocations: the same record, kept in one table by kind. A rule stands at a
 * location, names its subjects (users, groups) and, optionally, its targets (doors, elevator landings, door
 * labels; none means every door of the location), and holds during its schedule (none: always).
 */
export const RULE_KINDS = {
  GRANT: { entity: 'LOCATION_ACCESS_GRANT', label: 'Location access grant', noun: 'grant' },
  REVOCATION: { entity: 'LOCATION_ACCESS_REVOCATION', label: 'Location access revocation', noun: 'revocation' },
} as const satisfies Record<AccessRuleKind, { entity: string; label: string; noun: string }>;

/** A grant or revocation as the REST API answers it (the catalogue's LocationAccessGrantType / RevocationType). */
export interface AccessRuleRecord {
  uuid: string;
  orgUuid: string;
  name: string;
  locationUuid: string;
  scheduleUuid: string | null;
  userUuids: string[];
  groupUuids: string[];
  accessControlledDoorUuids: string[];
  accessControlledElevatorLandingUuids: string[];
  doorLabelIds: string[];
  createdAtMillis: number;
  updatedAtMillis: number;
}

/** The record's lists by the reference type they are kept as. */
const LISTS = {
  USER: 'userUuids',
  GROUP: 'groupUuids',
  DOOR: 'accessControlledDoorUuids',
  LANDING: 'accessControlledElevatorLandingUuids',
  DOOR_LABEL: 'doorLabelIds',
} as const satisfies Record<AccessRefType, keyof AccessRuleRecord>;
const REF_TYPES = Object.keys(LISTS) as AccessRefType[];
type RuleLists = { [T in AccessRefType as (typeof LISTS)[T]]: string[] };

/** A rule as create and update take it: every field nullable (null or absent: not given). */
export type AccessRuleInput = Partial<{ [K in keyof AccessRuleRecord]: AccessRuleRecord[K] | null }>;

function toRuleRecords(rows: readonly AccessRulesTable[], refs: readonly AccessRuleRefsTable[]): AccessRuleRecord[] {
  const lists = new Map<string, RuleLists>();
  for (const row of rows)
    lists.set(row.uuid, { userUuids: [], groupUuids: [], accessControlledDoorUuids: [], accessControlledElevatorLandingUuids: [], doorLabelIds: [] });
  for (const ref of refs) lists.get(ref.rule_uuid)?.[LISTS[ref.ref_type]].push(ref.ref_id);
  return rows.map((row) => ({
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    name: row.name,
    locationUuid: row.location_uuid,
    scheduleUuid: row.schedule_uuid,
    ...lists.get(row.uuid)!,
    createdAtMillis: Number(row.created_at_ms),
    updatedAtMillis: Number(row.updated_at_ms),
  }));
}

/** The rules with what they name: two queries whatever their number. */
export async function rulesWithRefs(source: ReadSource, rows: readonly AccessRulesTable[]): Promise<AccessRuleRecord[]> {
  return toRuleRecords(
    rows,
    await store.listRefsOfRules(
      dbOf(source),
      rows.map((r) => r.uuid),
    ),
  );
}

async function ruleOf(source: ReadSource, orgUuid: string, kind: AccessRuleKind, uuid: string): Promise<AccessRuleRecord> {
  const row = await store.findRule(dbOf(source), orgUuid, kind, uuid);
  if (!row) throw fail('NOT_FOUND', `${RULE_KINDS[kind].label} ${uuid}`);
  return (await rulesWithRefs(source, [row]))[0];
}

/** The targets, every one of the organization and standing at the rule's location. */
async function checkedTargets(w: WriteScope, locationUuid: string, lists: RuleLists): Promise<RuleLists> {
  const orgUuid = w.actor.orgUuid;
  const doors = new Map((await findDoorsByUuids(w.tx, orgUuid, lists.accessControlledDoorUuids)).map((d) => [d.uuid, d.location_uuid]));
  const landings = await findDevices(w, orgUuid, lists.accessControlledElevatorLandingUuids, ['ELEVATOR_LANDING']);
  const placed = (field: string, what: string, ids: string[], locationOf: (id: string) => string | null | undefined) => {
    for (const id of ids) {
      const at = locationOf(id);
      if (at === undefined) throw fail('NOT_FOUND', `${what} ${id}`);
      if (at !== locationUuid) throw fail('INVALID_VALUE', `${field}: ${what.toLowerCase()} ${id} is not at location ${locationUuid}`);
    }
  };
  placed('accessControlledDoorUuids', 'Door', lists.accessControlledDoorUuids, (id) => doors.get(id));
  placed('accessControlledElevatorLandingUuids', 'Elevator landing', lists.accessControlledElevatorLandingUuids, (id) =>
    landings.has(id) ? landings.get(id)!.locationUuid : undefined,
  );
  return lists;
}

const unique = (values: readonly string[] | null | undefined) => [...new Set(values ?? [])];

/**
 * The rule as it will be kept: `input` over `previous` (create: nothing). Name and location keep their
 * values when left out; the lists and the schedule are the input's (left out: none), as an update sends the
 * whole rule back. Every id must be the organization's.
 */
async function checkedRule(w: WriteScope, kind: AccessRuleKind, input: AccessRuleInput, previous: AccessRuleRecord | null) {
  const orgUuid = w.actor.orgUuid;
  if (input.orgUuid != null && input.orgUuid !== orgUuid) throw fail('NOT_FOUND', `${RULE_KINDS[kind].label} ${input.uuid ?? ''}`.trim());
  const name = (input.name ?? previous?.name)?.trim();
  if (!name) throw fail('INVALID_VALUE', `${RULE_KINDS[kind].noun}.name: must not be empty`);
  const locationUuid = input.locationUuid ?? previous?.locationUuid;
  if (!locationUuid) throw fail('INVALID_VALUE', `${RULE_KINDS[kind].noun}.locationUuid: is required`);
  if (!(await findLocation(w, orgUuid, locationUuid))) throw fail('NOT_FOUND', `Location ${locationUuid}`);
  const scheduleUuid = input.scheduleUuid ?? null;
  if (scheduleUuid !== null && !(await findSchedule(w, orgUuid, scheduleUuid))) throw fail('NOT_FOUND', `Schedule ${scheduleUuid}`);
  const lists = await checkedTargets(w, locationUuid, {
    userUuids: await requireUsers(w, orgUuid, input.userUuids ?? []),
    groupUuids: await requireGroups(w, orgUuid, input.groupUuids ?? []),
    accessControlledDoorUuids: unique(input.accessControlledDoorUuids),
    accessControlledElevatorLandingUuids: unique(input.accessControlledElevatorLandingUuids),
    doorLabelIds: unique((input.doorLabelIds ?? []).map((l, i) => checkedLabel(l, `doorLabelIds[${i}]`))),
  });
  return { name, locationUuid, scheduleUuid, lists };
}

async function saveRule(w: WriteScope, kind: AccessRuleKind, uuid: string, rule: Awaited<ReturnType<typeof checkedRule>>, createdAtMs: number | null) {
  const orgUuid = w.actor.orgUuid;
  const columns = {
    name: rule.name,
    location_uuid: rule.locationUuid,
    schedule_uuid: rule.scheduleUuid,
    location_wide:
      rule.lists.accessControlledDoorUuids.length + rule.lists.accessControlledElevatorLandingUuids.length + rule.lists.doorLabelIds.length === 0 ? 1 : 0,
    updated_at_ms: w.nowMs,
  };
  if (createdAtMs === null) await store.insertRule(w.tx, { uuid, org_uuid: orgUuid, kind, created_at_ms: w.nowMs, ...columns });
  else await store.updateRule(w.tx, orgUuid, uuid, columns);
  const refs = REF_TYPES.flatMap((ref_type) => rule.lists[LISTS[ref_type]].map((ref_id) => ({ rule_uuid: uuid, org_uuid: orgUuid, kind, ref_type, ref_id })));
  await store.replaceRefs(w.tx, orgUuid, uuid, refs);
  await touchAccessVersion(w);
  const record = await ruleOf(w, orgUuid, kind, uuid);
  w.change({ entity: RULE_KINDS[kind].entity, entityUuid: uuid, type: createdAtMs === null ? 'CREATE' : 'UPDATE', update: record });
  return record;
}

/** Creates a grant or revocation in the caller's write (the seeder's too). */
export async function insertRule(w: WriteScope, kind: AccessRuleKind, input: AccessRuleInput): Promise<AccessRuleRecord> {
  return saveRule(w, kind, newRuuid(), await checkedRule(w, kind, input, null), null);
}

export function createRule(deps: RuleDeps, ctx: CallerContext, kind: AccessRuleKind, input: AccessRuleInput): Promise<AccessRuleRecord> {
  return write(deps, ctx, (w) => insertRule(w, kind, input));
}

/** Replaces a grant or revocation (see checkedRule for what a field left out becomes). */
export function updateRule(deps: RuleDeps, ctx: CallerContext, kind: AccessRuleKind, input: AccessRuleInput): Promise<AccessRuleRecord> {
  return write(deps, ctx, async (w) => {
    if (!input.uuid) throw fail('INVALID_VALUE', `${RULE_KINDS[kind].noun}.uuid: is required`);
    const previous = await ruleOf(w, ctx.orgUuid, kind, input.uuid);
    return saveRule(w, kind, previous.uuid, await checkedRule(w, kind, input, previous), previous.createdAtMillis);
  });
}

export async function deleteRule(deps: RuleDeps, ctx: CallerContext, kind: AccessRuleKind, uuid: string): Promise<void> {
  await write(deps, ctx, async (w) => {
    const record = await ruleOf(w, ctx.orgUuid, kind, uuid);
    await store.deleteRule(w.tx, ctx.orgUuid, uuid);
    await touchAccessVersion(w);
    w.change({ entity: RULE_KINDS[kind].entity, entityUuid: uuid, type: 'DELETE', update: record });
  });
}

/**
 * A deleted user or door leaves every grant and revocation that names it directly, in the delete's write: each
 * rule changed is announced. A rule left with no subject admits nobody, and one left with no door opens none, as
 * one saved so.
 */
const grantsForget =
  (type: AccessRefType): RecordCleaner =>
  async (w, uuid) => {
    const orgUuid = w.actor.orgUuid;
    const rows = await store.listRulesNaming(w.tx, orgUuid, type, uuid);
    if (rows.length === 0) return;
    await store.deleteRefsTo(w.tx, orgUuid, type, uuid);
    await touchAccessVersion(w);
    for (const record of await rulesWithRefs(w, rows)) {
      const kind = rows.find((r) => r.uuid === record.uuid)!.kind;
      w.change({ entity: RULE_KINDS[kind].entity, entityUuid: record.uuid, type: 'UPDATE', update: record });
    }
  };
/** `deps.recordCleaners.user`. */
export const grantsForgetUser = grantsForget('USER');
/** `deps.recordCleaners.door`. */
export const grantsForgetDoor = grantsForget('DOOR');

/** A location with grants or revocations may not be deleted: each is of its location (dropping a revocation would widen access). */
export const rulesAtLocation: LocationUsageCheck = async (source, orgUuid, locationUuid) => {
  const counts = await store.countRulesAt(dbOf(source), orgUuid, locationUuid);
  return counts.length ? counts.map((c) => `${c.count} ${RULE_KINDS[c.kind].noun}(s)`).join(', ') : null;
};

export function getRule(deps: Pick<Deps, 'store'>, ctx: Pick<CallerContext, 'orgUuid'>, kind: AccessRuleKind, uuid: string): Promise<AccessRuleRecord> {
  return ruleOf(deps, ctx.orgUuid, kind, uuid);
}

/** The organization's grants and revocations that follow the schedule, for the schedules domain's usage check. */
/** The organization's grants (or revocations), name to uuid (a site file seeded again finds them by name). */
export async function ruleUuidsByName(source: ReadSource, orgUuid: string, kind: AccessRuleKind): Promise<Map<string, string>> {
  return firstByName(await store.listRules(dbOf(source), orgUuid, kind, {}));
}

export async function grantsUsingSchedule(source: ReadSource, orgUuid: string, scheduleUuid: string): Promise<ScheduleUse[]> {
  return (await store.listRulesUsingSchedule(dbOf(source), orgUuid, scheduleUuid)).map((r) => ({
    kind: 'accessRule',
    uuid: r.uuid,
    label: `${RULE_KINDS[r.kind].noun} "${r.name}"`,
  }));
}

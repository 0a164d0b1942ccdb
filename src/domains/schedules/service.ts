import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { newRuuid } from '../../ids.js';
import { fromDbBool, fromJson, toDbBool, toJson } from '../../store/columns.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import { write, type WriteScope } from '../../bus/write.js';
import { scheduleUses, usageLists } from './schedule-usage.js';
import * as store from './store.js';
import type { RecordFinder } from '../../records/references.js';
import { orgUuidsIn } from '../../store/org-uuids.js';
import type { SchedulesTable } from './tables.js';
import {
  checkedTimes,
  type LocalDateTimeInterval,
  type ScheduleRecord,
  type ScheduleStrategy,
  type ScheduleTimes,
  type SecondsInterval,
  type WeeklySchedule,
} from './strategies.js';
import type { WeekInterval } from './week-minutes.js';

export type { ScheduleRecord } from './strategies.js';
export { checkedIntervals } from './strategies.js';

/** A stored schedule as the REST API answers it: the common fields and its strategy's times. */
export function toScheduleRecord(row: SchedulesTable): ScheduleRecord {
  const common = {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    name: row.name,
    mutable: fromDbBool(row.mutable) ?? true,
    oneTimeUse: fromDbBool(row.one_time_use) ?? false,
  };
  const kept = fromJson<unknown>(row.intervals);
  switch (row.strategy as ScheduleStrategy) {
    case 'ABSOLUTE_SECONDS':
      return { ...common, strategy: 'ABSOLUTE_SECONDS', intervalList: (kept as SecondsInterval[]) ?? [] };
    case 'REALTIME_RELATIVE_SECONDS':
      return { ...common, strategy: 'REALTIME_RELATIVE_SECONDS', pastSeconds: (kept as { pastSeconds: number }).pastSeconds };
    case 'RELATIVE_DATETIME_INTERVALS':
      return { ...common, strategy: 'RELATIVE_DATETIME_INTERVALS', intervals: (kept as LocalDateTimeInterval[]) ?? [] };
    default:
      return { ...common, strategy: 'WEEKLY_REPEATING_MINUTES', intervalList: (kept as WeekInterval[]) ?? [] };
  }
}

/** What the `intervals` column keeps of a strategy's times. */
function storedTimes(times: ScheduleTimes): string {
  switch (times.strategy) {
    case 'REALTIME_RELATIVE_SECONDS':
      return toJson({ pastSeconds: times.pastSeconds })!;
    case 'RELATIVE_DATETIME_INTERVALS':
      return toJson(times.intervals)!;
    default:
      return toJson(times.intervalList)!;
  }
}

export interface ScheduleInput {
  name: string;
  /** Checked already (checkedTimes). */
  times: ScheduleTimes;
  mutable?: boolean;
  oneTimeUse?: boolean;
}

/** Creates a schedule of the writer's organization. */
export async function createSchedule(w: WriteScope, input: ScheduleInput): Promise<ScheduleRecord> {
  const row: SchedulesTable = {
    uuid: newRuuid(),
    org_uuid: w.actor.orgUuid,
    name: input.name,
    intervals: storedTimes(input.times),
    mutable: toDbBool(input.mutable ?? true)!,
    one_time_use: toDbBool(input.oneTimeUse ?? false)!,
    strategy: input.times.strategy,
    created_at_ms: w.nowMs,
    updated_at_ms: w.nowMs,
  };
  await store.insertSchedule(w.tx, row);
  const record = toScheduleRecord(row);
  w.change({ entity: 'SCHEDULE', entityUuid: row.uuid, type: 'CREATE', update: record });
  return record;
}

/** A schedule of the organization; null for a missing one or another organization's. */
export async function findSchedule(source: ReadSource, orgUuid: string, uuid: string): Promise<ScheduleRecord | null> {
  const row = await store.findSchedule(dbOf(source), orgUuid, uuid);
  return row ? toScheduleRecord(row) : null;
}

/** The record finder of kind schedule (src/records/references.ts). */
export const findScheduleUuids: RecordFinder = (source, orgUuid, uuids) => orgUuidsIn(dbOf(source), 'schedules', orgUuid, uuids);

export async function listSchedules(source: ReadSource, orgUuid: string): Promise<ScheduleRecord[]> {
  return (await store.listSchedules(dbOf(source), orgUuid)).map(toScheduleRecord);
}

/** The organization's weekly schedules (the specification's Schedule, which site files and findSchedules speak). */
export async function listWeeklySchedules(source: ReadSource, orgUuid: string): Promise<WeeklySchedule[]> {
  return (await listSchedules(source, orgUuid)).filter((s): s is WeeklySchedule => s.strategy === 'WEEKLY_REPEATING_MINUTES');
}

type ScheduleDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** A schedule as a request carries it: every field nullable, null meaning "not given". */
export interface ScheduleFields {
  uuid?: string | null;
  orgUuid?: string | null;
  name?: string | null;
  mutable?: boolean | null;
  oneTimeUse?: boolean | null;
  strategy?: string | null;
}

/** A request's strategy, when it gives one, must be the one of the operation it is sent to. */
function checkStrategy(strategy: string | null | undefined, expected: ScheduleStrategy, path = 'schedule.strategy'): void {
  if (strategy != null && strategy !== expected) throw fail('INVALID_VALUE', `${path}: this operation takes ${expected} schedules, not ${strategy}`);
}

function checkedName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw fail('INVALID_VALUE', 'schedule.name: must not be empty');
  return trimmed;
}

/** The caller's schedule; another organization's (by its uuid or the body's orgUuid) is answered as a missing one. */
async function callersSchedule(source: ReadSource, ctx: CallerContext, fields: ScheduleFields): Promise<ScheduleRecord> {
  const found = fields.uuid && (fields.orgUuid == null || fields.orgUuid === ctx.orgUuid) ? await findSchedule(source, ctx.orgUuid, fields.uuid) : null;
  if (!found) throw fail('NOT_FOUND', 'Schedule');
  return found;
}

/**
 * `createSchedule` and the four `create<Kind>Schedule` operations: a new schedule of the caller's organization,
 * of the strategy the operation names (a body that names another is refused).
 */
export async function addSchedule(
  deps: ScheduleDeps,
  ctx: CallerContext,
  fields: ScheduleFields & { name: string },
  times: ScheduleTimes,
): Promise<ScheduleRecord> {
  if (fields.orgUuid != null && fields.orgUuid !== ctx.orgUuid) throw fail('NOT_FOUND', 'Organization');
  checkStrategy(fields.strategy, times.strategy);
  const name = checkedName(fields.name);
  const checked = checkedTimes(times, 'schedule');
  return write(deps, ctx, (w) => createSchedule(w, { name, times: checked, mutable: fields.mutable ?? true, oneTimeUse: fields.oneTimeUse ?? false }));
}

/** `updateSchedule` (weekly schedules): changes the fields given; a schedule with `mutable: false` is never changed. */
export async function updateSchedule(
  deps: ScheduleDeps,
  ctx: CallerContext,
  fields: ScheduleFields & { intervalList?: WeekInterval[] | null },
): Promise<ScheduleRecord> {
  checkStrategy(fields.strategy, 'WEEKLY_REPEATING_MINUTES');
  const name = fields.name != null ? checkedName(fields.name) : undefined;
  const times = fields.intervalList != null ? checkedTimes({ strategy: 'WEEKLY_REPEATING_MINUTES', intervalList: fields.intervalList }, 'schedule') : undefined;
  return write(deps, ctx, async (w) => {
    const current = await callersSchedule(w, ctx, fields);
    if (times && current.strategy !== 'WEEKLY_REPEATING_MINUTES')
      throw fail(
        'INVALID_VALUE',
        `schedule.intervalList: schedule "${current.name}" is a ${current.strategy} schedule, whose times are set when it is created`,
      );
    return reviseSchedule(w, current, { ...fields, name, times });
  });
}

/** Changes the given fields of a schedule in a write (checked already); one with `mutable: false` is never changed. */
export async function reviseSchedule(
  w: WriteScope,
  current: ScheduleRecord,
  fields: { name?: string | null; times?: ScheduleTimes; mutable?: boolean | null; oneTimeUse?: boolean | null },
): Promise<ScheduleRecord> {
  if (!current.mutable) throw fail('NOT_ALLOWED', `Schedule "${current.name}" is not mutable`);
  await store.updateSchedule(w.tx, current.uuid, {
    ...(fields.name != null ? { name: fields.name } : {}),
    ...(fields.times ? { intervals: storedTimes(fields.times), strategy: fields.times.strategy } : {}),
    ...(fields.mutable != null ? { mutable: toDbBool(fields.mutable)! } : {}),
    ...(fields.oneTimeUse != null ? { one_time_use: toDbBool(fields.oneTimeUse)! } : {}),
    updated_at_ms: w.nowMs,
  });
  const record = (await findSchedule(w, current.orgUuid, current.uuid))!;
  w.change({ entity: 'SCHEDULE', entityUuid: record.uuid, type: 'UPDATE', update: record });
  return record;
}

/** `findSchedules`: the caller's weekly schedules, by name (the other strategies answer in `getSchedules`). */
export async function findSchedules(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<WeeklySchedule[]> {
  return listWeeklySchedules(deps, ctx.orgUuid);
}

/** `find<Kind>Schedule`: the caller's schedule of that strategy; one of another strategy is not one of that kind. */
export async function findScheduleOfStrategy<S extends ScheduleStrategy>(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  uuid: string,
  strategy: S,
): Promise<Extract<ScheduleRecord, { strategy: S }>> {
  const found = await callersSchedule(deps, ctx, { uuid });
  if (found.strategy !== strategy) throw fail('NOT_FOUND', `Schedule ${uuid} is a ${found.strategy} schedule, not ${strategy}`);
  return found as Extract<ScheduleRecord, { strategy: S }>;
}

/** `getSchedules`: every schedule of the caller's organization, one list per strategy. */
export async function schedulesByStrategy(deps: Pick<Deps, 'store'>, ctx: CallerContext) {
  const all = await listSchedules(deps, ctx.orgUuid);
  const of = <S extends ScheduleStrategy>(strategy: S) => all.filter((s): s is Extract<ScheduleRecord, { strategy: S }> => s.strategy === strategy);
  return {
    weeklySchedules: of('WEEKLY_REPEATING_MINUTES'),
    absoluteSchedules: of('ABSOLUTE_SECONDS'),
    relativeSchedules: of('REALTIME_RELATIVE_SECONDS'),
    relativeDatetimeSchedules: of('RELATIVE_DATETIME_INTERVALS'),
  };
}

/** `getScheduleData` / `getScheduleDataV2`: weekly schedules with the records that follow each. */
export async function weeklyScheduleData(deps: Pick<Deps, 'store' | 'scheduleUsage'>, ctx: CallerContext, scheduleUuid?: string) {
  const schedules = scheduleUuid
    ? [await findScheduleOfStrategy(deps, ctx, scheduleUuid, 'WEEKLY_REPEATING_MINUTES')]
    : await listWeeklySchedules(deps, ctx.orgUuid);
  return Promise.all(
    schedules.map(async (schedule) => ({ ...schedule, ...usageLists(await scheduleUses(deps.scheduleUsage, deps, ctx.orgUuid, schedule.uuid)) })),
  );
}

/** `deleteSchedule`: refused for an immutable schedule and for one that a door (or any registered user) follows. */
export async function deleteSchedule(deps: ScheduleDeps & Pick<Deps, 'scheduleUsage'>, ctx: CallerContext, scheduleUuid: string): Promise<void> {
  await write(deps, ctx, async (w) => {
    const current = await callersSchedule(w, ctx, { uuid: scheduleUuid });
    if (!current.mutable) throw fail('NOT_ALLOWED', `Schedule "${current.name}" is not mutable`);
    const uses = await scheduleUses(deps.scheduleUsage, w, ctx.orgUuid, current.uuid);
    if (uses.length > 0) throw fail('CONFLICT', `Schedule "${current.name}" is in use by ${uses.map((u) => u.label).join(', ')}`);
    await store.deleteSchedule(w.tx, current.uuid);
    w.change({ entity: 'SCHEDULE', entityUuid: current.uuid, type: 'DELETE', update: current });
  });
}

/** The organization's schedules among the uuids, in one query: uuid -> schedule (unknown and foreign ones are absent). */
export async function findSchedulesByUuids(source: ReadSource, orgUuid: string, uuids: readonly string[]): Promise<Map<string, ScheduleRecord>> {
  const rows = await store.findSchedulesByUuids(dbOf(source), orgUuid, [...new Set(uuids)]);
  return new Map(rows.map((row) => [row.uuid, toScheduleRecord(row)]));
}

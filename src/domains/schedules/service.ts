import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { newRuuid } from '../../ids.js';
import { fromDbBool, fromJson, toDbBool, toJson } from '../../store/columns.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import { write, type WriteScope } from '../../bus/write.js';
import { scheduleUsers } from './schedule-usage.js';
import * as store from './store.js';
import type { SchedulesTable } from './tables.js';
import { intervalProblem, type WeekInterval } from './week-minutes.js';

export const SCHEDULE_STRATEGY = 'WEEKLY_REPEATING_MINUTES';

/** A schedule as the REST API returns it (the specification's Schedule). */
export interface ScheduleRecord {
  uuid: string;
  orgUuid: string;
  name: string;
  intervalList: WeekInterval[];
  mutable: boolean;
  oneTimeUse: boolean;
  strategy: string;
}

export function toScheduleRecord(row: SchedulesTable): ScheduleRecord {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    name: row.name,
    intervalList: fromJson<WeekInterval[]>(row.intervals) ?? [],
    mutable: fromDbBool(row.mutable) ?? true,
    oneTimeUse: fromDbBool(row.one_time_use) ?? false,
    strategy: row.strategy,
  };
}

export interface ScheduleInput {
  name: string;
  intervalList: WeekInterval[];
  mutable?: boolean;
  oneTimeUse?: boolean;
}

/** The intervals sorted by start, or a failure naming the first wrong one (`path[i]: ...`). */
/** The intervals, checked, as a schedule keeps them: sorted by start. */
export function checkedIntervals(intervals: readonly WeekInterval[], path: string): WeekInterval[] {
  const problem = intervalProblem(intervals, path);
  if (problem) throw fail('INVALID_VALUE', problem);
  return intervals
    .map((i) => ({ minuteOfWeekStart: i.minuteOfWeekStart, minuteOfWeekStop: i.minuteOfWeekStop }))
    .sort((a, b) => a.minuteOfWeekStart - b.minuteOfWeekStart);
}

/** Creates a weekly schedule of the writer's organization; the intervals are kept sorted by start. */
export async function createSchedule(w: WriteScope, input: ScheduleInput): Promise<ScheduleRecord> {
  const intervals = checkedIntervals(input.intervalList, 'intervalList');
  const row: SchedulesTable = {
    uuid: newRuuid(),
    org_uuid: w.actor.orgUuid,
    name: input.name,
    intervals: toJson(intervals)!,
    mutable: toDbBool(input.mutable ?? true)!,
    one_time_use: toDbBool(input.oneTimeUse ?? false)!,
    strategy: SCHEDULE_STRATEGY,
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

export async function listSchedules(source: ReadSource, orgUuid: string): Promise<ScheduleRecord[]> {
  return (await store.listSchedules(dbOf(source), orgUuid)).map(toScheduleRecord);
}

type ScheduleDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** A schedule as a request carries it: every field nullable, null meaning "not given". */
export interface ScheduleFields {
  uuid?: string | null;
  orgUuid?: string | null;
  name?: string | null;
  intervalList?: WeekInterval[] | null;
  mutable?: boolean | null;
  oneTimeUse?: boolean | null;
  strategy?: string | null;
}

/** Only weekly schedules exist here; the platform's other strategies are refused by name. */
function checkStrategy(strategy: string | null | undefined): void {
  if (strategy != null && strategy !== SCHEDULE_STRATEGY)
    throw fail('INVALID_VALUE', `schedule.strategy: only ${SCHEDULE_STRATEGY} is supported, not ${strategy}`);
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

/** `createSchedule`: a new weekly schedule of the caller's organization. */
export async function addSchedule(
  deps: ScheduleDeps,
  ctx: CallerContext,
  fields: ScheduleFields & { name: string; intervalList: WeekInterval[] },
): Promise<ScheduleRecord> {
  if (fields.orgUuid != null && fields.orgUuid !== ctx.orgUuid) throw fail('NOT_FOUND', 'Organization');
  checkStrategy(fields.strategy);
  const name = checkedName(fields.name);
  const intervalList = checkedIntervals(fields.intervalList, 'schedule.intervalList');
  return write(deps, ctx, (w) => createSchedule(w, { name, intervalList, mutable: fields.mutable ?? true, oneTimeUse: fields.oneTimeUse ?? false }));
}

/** `updateSchedule`: changes the fields given; a schedule with `mutable: false` is never changed. */
export async function updateSchedule(deps: ScheduleDeps, ctx: CallerContext, fields: ScheduleFields): Promise<ScheduleRecord> {
  checkStrategy(fields.strategy);
  const name = fields.name != null ? checkedName(fields.name) : undefined;
  const intervals = fields.intervalList != null ? checkedIntervals(fields.intervalList, 'schedule.intervalList') : undefined;
  return write(deps, ctx, async (w) => reviseSchedule(w, await callersSchedule(w, ctx, fields), { ...fields, name, intervalList: intervals }));
}

/** Changes the given fields of a schedule in a write (checked already); one with `mutable: false` is never changed. */
export async function reviseSchedule(
  w: WriteScope,
  current: ScheduleRecord,
  fields: Omit<ScheduleFields, 'uuid' | 'orgUuid' | 'strategy'>,
): Promise<ScheduleRecord> {
  if (!current.mutable) throw fail('NOT_ALLOWED', `Schedule "${current.name}" is not mutable`);
  await store.updateSchedule(w.tx, current.uuid, {
    ...(fields.name != null ? { name: fields.name } : {}),
    ...(fields.intervalList != null ? { intervals: toJson(fields.intervalList)! } : {}),
    ...(fields.mutable != null ? { mutable: toDbBool(fields.mutable)! } : {}),
    ...(fields.oneTimeUse != null ? { one_time_use: toDbBool(fields.oneTimeUse)! } : {}),
    updated_at_ms: w.nowMs,
  });
  const record = (await findSchedule(w, current.orgUuid, current.uuid))!;
  w.change({ entity: 'SCHEDULE', entityUuid: record.uuid, type: 'UPDATE', update: record });
  return record;
}

/** `findSchedules`: every schedule of the caller's organization, by name. */
export async function findSchedules(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<ScheduleRecord[]> {
  return listSchedules(deps, ctx.orgUuid);
}

/** `deleteSchedule`: refused for an immutable schedule and for one that a door (or any registered user) follows. */
export async function deleteSchedule(deps: ScheduleDeps & Pick<Deps, 'scheduleUsage'>, ctx: CallerContext, scheduleUuid: string): Promise<void> {
  await write(deps, ctx, async (w) => {
    const current = await callersSchedule(w, ctx, { uuid: scheduleUuid });
    if (!current.mutable) throw fail('NOT_ALLOWED', `Schedule "${current.name}" is not mutable`);
    const users = await scheduleUsers(deps.scheduleUsage, w, ctx.orgUuid, current.uuid);
    if (users.length > 0) throw fail('CONFLICT', `Schedule "${current.name}" is in use by ${users.join(', ')}`);
    await store.deleteSchedule(w.tx, current.uuid);
    w.change({ entity: 'SCHEDULE', entityUuid: current.uuid, type: 'DELETE', update: current });
  });
}

/** The organization's schedules among the uuids, in one query: uuid -> schedule (unknown and foreign ones are absent). */
export async function findSchedulesByUuids(source: ReadSource, orgUuid: string, uuids: readonly string[]): Promise<Map<string, ScheduleRecord>> {
  const rows = await store.findSchedulesByUuids(dbOf(source), orgUuid, [...new Set(uuids)]);
  return new Map(rows.map((row) => [row.uuid, toScheduleRecord(row)]));
}

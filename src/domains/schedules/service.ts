import { fail } from '../../errors.js';
import { newRuuid } from '../../ids.js';
import { fromDbBool, fromJson, toDbBool, toJson } from '../../store/columns.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import type { WriteScope } from '../../store/write.js';
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

/** Creates a weekly schedule of the writer's organization; the intervals are kept sorted by start. */
export async function createSchedule(w: WriteScope, input: ScheduleInput): Promise<ScheduleRecord> {
  const problem = intervalProblem(input.intervalList, 'intervalList');
  if (problem) throw fail('INVALID_VALUE', problem);
  const intervals = input.intervalList
    .map((i) => ({ minuteOfWeekStart: i.minuteOfWeekStart, minuteOfWeekStop: i.minuteOfWeekStop }))
    .sort((a, b) => a.minuteOfWeekStart - b.minuteOfWeekStart);
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

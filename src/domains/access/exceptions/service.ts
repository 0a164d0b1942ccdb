import { firstByName } from '../../../store/by-name.js';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { findLocation } from '../../devices/service.js';
import { applyDoorStates } from '../doors/door-state.js';
import type { DoorScheduleExceptionRecord, ExceptionInterval } from './model.js';
import * as store from './store.js';
import type { RecordCleaner } from '../../../records/references.js';
import { addDays, isLocalDate, normalLocalDateTime } from '../../schedules/local-time.js';
import { findDoors } from '../service.js';
import type { DoorAccessState } from '../tables.js';

type ExceptionDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

export const EXCEPTION_ENTITY = 'DOOR_SCHEDULE_EXCEPTION';
const MAX_DAYS = 366;
const MAX_INTERVALS = 100;

/** An exception as the create and update operations give it (update: its uuid, and the fields to change). */
export interface ExceptionInput {
  uuid?: string | null;
  name?: string | null;
  description?: string | null;
  locationUuid?: string | null;
  doorUuids?: string[] | null;
  locationToDoorsMap?: Record<string, string[]> | null;
  localStartDate?: string | null;
  localEndDate?: string | null;
  defaultState?: DoorAccessState | null;
  intervals?: Array<{ localStartDateTime: string; localEndDateTime: string; state: DoorAccessState }> | null;
}

/** The date filter of the find operations, as dates (a date-time's date part is taken). */
export interface DateRangeInput {
  localStartDateRangeStart?: string | null;
  localStartDateRangeEnd?: string | null;
  localEndDateRangeStart?: string | null;
  localEndDateRangeEnd?: string | null;
}

function checkedIntervals(intervals: NonNullable<ExceptionInput['intervals']>, start: string, end: string): ExceptionInterval[] {
  if (intervals.length > MAX_INTERVALS) throw fail('INVALID_VALUE', `exception.intervals: at most ${MAX_INTERVALS}`);
  const checked = intervals.map((i, n) => {
    const from = normalLocalDateTime(i.localStartDateTime);
    const to = normalLocalDateTime(i.localEndDateTime);
    if (!from || !to) throw fail('INVALID_VALUE', `exception.intervals[${n}]: local date-times are YYYY-MM-DDTHH:mm[:ss]`);
    if (from > to) throw fail('INVALID_VALUE', `exception.intervals[${n}]: the start must not be after the end`);
    if (from.slice(0, 10) < start || to.slice(0, 10) > end) throw fail('INVALID_VALUE', `exception.intervals[${n}]: must lie within the exception's dates`);
    return { localStartDateTime: from, localEndDateTime: to, state: i.state };
  });
  const sorted = [...checked].sort((a, b) => a.localStartDateTime.localeCompare(b.localStartDateTime));
  for (let k = 1; k < sorted.length; k++) {
    if (sorted[k].localStartDateTime <= sorted[k - 1].localEndDateTime) throw fail('INVALID_VALUE', 'exception.intervals: intervals must not overlap');
  }
  return sorted;
}

/**
 * Checks an exception about to be stored, over the previous one for an update: a name, ordered real dates at
 * most a year apart, intervals within them and apart, doors and location of the organization (the
 * locationToDoorsMap is worked out from the doors).
 */
async function checkedException(w: WriteScope, input: ExceptionInput, previous: DoorScheduleExceptionRecord | null): Promise<DoorScheduleExceptionRecord> {
  const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined && v !== null)) as ExceptionInput;
  const merged = { ...previous, ...given };
  const name = merged.name?.trim();
  if (!name) throw fail('INVALID_VALUE', 'exception.name: required');
  const start = merged.localStartDate ?? '';
  const end = merged.localEndDate ?? '';
  if (!isLocalDate(start) || !isLocalDate(end)) throw fail('INVALID_VALUE', 'exception.localStartDate and localEndDate: dates YYYY-MM-DD');
  if (start > end) throw fail('INVALID_VALUE', 'exception.localStartDate must not be after localEndDate');
  if (addDays(start, MAX_DAYS) <= end) throw fail('INVALID_VALUE', `exception: at most ${MAX_DAYS} days`);
  const intervals = checkedIntervals(merged.intervals ?? [], start, end);
  if (merged.locationUuid && !(await findLocation(w, w.actor.orgUuid, merged.locationUuid))) throw fail('NOT_FOUND', 'Location');
  const asked =
    given.doorUuids || given.locationToDoorsMap
      ? [...(given.doorUuids ?? []), ...Object.values(given.locationToDoorsMap ?? {}).flat()]
      : (previous?.doorUuids ?? []);
  const doorUuids = [...new Set(asked)];
  if (doorUuids.length > 1000) throw fail('INVALID_VALUE', 'exception.doorUuids: at most 1000 doors');
  const doors = await findDoors(w, w.actor.orgUuid, doorUuids);
  const missing = doorUuids.find((u) => !doors.some((d) => d.uuid === u));
  if (missing) throw fail('NOT_FOUND', `Door ${missing}`);
  for (const [location, listed] of Object.entries(given.locationToDoorsMap ?? {})) {
    const stray = doors.find((d) => listed.includes(d.uuid) && d.locationUuid !== location);
    if (stray) throw fail('INVALID_VALUE', `exception.locationToDoorsMap.${location}: door ${stray.name} is not at that location`);
  }
  const locationToDoorsMap: Record<string, string[]> = {};
  for (const d of doors) (locationToDoorsMap[d.locationUuid] ??= []).push(d.uuid);
  return {
    uuid: previous?.uuid ?? newRuuid(),
    orgUuid: w.actor.orgUuid,
    name,
    description: merged.description ?? null,
    locationUuid: merged.locationUuid ?? null,
    doorUuids: doors.map((d) => d.uuid),
    locationToDoorsMap,
    localStartDate: start,
    localEndDate: end,
    defaultState: merged.defaultState ?? null,
    intervals,
    createdAtMillis: previous?.createdAtMillis ?? w.nowMs,
    updatedAtMillis: w.nowMs,
  };
}

async function exceptionOf(w: WriteScope | Pick<Deps, 'store'>, orgUuid: string, uuid: string): Promise<DoorScheduleExceptionRecord> {
  const row = await store.findException('tx' in w ? w.tx : w.store.db, orgUuid, uuid);
  if (!row) throw fail('NOT_FOUND', 'Door schedule exception');
  return JSON.parse(row.data) as DoorScheduleExceptionRecord;
}

/** An exception's columns as the store keeps them. */
const exceptionColumns = (record: DoorScheduleExceptionRecord) => ({
  location_uuid: record.locationUuid,
  local_start_date: record.localStartDate,
  local_end_date: record.localEndDate,
  data: JSON.stringify(record),
});

/** Stores an exception and its doors, announces it, and re-applies the state of every door it covered or covers. */
async function saveException(
  w: WriteScope,
  record: DoorScheduleExceptionRecord,
  previous: DoorScheduleExceptionRecord | null,
): Promise<DoorScheduleExceptionRecord> {
  const row = exceptionColumns(record);
  if (previous) await store.updateException(w.tx, w.actor.orgUuid, record.uuid, row);
  else await store.insertException(w.tx, { uuid: record.uuid, org_uuid: w.actor.orgUuid, created_at_ms: w.nowMs, ...row });
  await store.setExceptionDoors(w.tx, w.actor.orgUuid, { uuid: record.uuid, ...row }, record.doorUuids);
  w.change({ entity: EXCEPTION_ENTITY, entityUuid: record.uuid, type: previous ? 'UPDATE' : 'CREATE', update: record });
  await applyDoorStates(w, await findDoors(w, w.actor.orgUuid, [...new Set([...(previous?.doorUuids ?? []), ...record.doorUuids])]));
  return record;
}

/** Creates an exception in the caller's write (the site seeder's way). */
/** The organization's door schedule exceptions, name to uuid (a site file seeded again finds them by name). */
export async function exceptionUuidsByName(source: ReadSource, orgUuid: string): Promise<Map<string, string>> {
  return firstByName((await store.listExceptions(dbOf(source), orgUuid, { dates: {} })).map((r) => JSON.parse(r.data) as DoorScheduleExceptionRecord));
}

export async function insertException(w: WriteScope, input: ExceptionInput): Promise<DoorScheduleExceptionRecord> {
  return saveException(w, await checkedException(w, { ...input, uuid: undefined }, null), null);
}

export async function createException(deps: ExceptionDeps, ctx: CallerContext, input: { exception: ExceptionInput }): Promise<DoorScheduleExceptionRecord> {
  return write(deps, ctx, (w) => insertException(w, input.exception));
}

/** Changes the fields given of an exception (doors given replace its doors). */
export async function updateException(deps: ExceptionDeps, ctx: CallerContext, input: { exception: ExceptionInput }): Promise<DoorScheduleExceptionRecord> {
  const uuid = input.exception.uuid;
  if (!uuid) throw fail('INVALID_VALUE', 'exception.uuid: required');
  return write(deps, ctx, async (w) => {
    const previous = await exceptionOf(w, ctx.orgUuid, uuid);
    return saveException(w, await checkedException(w, input.exception, previous), previous);
  });
}

export async function deleteException(deps: ExceptionDeps, ctx: CallerContext, input: { exceptionUuid: string }): Promise<void> {
  await write(deps, ctx, async (w) => {
    const previous = await exceptionOf(w, ctx.orgUuid, input.exceptionUuid);
    await store.deleteException(w.tx, ctx.orgUuid, previous.uuid);
    w.change({ entity: EXCEPTION_ENTITY, entityUuid: previous.uuid, type: 'DELETE', update: previous });
    await applyDoorStates(w, await findDoors(w, ctx.orgUuid, previous.doorUuids));
  });
}

/**
 * A door being deleted leaves the exceptions that cover it (`deps.recordCleaners.door`): one keeps its other doors,
 * one left with none is deleted, each announced. The other doors' states do not change: their exceptions are the same.
 */
export const exceptionsForgetDoor: RecordCleaner = async (w, doorUuid) => {
  for (const row of await store.exceptionsOfDoor(w.tx, w.actor.orgUuid, doorUuid)) {
    const previous = JSON.parse(row.data) as DoorScheduleExceptionRecord;
    const doorUuids = previous.doorUuids.filter((d) => d !== doorUuid);
    if (doorUuids.length === 0) {
      await store.deleteException(w.tx, w.actor.orgUuid, previous.uuid);
      w.change({ entity: EXCEPTION_ENTITY, entityUuid: previous.uuid, type: 'DELETE', update: previous });
      continue;
    }
    const locationToDoorsMap = Object.fromEntries(
      Object.entries(previous.locationToDoorsMap)
        .map(([location, doors]) => [location, doors.filter((d) => d !== doorUuid)] as const)
        .filter(([, doors]) => doors.length > 0),
    );
    const record = { ...previous, doorUuids, locationToDoorsMap, updatedAtMillis: w.nowMs };
    const columns = exceptionColumns(record);
    await store.updateException(w.tx, w.actor.orgUuid, record.uuid, columns);
    await store.setExceptionDoors(w.tx, w.actor.orgUuid, { uuid: record.uuid, ...columns }, doorUuids);
    w.change({ entity: EXCEPTION_ENTITY, entityUuid: record.uuid, type: 'UPDATE', update: record });
  }
};

export async function getException(
  deps: Pick<Deps, 'store'>,
  ctx: Pick<CallerContext, 'orgUuid'>,
  input: { exceptionUuid: string },
): Promise<DoorScheduleExceptionRecord> {
  return exceptionOf(deps, ctx.orgUuid, input.exceptionUuid);
}

function datesOf(filter: DateRangeInput | null | undefined): store.ExceptionDateFilter {
  const date = (v: string | null | undefined, path: string) => {
    if (v == null) return undefined;
    if (!isLocalDate(v.slice(0, 10))) throw fail('INVALID_VALUE', `dateRangeFilter.${path}: a date YYYY-MM-DD (or a date-time)`);
    return v.slice(0, 10);
  };
  return {
    startFrom: date(filter?.localStartDateRangeStart, 'localStartDateRangeStart'),
    startTo: date(filter?.localStartDateRangeEnd, 'localStartDateRangeEnd'),
    endFrom: date(filter?.localEndDateRangeStart, 'localEndDateRangeStart'),
    endTo: date(filter?.localEndDateRangeEnd, 'localEndDateRangeEnd'),
  };
}

/** The organization's exceptions by first date, of a door or at a location when given, within the date filter. */
export async function findExceptions(
  deps: Pick<Deps, 'store'>,
  ctx: Pick<CallerContext, 'orgUuid'>,
  input: { doorUuid?: string; locationUuid?: string; dateRangeFilter?: DateRangeInput | null },
): Promise<DoorScheduleExceptionRecord[]> {
  const rows = await store.listExceptions(deps.store.db, ctx.orgUuid, {
    doorUuid: input.doorUuid,
    locationUuid: input.locationUuid,
    dates: datesOf(input.dateRangeFilter),
  });
  return rows.map((r) => JSON.parse(r.data) as DoorScheduleExceptionRecord);
}

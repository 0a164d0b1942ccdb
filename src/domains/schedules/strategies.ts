/**
 * The platform's four kinds of schedule (its ScheduleStrategyEnum), what each keeps, how each is checked, and
 * when each covers an instant. Every consumer (doors, access rules, policies, rules, lockdowns) asks
 * `scheduleCovers` and `scheduleBoundaries`, so a schedule of any kind can be used wherever a schedule is.
 */
import { fail } from '../../errors.js';
import { instantOf, localDateTime, normalLocalDateTime } from './local-time.js';
import { intervalProblem, isInsideSchedule, MINUTES_PER_WEEK, type WeekInterval } from './week-minutes.js';

export const SCHEDULE_STRATEGIES = ['WEEKLY_REPEATING_MINUTES', 'ABSOLUTE_SECONDS', 'REALTIME_RELATIVE_SECONDS', 'RELATIVE_DATETIME_INTERVALS'] as const;
export type ScheduleStrategy = (typeof SCHEDULE_STRATEGIES)[number];

/** An absolute interval in epoch seconds: `b` inclusive, `e` exclusive. */
export interface SecondsInterval {
  b: number;
  e: number;
}

/** An interval of wall-clock date-times (`YYYY-MM-DDTHH:mm:ss`) at the location: start inclusive, end exclusive. */
export interface LocalDateTimeInterval {
  localStartDateTime: string;
  localEndDateTime: string;
}

interface ScheduleBase {
  uuid: string;
  orgUuid: string;
  name: string;
  mutable: boolean;
  oneTimeUse: boolean;
}

/** Minutes of the week, every week (the specification's Schedule). */
export interface WeeklySchedule extends ScheduleBase {
  strategy: 'WEEKLY_REPEATING_MINUTES';
  intervalList: WeekInterval[];
}
/** Fixed spans of time. */
export interface AbsoluteSchedule extends ScheduleBase {
  strategy: 'ABSOLUTE_SECONDS';
  intervalList: SecondsInterval[];
}
/** The last `pastSeconds` before now: wherever it is asked about the present, it covers it. */
export interface RelativeSchedule extends ScheduleBase {
  strategy: 'REALTIME_RELATIVE_SECONDS';
  pastSeconds: number;
}
/** Fixed spans of wall-clock time, read in the time zone of whatever follows the schedule. */
export interface DateTimeSchedule extends ScheduleBase {
  strategy: 'RELATIVE_DATETIME_INTERVALS';
  intervals: LocalDateTimeInterval[];
}

export type ScheduleRecord = WeeklySchedule | AbsoluteSchedule | RelativeSchedule | DateTimeSchedule;

/** What a schedule of each kind keeps besides the common fields (stored as JSON in the `intervals` column). */
export type ScheduleTimes =
  | { strategy: 'WEEKLY_REPEATING_MINUTES'; intervalList: WeekInterval[] }
  | { strategy: 'ABSOLUTE_SECONDS'; intervalList: SecondsInterval[] }
  | { strategy: 'REALTIME_RELATIVE_SECONDS'; pastSeconds: number }
  | { strategy: 'RELATIVE_DATETIME_INTERVALS'; intervals: LocalDateTimeInterval[] };

/** The latest second an absolute interval may name: the end of year 9999, as far as dates are read anywhere here. */
export const MAX_EPOCH_SECONDS = 253_402_300_799;
/** pastSeconds is an int32 on the platform. */
export const MAX_PAST_SECONDS = 2_147_483_647;

/** The path of the first pair (sorted by start) that overlaps, or null. */
function overlap<T>(items: readonly T[], start: (t: T) => number | string, stop: (t: T) => number | string, path: string): string | null {
  const sorted = items.map((item, index) => ({ item, index })).sort((a, b) => (start(a.item) < start(b.item) ? -1 : start(a.item) > start(b.item) ? 1 : 0));
  for (let k = 1; k < sorted.length; k++)
    if (start(sorted[k].item) < stop(sorted[k - 1].item)) return `${path}[${sorted[k].index}]: overlaps ${path}[${sorted[k - 1].index}]`;
  return null;
}

function absoluteProblem(intervals: readonly SecondsInterval[], path: string): string | null {
  for (const [i, { b, e }] of intervals.entries()) {
    if (!Number.isInteger(b) || !Number.isInteger(e)) return `${path}[${i}]: b and e must be integers (epoch seconds)`;
    if (b < 0 || e > MAX_EPOCH_SECONDS) return `${path}[${i}]: b and e must be within 0..${MAX_EPOCH_SECONDS} (epoch seconds)`;
    if (b >= e) return `${path}[${i}]: b must be < e`;
  }
  return overlap(
    intervals,
    (x) => x.b,
    (x) => x.e,
    path,
  );
}

function dateTimeProblem(intervals: readonly LocalDateTimeInterval[], path: string): string | null {
  for (const [i, interval] of intervals.entries()) {
    for (const field of ['localStartDateTime', 'localEndDateTime'] as const)
      if (normalLocalDateTime(interval[field] ?? '') === null) return `${path}[${i}].${field}: not a date-time of the form yyyy-MM-ddTHH:mm:ss`;
    if (normalLocalDateTime(interval.localStartDateTime)! >= normalLocalDateTime(interval.localEndDateTime)!)
      return `${path}[${i}]: localStartDateTime must be before localEndDateTime`;
  }
  return overlap(
    intervals,
    (x) => normalLocalDateTime(x.localStartDateTime)!,
    (x) => normalLocalDateTime(x.localEndDateTime)!,
    path,
  );
}

/** Weekly intervals, checked, as a schedule keeps them (sorted by start), or a failure naming the first wrong one. */
export function checkedIntervals(intervals: readonly WeekInterval[], path: string): WeekInterval[] {
  const problem = intervalProblem(intervals, path);
  if (problem) throw fail('INVALID_VALUE', problem);
  return intervals
    .map((i) => ({ minuteOfWeekStart: i.minuteOfWeekStart, minuteOfWeekStop: i.minuteOfWeekStop }))
    .sort((a, b) => a.minuteOfWeekStart - b.minuteOfWeekStart);
}

/**
 * A schedule's times, checked and in the form it keeps them (intervals sorted by start, date-times with
 * seconds), or a failure naming the first wrong value; `path` names the schedule in the request.
 */
export function checkedTimes(times: ScheduleTimes, path: string): ScheduleTimes {
  const problem = (message: string | null) => {
    if (message) throw fail('INVALID_VALUE', message);
  };
  switch (times.strategy) {
    case 'WEEKLY_REPEATING_MINUTES':
      return { strategy: times.strategy, intervalList: checkedIntervals(times.intervalList, `${path}.intervalList`) };
    case 'ABSOLUTE_SECONDS':
      problem(absoluteProblem(times.intervalList, `${path}.intervalList`));
      return { strategy: times.strategy, intervalList: times.intervalList.map((i) => ({ b: i.b, e: i.e })).sort((x, y) => x.b - y.b) };
    case 'REALTIME_RELATIVE_SECONDS':
      if (!Number.isInteger(times.pastSeconds) || times.pastSeconds < 1 || times.pastSeconds > MAX_PAST_SECONDS)
        problem(`${path}.pastSeconds: must be an integer within 1..${MAX_PAST_SECONDS}`);
      return { strategy: times.strategy, pastSeconds: times.pastSeconds };
    case 'RELATIVE_DATETIME_INTERVALS':
      problem(dateTimeProblem(times.intervals, `${path}.intervals`));
      return {
        strategy: times.strategy,
        intervals: times.intervals
          .map((i) => ({ localStartDateTime: normalLocalDateTime(i.localStartDateTime)!, localEndDateTime: normalLocalDateTime(i.localEndDateTime)! }))
          .sort((x, y) => (x.localStartDateTime < y.localStartDateTime ? -1 : 1)),
      };
  }
}

/** A schedule's times without its common fields. */
export function timesOf(schedule: ScheduleRecord): ScheduleTimes {
  switch (schedule.strategy) {
    case 'WEEKLY_REPEATING_MINUTES':
    case 'ABSOLUTE_SECONDS':
      return { strategy: schedule.strategy, intervalList: schedule.intervalList } as ScheduleTimes;
    case 'REALTIME_RELATIVE_SECONDS':
      return { strategy: schedule.strategy, pastSeconds: schedule.pastSeconds };
    case 'RELATIVE_DATETIME_INTERVALS':
      return { strategy: schedule.strategy, intervals: schedule.intervals };
  }
}

/**
 * Whether the schedule covers the instant, on the wall clock of the time zone (weekly and date-time schedules
 * read it; absolute ones are instants already). A relative schedule covers the `pastSeconds` before `nowMs`,
 * which defaults to the instant itself: asked about the present, it covers it.
 */
export function scheduleCovers(schedule: ScheduleRecord, atMs: number, timeZone: string, nowMs = atMs): boolean {
  switch (schedule.strategy) {
    case 'WEEKLY_REPEATING_MINUTES':
      return isInsideSchedule(schedule.intervalList, atMs, timeZone);
    case 'ABSOLUTE_SECONDS':
      return schedule.intervalList.some((i) => i.b * 1000 <= atMs && atMs < i.e * 1000);
    case 'REALTIME_RELATIVE_SECONDS':
      return nowMs - schedule.pastSeconds * 1000 <= atMs && atMs <= nowMs;
    case 'RELATIVE_DATETIME_INTERVALS': {
      const local = localDateTime(atMs, timeZone);
      return schedule.intervals.some((i) => i.localStartDateTime <= local && local < i.localEndDateTime);
    }
  }
}

/** scheduleCovers for a schedule that may be missing (deleted, or never the organization's): it covers nothing. */
export function scheduleHolds(schedule: ScheduleRecord | null | undefined, atMs: number, timeZone: string): boolean {
  return schedule ? scheduleCovers(schedule, atMs, timeZone) : false;
}

const DAY_MS = 86_400_000;

/** The instants in (fromMs, toMs] at which the schedule may start or stop covering (a door re-checks its state then). */
export function scheduleBoundaries(schedule: ScheduleRecord, fromMs: number, toMs: number, timeZone: string): number[] {
  let instants: number[] = [];
  switch (schedule.strategy) {
    case 'WEEKLY_REPEATING_MINUTES': {
      // Each bound's wall-clock minute on each day of the span, turned into an instant in the zone.
      const bounds = schedule.intervalList.flatMap((i) => [i.minuteOfWeekStart, i.minuteOfWeekStop % MINUTES_PER_WEEK]);
      for (let dayMs = fromMs - DAY_MS; dayMs <= toMs + DAY_MS; dayMs += DAY_MS) {
        const date = localDateTime(dayMs, timeZone).slice(0, 10);
        const weekday = (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
        for (const bound of bounds) {
          if (Math.floor(bound / 1440) !== weekday) continue;
          const minute = bound % 1440;
          const hhmm = `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00`;
          instants.push(instantOf(`${date}T${hhmm}`, timeZone));
        }
      }
      break;
    }
    case 'ABSOLUTE_SECONDS':
      instants = schedule.intervalList.flatMap((i) => [i.b * 1000, i.e * 1000]);
      break;
    case 'REALTIME_RELATIVE_SECONDS':
      break;
    case 'RELATIVE_DATETIME_INTERVALS':
      instants = schedule.intervals.flatMap((i) => [instantOf(i.localStartDateTime, timeZone), instantOf(i.localEndDateTime, timeZone)]);
      break;
  }
  return [...new Set(instants.filter((t) => t > fromMs && t <= toMs))].sort((a, b) => a - b);
}

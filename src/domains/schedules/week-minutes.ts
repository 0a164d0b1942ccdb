/**
 * Time inside a week, as schedules count it. Convention (the platform's clients'): minute 0 is Monday 00:00 in
 * the location's time zone, minute 1440 is Tuesday 00:00, and the week ends at minute 10080 (exclusive),
 * at the end of Sunday.
 * An interval covers minuteOfWeekStart <= m < minuteOfWeekStop; an interval never crosses the end of the
 * week, so "Sunday 23:00 to Monday 01:00" is two intervals ([10020, 10080) and [0, 60)).
 * Wall-clock minutes are read with Intl in the zone itself, so daylight-saving changes need no arithmetic:
 * the skipped spring hour never occurs and the repeated autumn hour occurs twice.
 */
export const MINUTES_PER_WEEK = 7 * 24 * 60;

export interface WeekInterval {
  minuteOfWeekStart: number;
  minuteOfWeekStop: number;
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formats.set(timeZone, format);
  }
  return format;
}

/** True for a time zone name that Intl knows (IANA names such as `Europe/Paris`, and `UTC`). */
export function isValidTimeZone(timeZone: string): boolean {
  if (!timeZone) return false;
  try {
    formatFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The minute of the week (0..10079) of an instant, on the wall clock of the time zone. */
export function minuteOfWeek(instantMs: number, timeZone: string): number {
  const parts = formatFor(timeZone).formatToParts(new Date(instantMs));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const day = WEEKDAYS.indexOf(part('weekday'));
  return day * 1440 + (Number(part('hour')) % 24) * 60 + Number(part('minute'));
}

/** Whether an instant falls inside one of the intervals, on the wall clock of the time zone. */
export function isInsideSchedule(intervals: readonly WeekInterval[], instantMs: number, timeZone: string): boolean {
  const m = minuteOfWeek(instantMs, timeZone);
  return intervals.some((i) => i.minuteOfWeekStart <= m && m < i.minuteOfWeekStop);
}

/**
 * Why a list of intervals is not a valid weekly schedule, or null when it is: every bound an integer,
 * 0 <= start < stop <= 10080, and no two intervals overlapping once sorted (touching ends are fine).
 * `path` names the list in the message, for example `schedule.intervalList`.
 */
export function intervalProblem(intervals: readonly WeekInterval[], path: string): string | null {
  for (const [i, { minuteOfWeekStart: start, minuteOfWeekStop: stop }] of intervals.entries()) {
    if (!Number.isInteger(start) || !Number.isInteger(stop)) return `${path}[${i}]: start and stop must be integers`;
    if (start < 0 || stop > MINUTES_PER_WEEK) return `${path}[${i}]: start and stop must be within 0..${MINUTES_PER_WEEK}`;
    if (start >= stop) return `${path}[${i}]: start must be < stop`;
  }
  const sorted = intervals.map((interval, index) => ({ ...interval, index })).sort((a, b) => a.minuteOfWeekStart - b.minuteOfWeekStart);
  for (let k = 1; k < sorted.length; k++) {
    if (sorted[k].minuteOfWeekStart < sorted[k - 1].minuteOfWeekStop) {
      return `${path}[${sorted[k].index}]: overlaps ${path}[${sorted[k - 1].index}]`;
    }
  }
  return null;
}

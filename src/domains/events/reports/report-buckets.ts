import { fail } from '../../../errors.js';

/**
 * Report buckets cut on the wall clock of a time zone. Days, weeks (from Sunday, the platform's week) and
 * months start at local midnight, so a day is 23 or 25 hours long across a daylight-saving change and a
 * day whose midnight is skipped starts at its first existing minute. Minutes, quarter hours and hours are
 * cut on the local clock at the instant itself, so the repeated autumn hour gives two hour buckets.
 */
export const BUCKET_UNITS = ['MINUTE', 'QUARTER_HOUR', 'HOUR', 'DAY', 'WEEK', 'MONTH'] as const;
export type BucketUnit = (typeof BUCKET_UNITS)[number];

/** The most buckets one report may cut; a longer range needs a larger bucket. */
export const MAX_BUCKETS = 10_000;

const FIXED_MS: Partial<Record<BucketUnit, number>> = { MINUTE: 60_000, QUARTER_HOUR: 900_000, HOUR: 3_600_000 };
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 is Sunday. */
  weekday: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

function localTime(instantMs: number, timeZone: string): LocalTime {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    formats.set(timeZone, format);
  }
  const parts: Record<string, string> = {};
  for (const p of format.formatToParts(new Date(instantMs))) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS.indexOf(parts.weekday),
  };
}

/** The wall clock's lead over UTC at an instant, in ms. */
function offsetMs(instantMs: number, timeZone: string): number {
  const t = localTime(instantMs, timeZone);
  return Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second) - Math.floor(instantMs / 1000) * 1000;
}

const dayKey = (year: number, month: number, day: number) => year * 10_000 + month * 100 + day;

/**
 * The first instant of a local calendar day (month and day may overflow: they are normalised as Date.UTC
 * does). Local dates only move forward with time, so a binary search over the minutes around the UTC
 * midnight of that date finds it whatever the offset or a transition at midnight.
 */
function startOfLocalDay(year: number, month: number, day: number, timeZone: string): number {
  const utcMidnight = Date.UTC(year, month - 1, day);
  const normal = new Date(utcMidnight);
  const target = dayKey(normal.getUTCFullYear(), normal.getUTCMonth() + 1, normal.getUTCDate());
  let lo = (utcMidnight - 15 * 3_600_000) / MINUTE_MS;
  let hi = (utcMidnight + 15 * 3_600_000) / MINUTE_MS;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const t = localTime(mid * MINUTE_MS, timeZone);
    if (dayKey(t.year, t.month, t.day) >= target) hi = mid;
    else lo = mid + 1;
  }
  return lo * MINUTE_MS;
}

/** The start of the bucket that holds an instant. */
export function bucketStart(instantMs: number, unit: BucketUnit, timeZone: string): number {
  const fixed = FIXED_MS[unit];
  if (fixed) {
    const local = instantMs + offsetMs(instantMs, timeZone);
    return instantMs - (((local % fixed) + fixed) % fixed);
  }
  const t = localTime(instantMs, timeZone);
  if (unit === 'DAY') return startOfLocalDay(t.year, t.month, t.day, timeZone);
  if (unit === 'WEEK') return startOfLocalDay(t.year, t.month, t.day - t.weekday, timeZone);
  return startOfLocalDay(t.year, t.month, 1, timeZone);
}

/** The start of the bucket after the one starting at `start`. */
export function nextBucket(start: number, unit: BucketUnit, timeZone: string): number {
  const fixed = FIXED_MS[unit];
  if (fixed) return start + fixed;
  // Noon of the bucket's first day is safely inside it whatever the transitions.
  const t = localTime(start + DAY_MS / 2, timeZone);
  if (unit === 'DAY') return startOfLocalDay(t.year, t.month, t.day + 1, timeZone);
  if (unit === 'WEEK') return startOfLocalDay(t.year, t.month, t.day + 7, timeZone);
  return startOfLocalDay(t.year, t.month + 1, 1, timeZone);
}

/** The starts of the buckets that cover [startMs, endMs), the first one holding startMs. Empty for an empty range. */
export function cutBuckets(startMs: number, endMs: number, unit: BucketUnit, timeZone: string): number[] {
  const starts: number[] = [];
  for (let b = startMs < endMs ? bucketStart(startMs, unit, timeZone) : endMs; b < endMs; b = nextBucket(b, unit, timeZone)) {
    if (starts.length === MAX_BUCKETS)
      throw fail('INVALID_VALUE', `the range holds more than ${MAX_BUCKETS} buckets of ${unit}: use a larger bucket or a shorter range`);
    starts.push(b);
  }
  return starts;
}

/** The index of the bucket (by its start, ascending) that holds an instant, or -1 before the first. */
export function bucketIndex(starts: readonly number[], instantMs: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid] <= instantMs) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** An instant on the zone's wall clock, `YYYY-MM-DDTHH:mm:ss`. */
export function localIso(instantMs: number, timeZone: string): string {
  const t = localTime(instantMs, timeZone);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(t.year, 4)}-${p(t.month)}-${p(t.day)}T${p(t.hour)}:${p(t.minute)}:${p(t.second)}`;
}

import { fail } from '../../errors.js';

/**
 * The time-span logic every timeline read shares: a span is named by a start and a duration (seconds, as
 * the catalogue's requests give them) and read as the half-open [fromMs, toMs). A read answers every point of
 * its span or refuses: each source reads at most `maxSeekpoints + 1` rows in one query, so a span that holds
 * more is known without counting it, and no answer silently leaves points out.
 */

export interface Span {
  fromMs: number;
  toMs: number;
}

export const TIMELINE_LIMITS = {
  /** The longest span one read covers: a week of timeline. */
  maxSpanSec: 7 * 86_400,
  /** The most seekpoints one answer carries. */
  maxSeekpoints: 10_000,
  /** The most custom seekpoints one create takes. */
  maxCustomPerCall: 1000,
};

/** How a request names its span: the fields' names, for the errors. */
export interface SpanFields {
  start: string;
  duration: string;
  /** The start is exclusive (the component finders' `startTimeSecEpochExclusive`): the instant itself is out. */
  exclusiveStart?: boolean;
}

/** The span of a start (epoch seconds) and a duration (seconds); both are required. */
export function spanOf(startSec: number | null | undefined, durationSec: number | null | undefined, fields: SpanFields): Span {
  if (startSec == null) throw fail('INVALID_VALUE', `${fields.start} is required`);
  if (durationSec == null) throw fail('INVALID_VALUE', `${fields.duration} is required`);
  if (durationSec <= 0 || durationSec > TIMELINE_LIMITS.maxSpanSec) {
    throw fail('INVALID_VALUE', `${fields.duration}: from 1 to ${TIMELINE_LIMITS.maxSpanSec} seconds (a week)`);
  }
  const fromMs = startSec * 1000 + (fields.exclusiveStart ? 1 : 0);
  return { fromMs, toMs: fromMs + durationSec * 1000 };
}

/** The spans of the catalogue's two spellings: `startTimeSec`/`durationSec` and `startTime`/`duration`. */
export const SPAN_SEC: SpanFields = { start: 'startTimeSec', duration: 'durationSec' };
export const SPAN_PLAIN: SpanFields = { start: 'startTime', duration: 'duration' };
export const SPAN_EXCLUSIVE: SpanFields = { start: 'startTimeSecEpochExclusive', duration: 'durationSec', exclusiveStart: true };

/** Rows a source reads for one answer: one more than an answer carries, so that an overfull span shows. */
export const SOURCE_LIMIT = TIMELINE_LIMITS.maxSeekpoints + 1;

/** Refuses an answer over the limit (the caller narrows the span); answers the points otherwise. */
export function withinLimit<T>(points: T[]): T[] {
  if (points.length > TIMELINE_LIMITS.maxSeekpoints) {
    throw fail('INVALID_VALUE', `the span holds more than ${TIMELINE_LIMITS.maxSeekpoints} seekpoints: narrow it`);
  }
  return points;
}

/**
 * Points of several sources in time order. Each source's points are listed in the order given, and equal
 * times keep that order (the sort is stable), so an answer is the same however often it is read.
 */
export function inTimeOrder<T>(sources: ReadonlyArray<readonly T[]>, timeOf: (point: T) => number): T[] {
  return withinLimit(sources.flat().sort((a, b) => timeOf(a) - timeOf(b)));
}

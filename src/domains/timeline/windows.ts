import type { TimeWindow } from './seekpoints.schemas.js';
import type { Span } from './span.js';

/**
 * Presence windows: the spans of a device's timeline where it recorded activity. Each activity covers
 * [start, end]; activities less than `PRESENCE.gapMs` apart join one window.
 *
 * The stores answer activity already grouped by buckets of `gapMs` (the minimum start, the maximum end and
 * the last start of each bucket) so a read returns at most span / gap rows however busy the device was. The
 * grouping changes nothing: the starts of one bucket lie within `gapMs` of each other, so its activities join
 * one window anyway, and that window runs from the bucket's first start to its last end.
 */
export const PRESENCE = {
  /** Activities closer than this join one window; also the bucket width of the stores' grouping. */
  gapMs: 30_000,
  /** How long an instant activity (a crossing, an alert without a duration) keeps a window open. */
  instantMs: 10_000,
};

/** One bucket of grouped activity, as the stores answer it. */
export interface ActivityBucket {
  /** The earliest start in the bucket. */
  startMs: number;
  /** The latest start in the bucket. */
  lastStartMs: number;
  /** The latest end in the bucket (its start plus its duration, or for a state the next report). */
  endMs: number;
}

/**
 * The windows of the activity buckets within the span, oldest first, in whole seconds (start rounded down,
 * end up). `instantMs` is the least an activity lasts: PRESENCE.instantMs for instants, 0 for states whose end is known.
 */
export function presenceWindows(buckets: readonly ActivityBucket[], span: Span, instantMs: number): TimeWindow[] {
  const intervals = buckets
    .map((b) => ({ start: Math.max(b.startMs, span.fromMs), end: Math.min(Math.max(b.endMs, b.lastStartMs + instantMs), span.toMs) }))
    .filter((i) => i.end >= i.start)
    .sort((a, b) => a.start - b.start);
  const merged: Array<{ start: number; end: number }> = [];
  for (const i of intervals) {
    const last = merged[merged.length - 1];
    if (last && i.start - last.end < PRESENCE.gapMs) last.end = Math.max(last.end, i.end);
    else merged.push({ ...i });
  }
  return merged.map((w) => {
    const startSeconds = Math.floor(w.start / 1000);
    return { startSeconds, durationSeconds: Math.ceil(w.end / 1000) - startSeconds };
  });
}

/** Windows of several sources of one device (its alerts and its crossings, say) merged into one timeline. */
export function mergedPresence(sources: ReadonlyArray<{ buckets: readonly ActivityBucket[]; instantMs: number }>, span: Span): TimeWindow[] {
  const widened = sources.flatMap((s) => s.buckets.map((b) => ({ ...b, endMs: Math.max(b.endMs, b.lastStartMs + s.instantMs) })));
  return presenceWindows(widened, span, 0);
}

import type { SampledWindow } from '../../../footage/render-timelapse.js';
// A pure helper of the schedules domain (wall-clock minutes of a week, read with Intl), as devices uses it too.
import { minuteOfWeek } from '../../schedules/week-minutes.js';

/**
 * Which stretches of a timelapse's span are sampled: all of it, or without its nights (20:00 to 06:00) and
 * weekends (Saturday and Sunday), on the wall clock of the camera's location. The span is read in slices of
 * a quarter of an hour (every time zone's offset is a whole number of quarters), so a boundary falls exactly
 * where the clock says, daylight-saving changes included.
 */
const SLICE_MS = 15 * 60_000;
const NIGHT_ENDS = 6 * 60;
const NIGHT_STARTS = 20 * 60;
const SATURDAY = 5 * 1440;

export interface SkipRules {
  skipNights?: boolean | null;
  skipWeekends?: boolean | null;
}

function sampled(minute: number, rules: SkipRules): boolean {
  const ofDay = minute % 1440;
  if (rules.skipNights && (ofDay < NIGHT_ENDS || ofDay >= NIGHT_STARTS)) return false;
  return !(rules.skipWeekends && minute >= SATURDAY);
}

/** The sampled windows of [startMs, stopMs), as offsets from startMs; empty when every moment is skipped. */
export function sampledWindows(startMs: number, stopMs: number, rules: SkipRules, timeZone: string): SampledWindow[] {
  if (!rules.skipNights && !rules.skipWeekends) return [[0, stopMs - startMs]];
  const windows: Array<[number, number]> = [];
  for (let at = startMs; at < stopMs;) {
    const next = Math.min(stopMs, (Math.floor(at / SLICE_MS) + 1) * SLICE_MS);
    if (sampled(minuteOfWeek(at, timeZone), rules)) {
      const last = windows[windows.length - 1];
      if (last && last[1] === at - startMs) last[1] = next - startMs;
      else windows.push([at - startMs, next - startMs]);
    }
    at = next;
  }
  return windows;
}

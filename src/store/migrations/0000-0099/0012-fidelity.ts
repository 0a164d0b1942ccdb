import type { Kysely, Migration } from 'kysely';

const DAY = 1440;
const WEEK = 7 * DAY;

interface Interval {
  minuteOfWeekStart: number;
  minuteOfWeekStop: number;
}

/**
 * Moves a week's intervals by `shift` minutes (mod one week): an interval that then crosses the end of the
 * week is cut in two, and intervals that come to touch are joined, so the list stays valid and sorted.
 */
export function shiftWeekIntervals(intervals: readonly Interval[], shift: number): Interval[] {
  const pieces: Interval[] = [];
  for (const { minuteOfWeekStart: start, minuteOfWeekStop: stop } of intervals) {
    const from = (((start + shift) % WEEK) + WEEK) % WEEK;
    const to = from + (stop - start);
    if (to <= WEEK) pieces.push({ minuteOfWeekStart: from, minuteOfWeekStop: to });
    else pieces.push({ minuteOfWeekStart: from, minuteOfWeekStop: WEEK }, { minuteOfWeekStart: 0, minuteOfWeekStop: to - WEEK });
  }
  pieces.sort((a, b) => a.minuteOfWeekStart - b.minuteOfWeekStart);
  const joined: Interval[] = [];
  for (const piece of pieces) {
    const last = joined[joined.length - 1];
    if (last && piece.minuteOfWeekStart <= last.minuteOfWeekStop) last.minuteOfWeekStop = Math.max(last.minuteOfWeekStop, piece.minuteOfWeekStop);
    else joined.push({ ...piece });
  }
  return joined;
}

/** The one table this migration reads, as it was when the migration was written. */
interface SchedulesOnly {
  schedules: { uuid: string; intervals: string };
}

async function shiftStoredSchedules(db: Kysely<SchedulesOnly>, shift: number): Promise<void> {
  const rows = await db.selectFrom('schedules').select(['uuid', 'intervals']).execute();
  for (const row of rows) {
    const intervals = shiftWeekIntervals(JSON.parse(row.intervals) as Interval[], shift);
    await db
      .updateTable('schedules')
      .set({ intervals: JSON.stringify(intervals) })
      .where('uuid', '=', row.uuid)
      .execute();
  }
}

/**
 * Client fidelity (issue 14): minutes of the week now count from Monday 00:00, as the platform's clients
 * count them (they counted from Sunday 00:00); stored schedules keep their meaning, moved by one day.
 */
export function fidelity(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await shiftStoredSchedules(db as unknown as Kysely<SchedulesOnly>, -DAY);
    },
    async down(db: Kysely<unknown>) {
      await shiftStoredSchedules(db as unknown as Kysely<SchedulesOnly>, DAY);
    },
  };
}

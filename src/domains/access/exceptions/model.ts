import type { DoorAccessState } from '../tables.js';

/** One period of an exception: from its local start to its local end, both inclusive, to the second. */
export interface ExceptionInterval {
  localStartDateTime: string;
  localEndDateTime: string;
  state: DoorAccessState;
}

/**
 * A door schedule exception (the platform's DoorScheduleExceptionType): for its local dates it overrides the
 * schedules of its doors. A moment inside one of its intervals takes the interval's state; another moment of
 * its dates takes its defaultState, or the door's own schedule when it has none.
 */
export interface DoorScheduleExceptionRecord {
  uuid: string;
  orgUuid: string;
  name: string;
  description: string | null;
  locationUuid: string | null;
  doorUuids: string[];
  /** The exception's doors by location, as the platform's clients read them. */
  locationToDoorsMap: Record<string, string[]>;
  localStartDate: string;
  localEndDate: string;
  defaultState: DoorAccessState | null;
  intervals: ExceptionInterval[];
  createdAtMillis: number;
  updatedAtMillis: number;
}

/**
 * What the exceptions say of a local moment (`YYYY-MM-DDTHH:mm:ss`), or null when none of them covers its date
 * or the ones that do leave it to the door's schedule. Where two disagree, ACCESS_CONTROLLED wins: an exception
 * never unlocks a door that another keeps locked.
 */
export function exceptionStateAt(exceptions: readonly DoorScheduleExceptionRecord[], local: string): DoorAccessState | null {
  const date = local.slice(0, 10);
  let verdict: DoorAccessState | null = null;
  for (const e of exceptions) {
    if (date < e.localStartDate || date > e.localEndDate) continue;
    const interval = e.intervals.find((i) => i.localStartDateTime <= local && local <= i.localEndDateTime);
    const state = interval?.state ?? e.defaultState;
    if (state === 'ACCESS_CONTROLLED') return state;
    if (state) verdict = state;
  }
  return verdict;
}

/** The local moments where an exception's say may change: its first day's start, the day after its last, and its intervals' bounds. */
export function exceptionBoundaries(e: DoorScheduleExceptionRecord, dayAfter: (date: string) => string): string[] {
  const nextSecond = (local: string) => {
    const [date, time] = local.split('T');
    const [h, m, s] = time.split(':').map(Number);
    const t = h * 3600 + m * 60 + s + 1;
    if (t >= 86_400) return `${dayAfter(date)}T00:00:00`;
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${date}T${pad(Math.floor(t / 3600))}:${pad(Math.floor((t % 3600) / 60))}:${pad(t % 60)}`;
  };
  return [
    `${e.localStartDate}T00:00:00`,
    `${dayAfter(e.localEndDate)}T00:00:00`,
    ...e.intervals.flatMap((i) => [i.localStartDateTime, nextSecond(i.localEndDateTime)]),
  ];
}

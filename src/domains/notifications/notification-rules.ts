import { minuteOfWeek } from '../schedules/week-minutes.js';
import { DAYS, type NotificationInterval, type TimeFrame } from '../orgs/users/notification-settings.schemas.js';

/*
 * Who wants to hear of an event: pure functions of notification settings and the event, evaluated on the
 * wall clock of the event's location (minutes of the week count from Monday 00:00, as schedules do).
 */

/** What a notification is about. */
export interface NotifiedEvent {
  activities: readonly string[];
  deviceUuid: string;
  locationUuid: string | null;
  timestampMs: number;
  /** The IANA time zone of the event's location (UTC without one). */
  timeZone: string;
}

/** A facet id (`<device>.v0`) or a plain device uuid, as the device's uuid. */
const deviceOf = (facetOrUuid: string) => facetOrUuid.split('.')[0]!;

const meets = (listed: readonly string[] | null | undefined, value: string | null) => !listed?.length || (value !== null && listed.includes(value));
const overlaps = (listed: readonly string[] | null | undefined, values: readonly string[]) => (listed ?? []).some((a) => values.includes(a));

/**
 * A V2 time frame covers the event when its day and minute of the day are in the frame (no days: every
 * day; no interval: the whole day) and one of its rows does: one of the row's activities, on one of its
 * devices or locations (neither listed: anywhere), or one of its location-only activities at one of its
 * location-only locations. Answers the frame's mediums, or null.
 */
export function timeFrameMediums(frame: TimeFrame, e: NotifiedEvent): string[] | null {
  const minute = minuteOfWeek(e.timestampMs, e.timeZone);
  const day = DAYS[Math.floor(minute / 1440)]!;
  const ofDay = minute % 1440;
  if (frame.days?.length && !frame.days.includes(day)) return null;
  const start = frame.interval?.minuteOfDayStartInclusive ?? 0;
  const stop = frame.interval?.minuteOfDayStopExclusive ?? 1440;
  if (ofDay < start || ofDay >= stop) return null;
  const covered = (frame.rows ?? []).some((row) => {
    const onDevice =
      overlaps(row.activities, e.activities) &&
      (row.devices?.length || row.locations?.length
        ? (row.devices ?? []).some((d) => deviceOf(d) === e.deviceUuid) || (e.locationUuid !== null && (row.locations ?? []).includes(e.locationUuid))
        : true);
    const atLocation = overlaps(row.locationOnlyActivities, e.activities) && e.locationUuid !== null && (row.locationOnly ?? []).includes(e.locationUuid);
    return onDevice || atLocation;
  });
  return covered ? [...(frame.mediums ?? [])] : null;
}

/**
 * A V1 interval covers the event when its minute of the week is in [start, stop), its device and location
 * pass the filters (an empty filter passes everything), and one of its activities has mediums in the
 * activity map. Answers those mediums, or null.
 */
export function intervalMediums(interval: NotificationInterval, e: NotifiedEvent): string[] | null {
  const minute = minuteOfWeek(e.timestampMs, e.timeZone);
  if (minute < (interval.minuteOfWeekStart ?? 0) || minute >= (interval.minuteOfWeekStop ?? 10_080)) return null;
  if (!meets(interval.deviceFilterSet, e.deviceUuid) || !meets(interval.locationFilterSet, e.locationUuid)) return null;
  const mediums = e.activities.flatMap((a) => interval.activityTriggerMap?.[a] ?? []);
  return mediums.length > 0 ? mediums : null;
}

/** The mediums by which settings (V2 frames and V1 intervals) notify of the event: none, when nothing covers it. */
export function mediumsFor(frames: readonly TimeFrame[], intervals: readonly NotificationInterval[], e: NotifiedEvent): string[] {
  const all = [...frames.map((f) => timeFrameMediums(f, e)), ...intervals.map((i) => intervalMediums(i, e))];
  return [...new Set(all.flatMap((m) => m ?? []))];
}

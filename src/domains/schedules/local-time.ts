/**
 * Wall-clock dates and times of a time zone, as schedule exceptions speak them: a local date `YYYY-MM-DD` and
 * a local date-time `YYYY-MM-DDTHH:mm:ss`. Strings of one shape compare in time order, so ranges are plain
 * string comparisons. Read with Intl in the zone itself: daylight-saving changes need no arithmetic here.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(timeZone, format);
  }
  return format;
}

export const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
export const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** The local date-time (`YYYY-MM-DDTHH:mm:ss`) of an instant on the wall clock of the zone. */
export function localDateTime(instantMs: number, timeZone: string): string {
  const parts = formatFor(timeZone).formatToParts(new Date(instantMs));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${part('year')}-${part('month')}-${part('day')}T${String(Number(part('hour')) % 24).padStart(2, '0')}:${part('minute')}:${part('second')}`;
}

/** A local date-time with seconds, or null when it is not a real calendar date and time. */
export function normalLocalDateTime(text: string): string | null {
  const m = LOCAL_DATE_TIME.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '00'] = m;
  const utc = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59 || utc.getUTCDate() !== Number(d) || utc.getUTCMonth() !== Number(mo) - 1) return null;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}`;
}

/** Whether a `YYYY-MM-DD` is a real calendar date. */
export function isLocalDate(text: string): boolean {
  return LOCAL_DATE.test(text) && normalLocalDateTime(`${text}T00:00:00`) !== null;
}

/** The local date `days` after a local date. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Monday 0 .. Sunday 6, of a local date. */
export function weekdayOf(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  return (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7;
}

/** The local date-time read as if it were UTC, in milliseconds: the zone's offset is what separates it from the instant. */
function asUtc(local: string): number {
  const [date, time] = local.split('T');
  const [y, m, d] = date.split('-').map(Number);
  const [h, mi, s] = time.split(':').map(Number);
  return Date.UTC(y, m - 1, d, h, mi, s);
}

const offsetAt = (instantMs: number, timeZone: string) => asUtc(localDateTime(instantMs, timeZone)) - Math.floor(instantMs / 1000) * 1000;

/**
 * The instant at which the zone's wall clock reads the local date-time. In the autumn hour that occurs twice
 * it is the first; in the spring hour that never occurs it is as far past the jump as the time is into the gap.
 */
export function instantOf(local: string, timeZone: string): number {
  const target = asUtc(local);
  const before = offsetAt(target - 14 * 3_600_000, timeZone);
  const after = offsetAt(target + 14 * 3_600_000, timeZone);
  const matches = [...new Set([before, after])].map((offset) => target - offset).filter((t) => localDateTime(t, timeZone) === local);
  return matches.length > 0 ? Math.min(...matches) : target - before;
}

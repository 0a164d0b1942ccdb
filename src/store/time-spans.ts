import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';

/**
 * Typed fragments of the timeline reads (src/domains/timeline/): some devices' rows over a span of time, and the
 * grouping of a device's activity by buckets of time for its presence windows.
 */

/** Some devices of an organization over [fromMs, toMs). */
export interface DeviceSpan {
  orgUuid: string;
  deviceUuids: readonly string[];
  fromMs: number;
  toMs: number;
}

/** The columns a table is read by: its device and time columns, and the order its rows are answered in. */
export interface SpanColumns {
  device: string;
  time: string;
  /** The order of the answer: the columns of the table's (device, ..., time, id) index. */
  order: readonly string[];
  /**
   * Whether to name the organization (default true). device_events' index is (device, family, ts, id): named
   * there, the organization would lead SQLite to its (org, ts, id) index. Its devices are checked to be the
   * organization's before they are read.
   */
  byOrg?: boolean;
}

const compare = (a: unknown, b: unknown) => (a === b ? 0 : (a as string | number) < (b as string | number) ? -1 : 1);

/**
 * Some devices' rows in the span, at most `limit`, in the columns' order. The query names the devices and the
 * span but no order: SQLite, without statistics, takes an ORDER BY that its (org, time) index also satisfies
 * as a reason to walk the organization's rows instead of the device's. The rows are ordered here instead
 * (a timeline read refuses a span over its limit, so which rows a cut would keep never matters).
 */
export async function readDeviceSpan<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  span: DeviceSpan,
  columns: SpanColumns,
  limit: number,
): Promise<O[]> {
  if (span.deviceUuids.length === 0) return [];
  const devices =
    span.deviceUuids.length === 1
      ? sql<boolean>`${sql.ref(columns.device)} = ${span.deviceUuids[0]}`
      : sql<boolean>`${sql.ref(columns.device)} in (${sql.join(span.deviceUuids)})`;
  const rows = await qb
    .$if(columns.byOrg !== false, (q) => q.where(sql<boolean>`org_uuid = ${span.orgUuid}`))
    .where(devices)
    .where(sql<boolean>`${sql.ref(columns.time)} >= ${span.fromMs}`)
    .where(sql<boolean>`${sql.ref(columns.time)} < ${span.toMs}`)
    .limit(limit)
    .execute();
  const key = (row: O) => columns.order.map((c) => (row as Record<string, unknown>)[c]);
  return rows.sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return compare(ka[i], kb[i]);
    return 0;
  });
}

/** The bucket of a timestamp column. Timestamps are non-negative integers, so integer division is the floor on both dialects. */
export const bucketOf = (column: string, widthMs: number): RawBuilder<number> => sql<number>`${sql.ref(column)} / ${sql.lit(widthMs)}`;

/** Per bucket: the first start, the last start and the latest end. */
export const bucketColumns = (start: string, end: RawBuilder<number>) =>
  [sql<number>`min(${sql.ref(start)})`.as('start_ms'), sql<number>`max(${sql.ref(start)})`.as('last_start_ms'), sql<number>`max(${end})`.as('end_ms')] as const;

export interface BucketRow {
  start_ms: number | string;
  last_start_ms: number | string;
  end_ms: number | string;
}

/** The rows of a bucket query as activity buckets (PostgreSQL may answer aggregates as strings). */
export const toBuckets = (rows: readonly BucketRow[]) =>
  rows.map((r) => ({ startMs: Number(r.start_ms), lastStartMs: Number(r.last_start_ms), endMs: Number(r.end_ms) }));

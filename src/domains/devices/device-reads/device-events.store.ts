import { sql, type Kysely } from 'kysely';
import { bucketColumns, bucketOf, readDeviceSpan, toBuckets, type DeviceSpan } from '../../../store/time-spans.js';
import type { DB } from '../../../store/schema.js';
import { inValues } from '../../../store/value-list.js';
import type { DeviceEventsTable, DevicesTable, DeviceStatus } from '../tables.js';

type Db = Kysely<DB>;
export type DeviceEventRow = Omit<DeviceEventsTable, 'id'> & { id: number };

export async function insertDeviceEvent(db: Db, row: Omit<DeviceEventsTable, 'id'>): Promise<number> {
  const inserted = await db.insertInto('device_events').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(inserted.id);
}

export interface EventPage {
  deviceUuid: string;
  families: readonly string[];
  /** Only events at or after this instant (inclusive). */
  fromMs?: number;
  /** Only events before this instant (exclusive). */
  beforeMs?: number;
  states?: readonly string[];
  /** The cursor: only events older than this (ts, id). */
  olderThan?: { ts: number; id: number };
  limit: number;
}

/** One page of a device's events, newest first (ts then id descending: the order of the index). */
export async function listDeviceEvents(db: Db, page: EventPage): Promise<DeviceEventRow[]> {
  if (page.families.length === 0 || page.limit <= 0) return [];
  const rows = await db
    .selectFrom('device_events')
    .selectAll()
    .where('device_uuid', '=', page.deviceUuid)
    .where('family', 'in', page.families)
    .$if(page.fromMs !== undefined, (q) => q.where('ts', '>=', page.fromMs!))
    .$if(page.beforeMs !== undefined, (q) => q.where('ts', '<', page.beforeMs!))
    .$if(page.states !== undefined && page.states.length > 0, (q) => q.where('state', 'in', page.states!))
    .$if(page.olderThan !== undefined, (q) =>
      q.where((eb) => eb.or([eb('ts', '<', page.olderThan!.ts), eb.and([eb('ts', '=', page.olderThan!.ts), eb('id', '<', page.olderThan!.id)])])),
    )
    .orderBy('ts', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), ts: Number(r.ts) }));
}

/** Events of several devices in a time range, oldest first (for windows over an organization). */
export async function listEventsOfDevices(
  db: Db,
  q: { orgUuid: string; deviceUuids: readonly string[]; families: readonly string[]; fromMs: number; toMs: number; limit: number },
): Promise<DeviceEventRow[]> {
  if (q.deviceUuids.length === 0 || q.families.length === 0) return [];
  const rows = await db
    .selectFrom('device_events')
    .selectAll()
    .where('org_uuid', '=', q.orgUuid)
    .where(inValues(db, 'device_uuid', q.deviceUuids))
    .where('family', 'in', q.families)
    .where('ts', '>=', q.fromMs)
    .where('ts', '<', q.toMs)
    .orderBy('ts')
    .orderBy('id')
    .limit(q.limit)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), ts: Number(r.ts) }));
}

/**
 * Some devices' events of some families in [fromMs, toMs), ordered as the (device, family, ts, id) index is so
 * that the read seeks to each device's span: what the timeline reads (seekpoints) take, at most `limit`.
 */
export async function listDeviceEventsInSpan(db: Db, q: DeviceSpan & { families: readonly string[]; limit: number }): Promise<DeviceEventRow[]> {
  if (q.deviceUuids.length === 0 || q.families.length === 0) return [];
  const rows = await readDeviceSpan(
    db.selectFrom('device_events').selectAll().where('family', 'in', q.families),
    q,
    { device: 'device_uuid', time: 'ts', order: ['device_uuid', 'family', 'ts', 'id'], byOrg: false },
    q.limit,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), ts: Number(r.ts) }));
}

/**
 * A device's spans in an active state (a door open, a room occupied, a climate alert) in [fromMs, toMs),
 * grouped by buckets of `widthMs` (src/domains/timeline/windows.ts): each report holds until the device's next one
 * (the last until `toMs`), and the report before the span says what held when it began.
 */
export async function activeStateBuckets(
  db: Db,
  q: { deviceUuid: string; family: string; activeStates: readonly string[]; fromMs: number; toMs: number; widthMs: number },
) {
  const since = sql<number>`coalesce((select max(ts) from device_events where device_uuid = ${q.deviceUuid} and family = ${q.family} and ts < ${q.fromMs}), ${q.fromMs})`;
  const reports = db
    .selectFrom('device_events')
    .select(['ts', 'state', sql<number | null>`lead(ts) over (order by ts, id)`.as('next_ts')])
    .where('device_uuid', '=', q.deviceUuid)
    .where('family', '=', q.family)
    .where('ts', '>=', since)
    .where('ts', '<', q.toMs)
    .as('reports');
  const rows = await db
    .selectFrom(reports)
    .select(bucketColumns('ts', sql<number>`coalesce(next_ts, ${q.toMs})`))
    .where('state', 'in', q.activeStates)
    .groupBy(bucketOf('ts', q.widthMs))
    .execute();
  return toBuckets(rows);
}

/** The device's latest event of a family at or before an instant (what held when a window opens). */
export async function lastEventBefore(db: Db, deviceUuid: string, family: string, atMs: number): Promise<DeviceEventRow | undefined> {
  const row = await db
    .selectFrom('device_events')
    .selectAll()
    .where('device_uuid', '=', deviceUuid)
    .where('family', '=', family)
    .where('ts', '<=', atMs)
    .orderBy('ts', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row ? { ...row, id: Number(row.id), ts: Number(row.ts) } : undefined;
}

/**
 * Each device's latest event of a family at or before an instant, in one query (an index seek per device):
 * uuid -> event; a device with none is absent.
 */
export async function lastEventsBefore(db: Db, deviceUuids: readonly string[], family: string, atMs: number): Promise<Map<string, DeviceEventRow>> {
  if (deviceUuids.length === 0) return new Map();
  const rows = await db
    .selectFrom('device_events')
    .selectAll()
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('devices')
        .select((devices) =>
          devices
            .selectFrom('device_events as latest')
            .select('latest.id')
            .whereRef('latest.device_uuid', '=', 'devices.uuid')
            .where('latest.family', '=', family)
            .where('latest.ts', '<=', atMs)
            .orderBy('latest.ts', 'desc')
            .orderBy('latest.id', 'desc')
            .limit(1)
            .as('id'),
        )
        .where(inValues(db, 'devices.uuid', deviceUuids)),
    )
    .execute();
  return new Map(rows.map((r) => [r.device_uuid, { ...r, id: Number(r.id), ts: Number(r.ts) }]));
}

export async function updateDeviceEventRecord(db: Db, id: number, record: string): Promise<void> {
  await db.updateTable('device_events').set({ record }).where('id', '=', id).execute();
}

/** Sets what a device reports about itself: its attributes (state, config) and, when given, its connection. */
export async function updateDeviceReport(db: Db, uuid: string, change: { attributes: string; connectionStatus?: DeviceStatus; nowMs: number }): Promise<void> {
  const set: Partial<DevicesTable> = { attributes: change.attributes, updated_at_ms: change.nowMs };
  if (change.connectionStatus) set.connection_status = change.connectionStatus;
  await db.updateTable('devices').set(set).where('uuid', '=', uuid).execute();
}

/** Sets a device's name, location and attributes (its details). */
export async function updateDeviceDetails(
  db: Db,
  uuid: string,
  change: { name: string; locationUuid: string | null; attributes: string; nowMs: number },
): Promise<void> {
  await db
    .updateTable('devices')
    .set({ name: change.name, location_uuid: change.locationUuid, attributes: change.attributes, updated_at_ms: change.nowMs })
    .where('uuid', '=', uuid)
    .execute();
}

/** An organization's events of some families in [fromMs, toMs), newest first, strictly older than the cursor (over the (org, ts, id) index). */
export async function listOrgEvents(
  db: Db,
  q: { orgUuid: string; families: readonly string[]; fromMs: number | null; toMs: number | null; olderThan: { ts: number; id: number } | null; limit: number },
): Promise<DeviceEventRow[]> {
  if (q.families.length === 0) return [];
  const rows = await db
    .selectFrom('device_events')
    .selectAll()
    .where('org_uuid', '=', q.orgUuid)
    .where('family', 'in', q.families)
    .$if(q.fromMs !== null, (s) => s.where('ts', '>=', q.fromMs!))
    .$if(q.toMs !== null, (s) => s.where('ts', '<', q.toMs!))
    .$if(q.olderThan !== null, (s) => s.where((eb) => eb(eb.refTuple('ts', 'id'), '<', eb.tuple(q.olderThan!.ts, q.olderThan!.id))))
    .orderBy('ts', 'desc')
    .orderBy('id', 'desc')
    .limit(q.limit)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), ts: Number(r.ts) }));
}

/** When each of the devices last had an event of the family (one query, whatever their number): uuid -> epoch ms. */
export async function lastEventTimes(db: Db, deviceUuids: readonly string[], family: string): Promise<Map<string, number>> {
  if (deviceUuids.length === 0) return new Map();
  const rows = await db
    .selectFrom('device_events')
    .select(['device_uuid', (eb) => eb.fn.max('ts').as('ts')])
    .where('device_uuid', 'in', deviceUuids)
    .where('family', '=', family)
    .groupBy('device_uuid')
    .execute();
  return new Map(rows.map((r) => [r.device_uuid, Number(r.ts)]));
}

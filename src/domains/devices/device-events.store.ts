import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { DeviceEventsTable, DevicesTable, DeviceStatus } from './tables.js';

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
    .where('device_uuid', 'in', q.deviceUuids)
    .where('family', 'in', q.families)
    .where('ts', '>=', q.fromMs)
    .where('ts', '<', q.toMs)
    .orderBy('ts')
    .orderBy('id')
    .limit(q.limit)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), ts: Number(r.ts) }));
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

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { CrossingEventsTable, CrossingObject, RunningAverageResetsTable } from '../tables.js';

type Db = Kysely<DB>;

export type CrossingRow = Pick<CrossingEventsTable, 'device_uuid' | 'timestamp_ms' | 'ingress' | 'egress'>;

export async function insertCrossing(
  db: Db,
  row: Omit<CrossingEventsTable, 'id' | 'position_x' | 'position_y'> & { position_x: number; position_y: number },
): Promise<number> {
  const inserted = await db.insertInto('crossing_events').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** Crossings of one kind of object in [fromMs, toMs), oldest first, of the given cameras (every camera when null). */
export async function listCrossings(
  db: Db,
  orgUuid: string,
  object: CrossingObject,
  deviceUuids: readonly string[] | null,
  fromMs: number,
  toMs: number,
): Promise<CrossingRow[]> {
  if (deviceUuids !== null && deviceUuids.length === 0) return [];
  return db
    .selectFrom('crossing_events')
    .select(['device_uuid', 'timestamp_ms', 'ingress', 'egress'])
    .where('org_uuid', '=', orgUuid)
    .where('object', '=', object)
    .$if(deviceUuids !== null, (q) => q.where('device_uuid', 'in', deviceUuids!))
    .where('timestamp_ms', '>=', fromMs)
    .where('timestamp_ms', '<', toMs)
    .orderBy('timestamp_ms')
    .orderBy('id')
    .execute();
}

/** Counts added up per device and per slot (`slot` = floor(timestamp / slotMs)), for the count reports. */
export interface SlotCount {
  device_uuid: string;
  slot: number;
  ingress: number;
  egress: number;
}

/**
 * Crossings added up per camera and slot in [fromMs, toMs): the database does the adding (over the
 * (org, [device,] object, timestamp) indexes), so a report reads one row per camera and slot, however many
 * crossings there were. Timestamps are non-negative, so integer division is the floor on both dialects.
 */
export async function sumCrossingsBySlot(
  db: Db,
  orgUuid: string,
  object: CrossingObject,
  deviceUuids: readonly string[] | null,
  fromMs: number,
  toMs: number,
  slotMs: number,
): Promise<SlotCount[]> {
  if (deviceUuids !== null && deviceUuids.length === 0) return [];
  const slot = sql<number>`timestamp_ms / ${sql.lit(slotMs)}`;
  const rows = await db
    .selectFrom('crossing_events')
    .select((eb) => ['device_uuid', slot.as('slot'), eb.fn.sum<number>('ingress').as('ingress'), eb.fn.sum<number>('egress').as('egress')])
    .where('org_uuid', '=', orgUuid)
    .where('object', '=', object)
    .$if(deviceUuids !== null, (q) => q.where('device_uuid', 'in', deviceUuids!))
    .where('timestamp_ms', '>=', fromMs)
    .where('timestamp_ms', '<', toMs)
    .groupBy(['device_uuid', slot])
    .execute();
  return rows.map((r) => ({ device_uuid: r.device_uuid, slot: Number(r.slot), ingress: Number(r.ingress), egress: Number(r.egress) }));
}

/** Crossings added up per camera, slot and position: what a region (a polygon over the image) counts. */
export interface PositionedSlotCount extends SlotCount {
  x: number;
  y: number;
}

/**
 * Crossings added up per camera, slot and position in [fromMs, toMs), of the given cameras and inside the box
 * given (the regions' bounds, so that the caller tests only the points a region may hold). Crossings at one
 * place in one slot read as one row.
 */
export async function sumCrossingsBySlotAndPosition(
  db: Db,
  orgUuid: string,
  object: CrossingObject,
  deviceUuids: readonly string[],
  fromMs: number,
  toMs: number,
  slotMs: number,
  box: { minX: number; maxX: number; minY: number; maxY: number },
): Promise<PositionedSlotCount[]> {
  if (deviceUuids.length === 0) return [];
  const slot = sql<number>`timestamp_ms / ${sql.lit(slotMs)}`;
  const rows = await db
    .selectFrom('crossing_events')
    .select((eb) => [
      'device_uuid',
      slot.as('slot'),
      'position_x',
      'position_y',
      eb.fn.sum<number>('ingress').as('ingress'),
      eb.fn.sum<number>('egress').as('egress'),
    ])
    .where('org_uuid', '=', orgUuid)
    .where('object', '=', object)
    .where('device_uuid', 'in', deviceUuids)
    .where('timestamp_ms', '>=', fromMs)
    .where('timestamp_ms', '<', toMs)
    .where('position_x', '>=', box.minX)
    .where('position_x', '<=', box.maxX)
    .where('position_y', '>=', box.minY)
    .where('position_y', '<=', box.maxY)
    .groupBy(['device_uuid', slot, 'position_x', 'position_y'])
    .execute();
  return rows.map((r) => ({
    device_uuid: r.device_uuid,
    slot: Number(r.slot),
    x: Number(r.position_x),
    y: Number(r.position_y),
    ingress: Number(r.ingress),
    egress: Number(r.egress),
  }));
}

/** Policy alerts counted per device and slot in [fromMs, toMs) (dismissed ones too: a report counts what happened). */
export async function countAlertsBySlot(
  db: Db,
  orgUuid: string,
  deviceUuids: readonly string[] | null,
  fromMs: number,
  toMs: number,
  slotMs: number,
  activity: string | null = null,
): Promise<SlotCount[]> {
  if (deviceUuids !== null && deviceUuids.length === 0) return [];
  const slot = sql<number>`timestamp_ms / ${sql.lit(slotMs)}`;
  const rows = await db
    .selectFrom('policy_alerts')
    .select((eb) => ['device_uuid', slot.as('slot'), eb.fn.countAll<number>().as('n')])
    .where('org_uuid', '=', orgUuid)
    // triggers is a JSON array of activity names: one of them, quoted.
    .$if(activity !== null, (q) => q.where('triggers', 'like', `%"${activity}"%`))
    .$if(deviceUuids !== null, (q) => q.where('device_uuid', 'in', deviceUuids!))
    .where('timestamp_ms', '>=', fromMs)
    .where('timestamp_ms', '<', toMs)
    .groupBy(['device_uuid', slot])
    .execute();
  return rows.map((r) => ({ device_uuid: r.device_uuid, slot: Number(r.slot), ingress: Number(r.n), egress: 0 }));
}

export type CrossingEventRow = Pick<CrossingEventsTable, 'device_uuid' | 'object' | 'timestamp_ms' | 'ingress' | 'egress'> & { id: number };

/** A camera's crossings in [fromMs, toMs) oldest first (by timestamp, then id), from the row at the cursor on. */
export async function listCrossingRows(
  db: Db,
  orgUuid: string,
  object: CrossingObject,
  deviceUuids: readonly string[],
  fromMs: number,
  toMs: number,
  from: { timestampMs: number; id: number } | null,
  limit: number,
): Promise<CrossingEventRow[]> {
  if (deviceUuids.length === 0) return [];
  const rows = await db
    .selectFrom('crossing_events')
    .select(['id', 'device_uuid', 'object', 'timestamp_ms', 'ingress', 'egress'])
    .where('org_uuid', '=', orgUuid)
    .where('object', '=', object)
    .where('device_uuid', 'in', deviceUuids)
    .where('timestamp_ms', '>=', fromMs)
    .where('timestamp_ms', '<', toMs)
    .$if(from !== null, (q) => q.where((eb) => eb(eb.refTuple('timestamp_ms', 'id'), '>=', eb.tuple(from!.timestampMs, from!.id))))
    .orderBy('timestamp_ms')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** A camera's latest crossings of one kind of object, newest first. */
export async function latestCrossings(db: Db, orgUuid: string, deviceUuid: string, object: CrossingObject, limit: number): Promise<CrossingEventRow[]> {
  const rows = await db
    .selectFrom('crossing_events')
    .select(['id', 'device_uuid', 'object', 'timestamp_ms', 'ingress', 'egress'])
    .where('org_uuid', '=', orgUuid)
    .where('device_uuid', '=', deviceUuid)
    .where('object', '=', object)
    .orderBy('timestamp_ms', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), timestamp_ms: Number(r.timestamp_ms) }));
}

export async function findRunningAverageReset(db: Db, orgUuid: string, scope: string, targetUuid: string): Promise<number | null> {
  const row = await db
    .selectFrom('running_average_resets')
    .select('reset_at_ms')
    .where('org_uuid', '=', orgUuid)
    .where('scope', '=', scope)
    .where('target_uuid', '=', targetUuid)
    .executeTakeFirst();
  return row ? Number(row.reset_at_ms) : null;
}

export async function saveRunningAverageReset(db: Db, row: RunningAverageResetsTable): Promise<void> {
  await db
    .insertInto('running_average_resets')
    .values(row)
    .onConflict((oc) => oc.columns(['org_uuid', 'scope', 'target_uuid']).doUpdateSet({ reset_at_ms: row.reset_at_ms }))
    .execute();
}

/** The organization's crossings of one kind of object in [fromMs, toMs) oldest first, strictly after the cursor (over the (org, object, timestamp) index). */
export async function pageOrgCrossings(
  db: Db,
  orgUuid: string,
  object: CrossingObject,
  fromMs: number | null,
  toMs: number | null,
  after: { timestampMs: number; id: number } | null,
  limit: number,
): Promise<CrossingEventRow[]> {
  const rows = await db
    .selectFrom('crossing_events')
    .select(['id', 'device_uuid', 'object', 'timestamp_ms', 'ingress', 'egress'])
    .where('org_uuid', '=', orgUuid)
    .where('object', '=', object)
    .$if(fromMs !== null, (q) => q.where('timestamp_ms', '>=', fromMs!))
    .$if(toMs !== null, (q) => q.where('timestamp_ms', '<', toMs!))
    .$if(after !== null, (q) => q.where((eb) => eb(eb.refTuple('timestamp_ms', 'id'), '>', eb.tuple(after!.timestampMs, after!.id))))
    .orderBy('timestamp_ms')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), timestamp_ms: Number(r.timestamp_ms) }));
}

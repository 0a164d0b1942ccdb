import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { CrossingEventsTable, CrossingObject } from './tables.js';

type Db = Kysely<DB>;

export type CrossingRow = Pick<CrossingEventsTable, 'device_uuid' | 'timestamp_ms' | 'ingress' | 'egress'>;

export async function insertCrossing(db: Db, row: Omit<CrossingEventsTable, 'id'>): Promise<number> {
  const inserted = await db.insertInto('crossing_events').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(inserted.id);
}

/** Crossings of one kind of object in [fromMs, toMs), oldest first, of the given cameras (every camera when null). */
export async function listCrossings(db: Db, orgUuid: string, object: CrossingObject, deviceUuids: readonly string[] | null, fromMs: number, toMs: number): Promise<CrossingRow[]> {
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

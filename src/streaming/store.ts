import type { Kysely } from 'kysely';
import type { ChangeEvent, ChangeType } from '../bus/events.js';
import { fromJson } from '../store/columns.js';
import type { DB } from '../store/schema.js';

/** The id of the newest change in the durable change log; 0 when it is empty. */
export async function latestChangeEventId(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('change_events').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** The committed changes with `afterId < id <= upToId`, oldest first: read-through for ids the bus skipped. */
export async function changeEventsBetween(db: Kysely<DB>, afterId: number, upToId: number): Promise<ChangeEvent[]> {
  const rows = await db
    .selectFrom('change_events')
    .selectAll()
    .where('id', '>', afterId)
    .where('id', '<=', upToId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    orgUuid: r.org_uuid,
    entity: r.entity,
    entityUuid: r.entity_uuid,
    type: r.type as ChangeType,
    deviceUuid: r.device_uuid,
    timestampMs: Number(r.timestamp_ms),
    update: fromJson(r.payload),
  }));
}

import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { GuestActivitiesTable, GuestsTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertGuest(db: Db, row: GuestsTable): Promise<void> {
  await db.insertInto('guests').values(row).execute();
}

export async function updateGuest(db: Db, orgUuid: string, email: string, patch: Pick<GuestsTable, 'location_uuid' | 'data'>): Promise<void> {
  await db.updateTable('guests').set(patch).where('org_uuid', '=', orgUuid).where('email', '=', email).execute();
}

export async function deleteGuest(db: Db, orgUuid: string, email: string): Promise<void> {
  await db.deleteFrom('guests').where('org_uuid', '=', orgUuid).where('email', '=', email).execute();
}

export async function findGuest(db: Db, orgUuid: string, email: string): Promise<GuestsTable | undefined> {
  return db.selectFrom('guests').selectAll().where('org_uuid', '=', orgUuid).where('email', '=', email).executeTakeFirst();
}

/** The guest expected at a location under the e-mail address, whatever the organization: how a kiosk there finds one. */
export async function findGuestAtLocation(db: Db, locationUuid: string, email: string): Promise<GuestsTable | undefined> {
  return db.selectFrom('guests').selectAll().where('location_uuid', '=', locationUuid).where('email', '=', email).executeTakeFirst();
}

export async function countGuestsAt(db: Db, orgUuid: string, locationUuid: string): Promise<number> {
  const row = await db
    .selectFrom('guests')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('org_uuid', '=', orgUuid)
    .where('location_uuid', '=', locationUuid)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function listGuests(db: Db, orgUuid: string): Promise<GuestsTable[]> {
  return db.selectFrom('guests').selectAll().where('org_uuid', '=', orgUuid).orderBy('email').execute();
}

export async function insertActivity(db: Db, row: Omit<GuestActivitiesTable, 'id'>): Promise<void> {
  await db.insertInto('guest_activities').values(row).execute();
}

/** The organization's guest activity newest first, narrowed to a location or a guest, inside the exclusive bounds. */
export async function listActivities(
  db: Db,
  orgUuid: string,
  q: { locationUuid?: string; email?: string; afterMs?: number; beforeMs?: number; limit: number },
): Promise<Array<{ payload: string }>> {
  let query = db.selectFrom('guest_activities').select('payload').where('org_uuid', '=', orgUuid);
  if (q.locationUuid !== undefined) query = query.where('location_uuid', '=', q.locationUuid);
  if (q.email !== undefined) query = query.where('email', '=', q.email);
  if (q.afterMs !== undefined) query = query.where('timestamp_ms', '>', q.afterMs);
  if (q.beforeMs !== undefined) query = query.where('timestamp_ms', '<', q.beforeMs);
  return query.orderBy('timestamp_ms', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
}

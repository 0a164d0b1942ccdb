import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { GuestPassesTable } from '../access-lockdown.tables.js';

type Db = Kysely<DB>;

export async function insertPass(db: Db, row: GuestPassesTable, doorUuids: readonly string[]): Promise<void> {
  await db.insertInto('guest_passes').values(row).execute();
  if (doorUuids.length > 0) {
    await db
      .insertInto('guest_pass_doors')
      .values(doorUuids.map((door_uuid) => ({ pass_uuid: row.uuid, door_uuid, org_uuid: row.org_uuid })))
      .execute();
  }
}

export async function updatePass(db: Db, orgUuid: string, uuid: string, patch: Pick<GuestPassesTable, 'lifecycle' | 'data' | 'updated_at_ms'>): Promise<void> {
  await db.updateTable('guest_passes').set(patch).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function deletePass(db: Db, orgUuid: string, uuid: string): Promise<void> {
  await db.deleteFrom('guest_passes').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

/** Every pass that names a door. */
export async function passesAtDoor(db: Db, orgUuid: string, doorUuid: string): Promise<GuestPassesTable[]> {
  return db
    .selectFrom('guest_pass_doors as d')
    .innerJoin('guest_passes as p', 'p.uuid', 'd.pass_uuid')
    .selectAll('p')
    .where('d.org_uuid', '=', orgUuid)
    .where('d.door_uuid', '=', doorUuid)
    .execute();
}

export async function findPass(db: Db, orgUuid: string, uuid: string): Promise<GuestPassesTable | undefined> {
  return db.selectFrom('guest_passes').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

export async function findPassByDigest(db: Db, orgUuid: string, digest: string): Promise<GuestPassesTable | undefined> {
  return db.selectFrom('guest_passes').selectAll().where('org_uuid', '=', orgUuid).where('value_digest', '=', digest).executeTakeFirst();
}

/** A page of the organization's passes by start time (then uuid), inside the exclusive bounds on the start. */
export async function pagePasses(
  db: Db,
  orgUuid: string,
  q: { startAfterMs?: number; startBeforeMs?: number; after: { startMs: number; uuid: string } | null; limit: number },
): Promise<GuestPassesTable[]> {
  let query = db.selectFrom('guest_passes').selectAll().where('org_uuid', '=', orgUuid);
  if (q.startAfterMs !== undefined) query = query.where('pass_start_ms', '>', q.startAfterMs);
  if (q.startBeforeMs !== undefined) query = query.where('pass_start_ms', '<', q.startBeforeMs);
  const key = q.after;
  if (key)
    query = query.where((eb) => eb.or([eb('pass_start_ms', '>', key.startMs), eb.and([eb('pass_start_ms', '=', key.startMs), eb('uuid', '>', key.uuid)])]));
  return query.orderBy('pass_start_ms').orderBy('uuid').limit(q.limit).execute();
}

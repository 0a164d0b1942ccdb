import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { VideoWallsTable } from '../tables.js';

type Db = Kysely<DB>;

export async function insertWall(db: Db, row: VideoWallsTable): Promise<void> {
  await db.insertInto('video_walls').values(row).execute();
}

export async function findWall(db: Db, orgUuid: string, uuid: string): Promise<VideoWallsTable | undefined> {
  return db.selectFrom('video_walls').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

/** The walls a user sees: its own and every shared one, by name. */
export async function listVisibleWalls(db: Db, orgUuid: string, userUuid: string | null): Promise<VideoWallsTable[]> {
  return db
    .selectFrom('video_walls')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where((eb) => (userUuid === null ? eb('shared', '=', 1) : eb.or([eb('shared', '=', 1), eb('owner_user_uuid', '=', userUuid)])))
    .orderBy('display_name')
    .orderBy('uuid')
    .execute();
}

export async function updateWall(
  db: Db,
  uuid: string,
  changes: Partial<Omit<VideoWallsTable, 'uuid' | 'org_uuid' | 'owner_user_uuid' | 'created_at_ms'>>,
): Promise<void> {
  await db.updateTable('video_walls').set(changes).where('uuid', '=', uuid).execute();
}

export async function deleteWall(db: Db, uuid: string): Promise<void> {
  await db.deleteFrom('video_walls').where('uuid', '=', uuid).execute();
}

/** The organization's walls whose device list may name the device (a text match, which the caller narrows). */
export async function listWallsMentioning(db: Db, orgUuid: string, deviceUuid: string): Promise<VideoWallsTable[]> {
  return db.selectFrom('video_walls').selectAll().where('org_uuid', '=', orgUuid).where('device_list', 'like', `%${deviceUuid}%`).orderBy('uuid').execute();
}

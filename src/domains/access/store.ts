import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { DoorsTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertDoor(db: Db, row: DoorsTable): Promise<void> {
  await db.insertInto('doors').values(row).execute();
}

export async function insertDoorCameras(db: Db, orgUuid: string, doorUuid: string, cameraUuids: readonly string[]): Promise<void> {
  if (cameraUuids.length === 0) return;
  await db
    .insertInto('door_cameras')
    .values(cameraUuids.map((camera_uuid) => ({ door_uuid: doorUuid, camera_uuid, org_uuid: orgUuid })))
    .execute();
}

export async function insertDoorAccess(db: Db, orgUuid: string, doorUuid: string, userUuids: readonly string[]): Promise<void> {
  if (userUuids.length === 0) return;
  await db
    .insertInto('door_access')
    .values(userUuids.map((user_uuid) => ({ door_uuid: doorUuid, user_uuid, org_uuid: orgUuid })))
    .execute();
}

export async function findDoor(db: Db, orgUuid: string, uuid: string): Promise<DoorsTable | undefined> {
  return db.selectFrom('doors').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

export async function listDoorCameraUuids(db: Db, doorUuid: string): Promise<string[]> {
  const rows = await db.selectFrom('door_cameras').select('camera_uuid').where('door_uuid', '=', doorUuid).orderBy('camera_uuid').execute();
  return rows.map((r) => r.camera_uuid);
}

export async function listDoorUserUuids(db: Db, doorUuid: string): Promise<string[]> {
  const rows = await db.selectFrom('door_access').select('user_uuid').where('door_uuid', '=', doorUuid).orderBy('user_uuid').execute();
  return rows.map((r) => r.user_uuid);
}

import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { DoorsTable, LocationLockdownsTable } from './tables.js';

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

/** A door by uuid alone: for the simulator, which names a door the way a device knows it, without an organization. */
export async function findDoorByUuid(db: Db, uuid: string): Promise<DoorsTable | undefined> {
  return db.selectFrom('doors').selectAll().where('uuid', '=', uuid).executeTakeFirst();
}

/** One page of an organization's doors by (name, uuid), after the given key. */
export async function listDoorsPage(db: Db, orgUuid: string, after: { name: string; uuid: string } | null, limit: number): Promise<DoorsTable[]> {
  let query = db.selectFrom('doors').selectAll().where('org_uuid', '=', orgUuid);
  if (after) query = query.where((eb) => eb.or([eb('name', '>', after.name), eb.and([eb('name', '=', after.name), eb('uuid', '>', after.uuid)])]));
  return query.orderBy('name').orderBy('uuid').limit(limit).execute();
}

export async function listUnlockedDoorsAtLocation(db: Db, orgUuid: string, locationUuid: string): Promise<DoorsTable[]> {
  return db
    .selectFrom('doors')
    .selectAll()
    .where('location_uuid', '=', locationUuid)
    .where('org_uuid', '=', orgUuid)
    .where('lock_state', '=', 'UNLOCKED')
    .orderBy('uuid')
    .execute();
}

export type DoorStateColumns = Partial<Pick<DoorsTable, 'position' | 'lock_state' | 'controller_online' | 'relock_at_ms'>> & { updated_at_ms: number };

export async function updateDoorState(db: Db, orgUuid: string, uuid: string, patch: DoorStateColumns): Promise<void> {
  await db.updateTable('doors').set(patch).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

/**
 * Locks a door whose relock is due at exactly `dueAtMs`; false when another instance (or a newer unlock)
 * got there first, so that a relock happens once whatever the number of instances armed for it.
 */
export async function relockIfDue(db: Db, uuid: string, dueAtMs: number, nowMs: number): Promise<boolean> {
  const result = await db
    .updateTable('doors')
    .set({ lock_state: 'LOCKED', relock_at_ms: null, updated_at_ms: nowMs })
    .where('uuid', '=', uuid)
    .where('relock_at_ms', '=', dueAtMs)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function listPendingRelocks(db: Db): Promise<Array<{ uuid: string; org_uuid: string; relock_at_ms: number }>> {
  const rows = await db.selectFrom('doors').select(['uuid', 'org_uuid', 'relock_at_ms']).where('relock_at_ms', 'is not', null).execute();
  return rows.map((r) => ({ ...r, relock_at_ms: Number(r.relock_at_ms) }));
}

export async function listDoorCameraUuids(db: Db, doorUuid: string): Promise<string[]> {
  const rows = await db.selectFrom('door_cameras').select('camera_uuid').where('door_uuid', '=', doorUuid).orderBy('camera_uuid').execute();
  return rows.map((r) => r.camera_uuid);
}

/** The cameras of each of the doors, in one query: door uuid -> camera uuids (doors without cameras are absent). */
export async function listCameraUuidsOfDoors(db: Db, doorUuids: readonly string[]): Promise<Map<string, string[]>> {
  const byDoor = new Map<string, string[]>();
  if (doorUuids.length === 0) return byDoor;
  const rows = await db.selectFrom('door_cameras').select(['door_uuid', 'camera_uuid']).where('door_uuid', 'in', doorUuids).orderBy('camera_uuid').execute();
  for (const r of rows) byDoor.set(r.door_uuid, [...(byDoor.get(r.door_uuid) ?? []), r.camera_uuid]);
  return byDoor;
}

/** The names of the organization's doors whose access rules follow the schedule, by name. */
export async function listDoorNamesUsingSchedule(db: Db, orgUuid: string, scheduleUuid: string): Promise<string[]> {
  const rows = await db.selectFrom('doors').select('name').where('schedule_uuid', '=', scheduleUuid).where('org_uuid', '=', orgUuid).orderBy('name').execute();
  return rows.map((r) => r.name);
}

export async function listDoorUserUuids(db: Db, doorUuid: string): Promise<string[]> {
  const rows = await db.selectFrom('door_access').select('user_uuid').where('door_uuid', '=', doorUuid).orderBy('user_uuid').execute();
  return rows.map((r) => r.user_uuid);
}

export async function hasDoorAccess(db: Db, doorUuid: string, userUuid: string): Promise<boolean> {
  const row = await db.selectFrom('door_access').select('user_uuid').where('door_uuid', '=', doorUuid).where('user_uuid', '=', userUuid).executeTakeFirst();
  return row !== undefined;
}

export async function findLockdown(db: Db, orgUuid: string, locationUuid: string): Promise<LocationLockdownsTable | undefined> {
  return db.selectFrom('location_lockdowns').selectAll().where('location_uuid', '=', locationUuid).where('org_uuid', '=', orgUuid).executeTakeFirst();
}

export async function insertLockdown(db: Db, row: LocationLockdownsTable): Promise<void> {
  await db.insertInto('location_lockdowns').values(row).execute();
}

export async function deleteLockdown(db: Db, orgUuid: string, locationUuid: string): Promise<void> {
  await db.deleteFrom('location_lockdowns').where('location_uuid', '=', locationUuid).where('org_uuid', '=', orgUuid).execute();
}

export async function countDoorsAt(db: Db, locationUuid: string): Promise<number> {
  const row = await db
    .selectFrom('doors')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('location_uuid', '=', locationUuid)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

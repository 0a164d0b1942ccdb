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

export async function findDoor(db: Db, orgUuid: string, uuid: string): Promise<DoorsTable | undefined> {
  return db.selectFrom('doors').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

/** The organization's doors among the uuids (unknown and foreign ones are left out), by uuid. */
export async function findDoors(db: Db, orgUuid: string, uuids: readonly string[]): Promise<DoorsTable[]> {
  if (uuids.length === 0) return [];
  return db.selectFrom('doors').selectAll().where('org_uuid', '=', orgUuid).where('uuid', 'in', uuids).orderBy('uuid').execute();
}

/** A door by uuid alone: for the simulator, which names a door the way a device knows it, without an organization. */
export async function findDoorByUuid(db: Db, uuid: string): Promise<DoorsTable | undefined> {
  return db.selectFrom('doors').selectAll().where('uuid', '=', uuid).executeTakeFirst();
}

export async function listDoorNames(db: Db, orgUuid: string): Promise<Array<{ uuid: string; name: string }>> {
  return db.selectFrom('doors').select(['uuid', 'name']).where('org_uuid', '=', orgUuid).orderBy('created_at_ms').orderBy('uuid').execute();
}

export async function listDoorsAtLocation(db: Db, orgUuid: string, locationUuid: string): Promise<DoorsTable[]> {
  return db.selectFrom('doors').selectAll().where('location_uuid', '=', locationUuid).where('org_uuid', '=', orgUuid).orderBy('uuid').execute();
}

export type DoorStateColumns = Partial<
  Pick<
    DoorsTable,
    | 'position'
    | 'lock_state'
    | 'controller_online'
    | 'relock_at_ms'
    | 'held_source'
    | 'state_check_at_ms'
    | 'access_state'
    | 'access_state_source'
    | 'access_state_at_ms'
  >
> & {
  updated_at_ms: number;
};

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
    .set({ lock_state: 'LOCKED', relock_at_ms: null, held_source: null, updated_at_ms: nowMs })
    .where('uuid', '=', uuid)
    .where('relock_at_ms', '=', dueAtMs)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Claims a door's state check due at exactly `dueAtMs`; false when another instance (or a newer change) got there first. */
export async function claimStateCheck(db: Db, uuid: string, dueAtMs: number): Promise<boolean> {
  const result = await db
    .updateTable('doors')
    .set({ state_check_at_ms: null })
    .where('uuid', '=', uuid)
    .where('state_check_at_ms', '=', dueAtMs)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function listPendingStateChecks(db: Db): Promise<Array<{ uuid: string; org_uuid: string; state_check_at_ms: number }>> {
  const rows = await db.selectFrom('doors').select(['uuid', 'org_uuid', 'state_check_at_ms']).where('state_check_at_ms', 'is not', null).execute();
  return rows.map((r) => ({ ...r, state_check_at_ms: Number(r.state_check_at_ms) }));
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

/** The names of the organization's doors whose access rules or state follow the schedule, by name. */
export async function listDoorsUsingSchedule(
  db: Db,
  orgUuid: string,
  scheduleUuid: string,
): Promise<Array<{ uuid: string; name: string; location_uuid: string | null }>> {
  return db
    .selectFrom('doors')
    .select(['uuid', 'name', 'location_uuid'])
    .where((eb) =>
      eb.or([eb('schedule_uuid', '=', scheduleUuid), eb('unlocked_schedule_uuid', '=', scheduleUuid), eb('controlled_schedule_uuid', '=', scheduleUuid)]),
    )
    .where('org_uuid', '=', orgUuid)
    .orderBy('name')
    .execute();
}

export async function countDoorsAt(db: Db, locationUuid: string): Promise<number> {
  const row = await db
    .selectFrom('doors')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('location_uuid', '=', locationUuid)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The organization's doors among the uuids, in one query (unknown and foreign ones are left out). */
export async function findDoorsByUuids(db: Db, orgUuid: string, uuids: readonly string[]): Promise<DoorsTable[]> {
  if (uuids.length === 0) return [];
  return db.selectFrom('doors').selectAll().where('org_uuid', '=', orgUuid).where('uuid', 'in', uuids).execute();
}

/** The organization's doors a controller drives (over the doors (controller) index), by uuid. */
export async function listDoorUuidsOfController(db: Db, orgUuid: string, controllerUuid: string): Promise<string[]> {
  const rows = await db
    .selectFrom('doors')
    .select('uuid')
    .where('controller_device_uuid', '=', controllerUuid)
    .where('org_uuid', '=', orgUuid)
    .orderBy('uuid')
    .execute();
  return rows.map((r) => r.uuid);
}

/** The organization's doors the device drives or films (its controller, or one of its cameras), by uuid. */
export async function listDoorUuidsNamingDevice(db: Db, orgUuid: string, deviceUuid: string): Promise<string[]> {
  const rows = await db
    .selectFrom('doors')
    .select('uuid')
    .where('org_uuid', '=', orgUuid)
    .where((eb) =>
      eb.or([
        eb('controller_device_uuid', '=', deviceUuid),
        eb('uuid', 'in', eb.selectFrom('door_cameras').select('door_uuid').where('camera_uuid', '=', deviceUuid)),
      ]),
    )
    .orderBy('uuid')
    .execute();
  return rows.map((r) => r.uuid);
}

/** Takes a device off the doors: out of their cameras, and no longer their controller. */
export async function removeDeviceFromDoors(db: Db, orgUuid: string, deviceUuid: string, nowMs: number): Promise<void> {
  await db.deleteFrom('door_cameras').where('org_uuid', '=', orgUuid).where('camera_uuid', '=', deviceUuid).execute();
  await db
    .updateTable('doors')
    .set({ controller_device_uuid: null, controller_online: 0, updated_at_ms: nowMs })
    .where('org_uuid', '=', orgUuid)
    .where('controller_device_uuid', '=', deviceUuid)
    .execute();
}

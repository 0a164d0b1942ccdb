import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { DoorsTable } from '../tables.js';

type Db = Kysely<DB>;

/** What updateAccessControlledDoor may change of a door's row. */
export type DoorConfigColumns = Partial<
  Pick<DoorsTable, 'name' | 'schedule_uuid' | 'unlock_duration_ms' | 'default_state' | 'unlocked_schedule_uuid' | 'controlled_schedule_uuid'>
> & { updated_at_ms: number };

export async function updateDoorConfig(db: Db, orgUuid: string, uuid: string, patch: DoorConfigColumns): Promise<void> {
  await db.updateTable('doors').set(patch).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function replaceDoorCameras(db: Db, orgUuid: string, doorUuid: string, cameraUuids: readonly string[]): Promise<void> {
  await db.deleteFrom('door_cameras').where('door_uuid', '=', doorUuid).execute();
  if (cameraUuids.length === 0) return;
  await db
    .insertInto('door_cameras')
    .values(cameraUuids.map((camera_uuid) => ({ door_uuid: doorUuid, camera_uuid, org_uuid: orgUuid })))
    .execute();
}

/** Deletes a door; its cameras, access list, events, labels and exception and pass links go with it (cascades). */
export async function deleteDoor(db: Db, orgUuid: string, uuid: string): Promise<void> {
  await db.deleteFrom('doors').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

/** One page of an organization's doors by (name, uuid), narrowed to a location or a controller, after the given key. */
export async function pageDoors(
  db: Db,
  orgUuid: string,
  q: { locationUuid?: string; controllerUuid?: string; after: { name: string; uuid: string } | null; limit: number },
): Promise<DoorsTable[]> {
  let query = db.selectFrom('doors').selectAll().where('org_uuid', '=', orgUuid);
  if (q.locationUuid !== undefined) query = query.where('location_uuid', '=', q.locationUuid);
  if (q.controllerUuid !== undefined) query = query.where('controller_device_uuid', '=', q.controllerUuid);
  const after = q.after;
  if (after) query = query.where((eb) => eb.or([eb('name', '>', after.name), eb.and([eb('name', '=', after.name), eb('uuid', '>', after.uuid)])]));
  return query.orderBy('name').orderBy('uuid').limit(q.limit).execute();
}

import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { DoorLabelsTable } from '../grants/tables.js';

type Db = Kysely<DB>;

export async function listLabelsOfDoor(db: Db, doorUuid: string): Promise<string[]> {
  const rows = await db.selectFrom('door_labels').select('label').where('door_uuid', '=', doorUuid).orderBy('label').execute();
  return rows.map((r) => r.label);
}

/** Every door label of the organization, by door then label. */
export async function listOrgDoorLabels(db: Db, orgUuid: string): Promise<Array<Pick<DoorLabelsTable, 'door_uuid' | 'label'>>> {
  return db.selectFrom('door_labels').select(['door_uuid', 'label']).where('org_uuid', '=', orgUuid).orderBy('door_uuid').orderBy('label').execute();
}

export async function insertDoorLabels(db: Db, rows: readonly DoorLabelsTable[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('door_labels')
    .values([...rows])
    .execute();
}

export async function deleteDoorLabel(db: Db, doorUuid: string, label: string): Promise<void> {
  await db.deleteFrom('door_labels').where('door_uuid', '=', doorUuid).where('label', '=', label).execute();
}

import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { SchedulesTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertSchedule(db: Db, row: SchedulesTable): Promise<void> {
  await db.insertInto('schedules').values(row).execute();
}

export async function findSchedule(db: Db, orgUuid: string, uuid: string): Promise<SchedulesTable | undefined> {
  return db.selectFrom('schedules').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

export async function listSchedules(db: Db, orgUuid: string): Promise<SchedulesTable[]> {
  return db.selectFrom('schedules').selectAll().where('org_uuid', '=', orgUuid).orderBy('name').orderBy('uuid').execute();
}

export async function updateSchedule(db: Db, uuid: string, changes: Partial<Omit<SchedulesTable, 'uuid' | 'org_uuid' | 'created_at_ms'>>): Promise<void> {
  await db.updateTable('schedules').set(changes).where('uuid', '=', uuid).execute();
}

export async function deleteSchedule(db: Db, uuid: string): Promise<void> {
  await db.deleteFrom('schedules').where('uuid', '=', uuid).execute();
}

/** The organization's schedules among the uuids, in one query (the badge decision reads its grants' schedules so). */
export async function findSchedulesByUuids(db: Db, orgUuid: string, uuids: readonly string[]): Promise<SchedulesTable[]> {
  if (uuids.length === 0) return [];
  return db.selectFrom('schedules').selectAll().where('org_uuid', '=', orgUuid).where('uuid', 'in', uuids).execute();
}

import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { DoorScheduleExceptionsTable } from '../access-lockdown.tables.js';

type Db = Kysely<DB>;

/** Bounds on an exception's first and last dates (YYYY-MM-DD, inclusive); any may be absent. */
export interface ExceptionDateFilter {
  startFrom?: string;
  startTo?: string;
  endFrom?: string;
  endTo?: string;
}

export async function insertException(db: Db, row: DoorScheduleExceptionsTable): Promise<void> {
  await db.insertInto('door_schedule_exceptions').values(row).execute();
}

export async function updateException(
  db: Db,
  orgUuid: string,
  uuid: string,
  patch: Omit<DoorScheduleExceptionsTable, 'uuid' | 'org_uuid' | 'created_at_ms'>,
): Promise<void> {
  await db.updateTable('door_schedule_exceptions').set(patch).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function deleteException(db: Db, orgUuid: string, uuid: string): Promise<void> {
  await db.deleteFrom('door_schedule_exceptions').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

/** Replaces the doors an exception covers (each row carries the exception's dates, for the per-door lookup). */
export async function setExceptionDoors(
  db: Db,
  orgUuid: string,
  row: Pick<DoorScheduleExceptionsTable, 'uuid' | 'local_start_date' | 'local_end_date'>,
  doorUuids: readonly string[],
): Promise<void> {
  await db.deleteFrom('door_schedule_exception_doors').where('exception_uuid', '=', row.uuid).execute();
  if (doorUuids.length === 0) return;
  await db
    .insertInto('door_schedule_exception_doors')
    .values(
      doorUuids.map((door_uuid) => ({
        exception_uuid: row.uuid,
        door_uuid,
        org_uuid: orgUuid,
        local_start_date: row.local_start_date,
        local_end_date: row.local_end_date,
      })),
    )
    .execute();
}

export async function findException(db: Db, orgUuid: string, uuid: string): Promise<DoorScheduleExceptionsTable | undefined> {
  return db.selectFrom('door_schedule_exceptions').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

/**
 * The organization's exceptions by first date, narrowed by the date filter and, when given, to those covering a
 * door or standing at a location (named by the exception or holding one of its doors).
 */
export async function listExceptions(
  db: Db,
  orgUuid: string,
  where: { doorUuid?: string; locationUuid?: string; dates: ExceptionDateFilter },
): Promise<DoorScheduleExceptionsTable[]> {
  let query = db.selectFrom('door_schedule_exceptions as e').selectAll('e').where('e.org_uuid', '=', orgUuid);
  const { doorUuid, locationUuid, dates } = where;
  if (doorUuid !== undefined) {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('door_schedule_exception_doors as d')
          .select('d.door_uuid')
          .whereRef('d.exception_uuid', '=', 'e.uuid')
          .where('d.door_uuid', '=', doorUuid),
      ),
    );
  }
  if (locationUuid !== undefined) {
    query = query.where((eb) =>
      eb.or([
        eb('e.location_uuid', '=', locationUuid),
        eb.exists(
          eb
            .selectFrom('door_schedule_exception_doors as d')
            .innerJoin('doors', 'doors.uuid', 'd.door_uuid')
            .select('d.door_uuid')
            .whereRef('d.exception_uuid', '=', 'e.uuid')
            .where('doors.location_uuid', '=', locationUuid),
        ),
      ]),
    );
  }
  if (dates.startFrom) query = query.where('e.local_start_date', '>=', dates.startFrom);
  if (dates.startTo) query = query.where('e.local_start_date', '<=', dates.startTo);
  if (dates.endFrom) query = query.where('e.local_end_date', '>=', dates.endFrom);
  if (dates.endTo) query = query.where('e.local_end_date', '<=', dates.endTo);
  return query.orderBy('e.local_start_date').orderBy('e.uuid').execute();
}

/** The exceptions of a door that overlap the local dates [from, to]: what the door's state needs around an instant. */
export async function exceptionsOfDoorBetween(db: Db, doorUuid: string, fromDate: string, toDate: string): Promise<DoorScheduleExceptionsTable[]> {
  return db
    .selectFrom('door_schedule_exception_doors as d')
    .innerJoin('door_schedule_exceptions as e', 'e.uuid', 'd.exception_uuid')
    .selectAll('e')
    .where('d.door_uuid', '=', doorUuid)
    .where('d.local_end_date', '>=', fromDate)
    .where('d.local_start_date', '<=', toDate)
    .orderBy('e.created_at_ms')
    .orderBy('e.uuid')
    .execute();
}

/** Every exception that covers a door. */
export async function exceptionsOfDoor(db: Db, orgUuid: string, doorUuid: string): Promise<DoorScheduleExceptionsTable[]> {
  return db
    .selectFrom('door_schedule_exception_doors as d')
    .innerJoin('door_schedule_exceptions as e', 'e.uuid', 'd.exception_uuid')
    .selectAll('e')
    .where('d.org_uuid', '=', orgUuid)
    .where('d.door_uuid', '=', doorUuid)
    .execute();
}

/** The doors an exception covers. */
export async function listExceptionDoorUuids(db: Db, exceptionUuid: string): Promise<string[]> {
  const rows = await db
    .selectFrom('door_schedule_exception_doors')
    .select('door_uuid')
    .where('exception_uuid', '=', exceptionUuid)
    .orderBy('door_uuid')
    .execute();
  return rows.map((r) => r.door_uuid);
}

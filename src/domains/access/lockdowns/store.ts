import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { LocationLockdownEventsTable, LocationLockdownStatesTable, LockdownDoorSnapshotsTable } from '../access-lockdown.tables.js';

type Db = Kysely<DB>;

export async function findState(db: Db, orgUuid: string, locationUuid: string): Promise<LocationLockdownStatesTable | undefined> {
  return db.selectFrom('location_lockdown_states').selectAll().where('location_uuid', '=', locationUuid).where('org_uuid', '=', orgUuid).executeTakeFirst();
}

export async function listStates(
  db: Db,
  orgUuid: string,
  states?: ReadonlyArray<LocationLockdownStatesTable['state']>,
): Promise<LocationLockdownStatesTable[]> {
  let query = db.selectFrom('location_lockdown_states').selectAll().where('org_uuid', '=', orgUuid);
  if (states?.length) query = query.where('state', 'in', states);
  return query.orderBy('location_uuid').execute();
}

export async function insertState(db: Db, row: LocationLockdownStatesTable): Promise<void> {
  await db.insertInto('location_lockdown_states').values(row).execute();
}

export async function updateState(db: Db, row: LocationLockdownStatesTable): Promise<void> {
  const { location_uuid, org_uuid, created_at_ms: _created, ...patch } = row;
  await db.updateTable('location_lockdown_states').set(patch).where('location_uuid', '=', location_uuid).where('org_uuid', '=', org_uuid).execute();
}

export async function deleteState(db: Db, orgUuid: string, locationUuid: string): Promise<void> {
  await db.deleteFrom('location_lockdown_states').where('location_uuid', '=', locationUuid).where('org_uuid', '=', orgUuid).execute();
}

/** Keeps a door's relay as it was before a lockdown took it over; a door taken over already keeps its first snapshot. */
export async function saveSnapshot(db: Db, row: LockdownDoorSnapshotsTable): Promise<void> {
  await db
    .insertInto('lockdown_door_snapshots')
    .values(row)
    .onConflict((oc) => oc.column('door_uuid').doNothing())
    .execute();
}

export async function takeSnapshots(db: Db, orgUuid: string, locationUuid: string): Promise<LockdownDoorSnapshotsTable[]> {
  const rows = await db
    .selectFrom('lockdown_door_snapshots')
    .selectAll()
    .where('location_uuid', '=', locationUuid)
    .where('org_uuid', '=', orgUuid)
    .orderBy('door_uuid')
    .execute();
  await db.deleteFrom('lockdown_door_snapshots').where('location_uuid', '=', locationUuid).where('org_uuid', '=', orgUuid).execute();
  return rows;
}

export async function insertEvent(db: Db, row: Omit<LocationLockdownEventsTable, 'id'>): Promise<void> {
  await db.insertInto('location_lockdown_events').values(row).execute();
}

/** A location's lockdown events newest first, inside the exclusive bounds. */
export async function listEvents(
  db: Db,
  orgUuid: string,
  locationUuid: string,
  q: { afterMs?: number; beforeMs?: number; limit: number },
): Promise<Array<{ payload: string }>> {
  let query = db.selectFrom('location_lockdown_events').select('payload').where('org_uuid', '=', orgUuid).where('location_uuid', '=', locationUuid);
  if (q.afterMs !== undefined) query = query.where('created_at_ms', '>', q.afterMs);
  if (q.beforeMs !== undefined) query = query.where('created_at_ms', '<', q.beforeMs);
  return query.orderBy('created_at_ms', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
}

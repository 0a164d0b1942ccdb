import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { VehicleEventsTable, VehiclesTable } from '../tables.js';

type Db = Kysely<DB>;

export async function findVehicle(db: Db, orgUuid: string, plate: string): Promise<VehiclesTable | undefined> {
  return db.selectFrom('vehicles').selectAll().where('org_uuid', '=', orgUuid).where('license_plate', '=', plate).executeTakeFirst();
}

export async function listVehicles(db: Db, orgUuid: string): Promise<VehiclesTable[]> {
  return db.selectFrom('vehicles').selectAll().where('org_uuid', '=', orgUuid).orderBy('license_plate').execute();
}

export async function insertVehicle(db: Db, row: VehiclesTable): Promise<void> {
  await db.insertInto('vehicles').values(row).execute();
}

export async function updateVehicle(db: Db, orgUuid: string, plate: string, values: Partial<VehiclesTable>): Promise<void> {
  await db.updateTable('vehicles').set(values).where('org_uuid', '=', orgUuid).where('license_plate', '=', plate).execute();
}

export async function deleteVehicle(db: Db, orgUuid: string, plate: string): Promise<void> {
  await db.deleteFrom('vehicles').where('org_uuid', '=', orgUuid).where('license_plate', '=', plate).execute();
}

export async function insertVehicleEvent(db: Db, row: VehicleEventsTable): Promise<void> {
  await db.insertInto('vehicle_events').values(row).execute();
}

export interface VehicleEventFilter {
  deviceUuids: readonly string[] | null;
  locationUuids: readonly string[] | null;
  /** Only these plates (null: any). */
  plates: readonly string[] | null;
  /** Never these plates (the named ones, for an unnamed query). */
  excludedPlates: readonly string[] | null;
  fromMs: number | null;
  beforeMs: number | null;
  after: { timestampMs: number; uuid: string } | null;
  limit: number;
}

/** Plate reads of the organization newest first (by timestamp, then uuid), strictly after the cursor. */
export async function listVehicleEvents(db: Db, orgUuid: string, f: VehicleEventFilter): Promise<VehicleEventsTable[]> {
  if (f.plates !== null && f.plates.length === 0) return [];
  return db
    .selectFrom('vehicle_events')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('reported_at_ms', 'is', null)
    .$if(f.plates !== null, (q) => q.where('license_plate', 'in', f.plates!))
    .$if(f.excludedPlates !== null && f.excludedPlates.length > 0, (q) => q.where('license_plate', 'not in', f.excludedPlates!))
    .$if(f.deviceUuids !== null, (q) => q.where('device_uuid', 'in', f.deviceUuids!))
    .$if(f.locationUuids !== null, (q) => q.where('location_uuid', 'in', f.locationUuids!))
    .$if(f.fromMs !== null, (q) => q.where('timestamp_ms', '>=', f.fromMs!))
    .$if(f.beforeMs !== null, (q) => q.where('timestamp_ms', '<', f.beforeMs!))
    .$if(f.after !== null, (q) => q.where((eb) => eb(eb.refTuple('timestamp_ms', 'uuid'), '<', eb.tuple(f.after!.timestampMs, f.after!.uuid))))
    .orderBy('timestamp_ms', 'desc')
    .orderBy('uuid', 'desc')
    .limit(f.limit)
    .execute();
}

/** The distinct plates the organization's cameras read (in a time range when given): what a fuzzy search compares. */
export async function listReadPlates(db: Db, orgUuid: string, fromMs: number | null, beforeMs: number | null): Promise<string[]> {
  const rows = await db
    .selectFrom('vehicle_events')
    .select('license_plate')
    .distinct()
    .where('org_uuid', '=', orgUuid)
    .where('reported_at_ms', 'is', null)
    .$if(fromMs !== null, (q) => q.where('timestamp_ms', '>=', fromMs!))
    .$if(beforeMs !== null, (q) => q.where('timestamp_ms', '<', beforeMs!))
    .execute();
  return rows.map((r) => r.license_plate);
}

/** The organization's plate reads of these uuids that are not reported as misreads (one query). */
export async function findVehicleEvents(db: Db, orgUuid: string, uuids: readonly string[]): Promise<VehicleEventsTable[]> {
  if (uuids.length === 0) return [];
  return db.selectFrom('vehicle_events').selectAll().where('org_uuid', '=', orgUuid).where('uuid', 'in', uuids).where('reported_at_ms', 'is', null).execute();
}

/** Marks a read reported as a misread; false when it was reported already (by a concurrent call). */
export async function markVehicleEventReported(db: Db, orgUuid: string, uuid: string, atMs: number, userUuid: string | null): Promise<boolean> {
  const result = await db
    .updateTable('vehicle_events')
    .set({ reported_at_ms: atMs, reported_by: userUuid })
    .where('org_uuid', '=', orgUuid)
    .where('uuid', '=', uuid)
    .where('reported_at_ms', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Files reads under a saved vehicle's plate, keeping the plate each camera read (the first time only). */
export async function associateVehicleEvents(db: Db, orgUuid: string, uuids: readonly string[], plate: string): Promise<void> {
  if (uuids.length === 0) return;
  await db
    .updateTable('vehicle_events')
    .set((eb) => ({ read_plate: eb.fn.coalesce('read_plate', 'license_plate'), license_plate: plate }))
    .where('org_uuid', '=', orgUuid)
    .where('uuid', 'in', uuids)
    .execute();
}

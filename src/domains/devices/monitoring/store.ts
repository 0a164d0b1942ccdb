import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { AlertMonitoringPinsTable, LocationMonitoringTable } from '../tables.js';

type Db = Kysely<DB>;

export async function findMonitoring(db: Db, locationUuid: string): Promise<LocationMonitoringTable | undefined> {
  return db.selectFrom('location_monitoring').selectAll().where('location_uuid', '=', locationUuid).executeTakeFirst();
}

export async function listMonitoring(db: Db, orgUuid: string): Promise<LocationMonitoringTable[]> {
  return db.selectFrom('location_monitoring').selectAll().where('org_uuid', '=', orgUuid).execute();
}

export async function saveMonitoring(db: Db, row: LocationMonitoringTable): Promise<void> {
  const { enabled, enabled_on_ms, disabled_on_ms } = row;
  await db
    .insertInto('location_monitoring')
    .values(row)
    .onConflict((oc) => oc.column('location_uuid').doUpdateSet({ enabled, enabled_on_ms, disabled_on_ms }))
    .execute();
}

const pinRow = (r: AlertMonitoringPinsTable): AlertMonitoringPinsTable => ({ ...r, created_at_ms: Number(r.created_at_ms) });

export async function insertPin(db: Db, row: AlertMonitoringPinsTable): Promise<void> {
  await db.insertInto('alert_monitoring_pins').values(row).execute();
}

/** A location's custom pins, oldest first. */
export async function listPins(db: Db, orgUuid: string, locationUuid: string): Promise<AlertMonitoringPinsTable[]> {
  const rows = await db
    .selectFrom('alert_monitoring_pins')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('location_uuid', '=', locationUuid)
    .orderBy('created_at_ms')
    .orderBy('uuid')
    .execute();
  return rows.map(pinRow);
}

export async function deletePin(db: Db, orgUuid: string, uuid: string): Promise<void> {
  await db.deleteFrom('alert_monitoring_pins').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { LocationMonitoringTable } from './tables.js';

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

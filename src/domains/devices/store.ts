import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { DeviceKind, DevicesTable, LocationsTable, ThirdPartyCameraDiscoveriesTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertLocation(db: Db, row: LocationsTable): Promise<void> {
  await db.insertInto('locations').values(row).execute();
}

export async function findLocation(db: Db, orgUuid: string, uuid: string): Promise<LocationsTable | undefined> {
  return db.selectFrom('locations').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

export async function listLocations(db: Db, orgUuid: string): Promise<LocationsTable[]> {
  return db.selectFrom('locations').selectAll().where('org_uuid', '=', orgUuid).orderBy('name').orderBy('uuid').execute();
}

export async function insertDevice(db: Db, row: DevicesTable): Promise<void> {
  await db.insertInto('devices').values(row).execute();
}

export async function findDevice(db: Db, orgUuid: string, uuid: string): Promise<DevicesTable | undefined> {
  return db.selectFrom('devices').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

/** An organization's devices of the given kinds (all kinds when none are given), by name. */
export async function listDevices(db: Db, orgUuid: string, kinds: readonly DeviceKind[] = []): Promise<DevicesTable[]> {
  return db
    .selectFrom('devices')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .$if(kinds.length > 0, (q) => q.where('kind', 'in', kinds))
    .orderBy('name')
    .orderBy('uuid')
    .execute();
}

export async function insertDiscovery(db: Db, row: ThirdPartyCameraDiscoveriesTable): Promise<void> {
  await db.insertInto('third_party_camera_discoveries').values(row).execute();
}

export async function findDiscovery(db: Db, orgUuid: string, macAddress: string): Promise<ThirdPartyCameraDiscoveriesTable | undefined> {
  return db
    .selectFrom('third_party_camera_discoveries')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('mac_address', '=', macAddress)
    .executeTakeFirst();
}

export async function listDiscoveries(db: Db, orgUuid: string): Promise<ThirdPartyCameraDiscoveriesTable[]> {
  return db.selectFrom('third_party_camera_discoveries').selectAll().where('org_uuid', '=', orgUuid).orderBy('mac_address').execute();
}

export async function findDeviceOfAnyOrg(db: Db, uuid: string): Promise<DevicesTable | undefined> {
  return db.selectFrom('devices').selectAll().where('uuid', '=', uuid).executeTakeFirst();
}

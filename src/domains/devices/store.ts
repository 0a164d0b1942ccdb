import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import { insertInChunks } from '../../store/chunks.js';
import { preparedQuery } from '../../store/prepared-query.js';
import type { Tx } from '../../store/reader.js';
import type { DeviceKind, DevicesTable, LocationsTable, ThirdPartyCameraDiscoveriesTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertLocation(db: Db, row: LocationsTable): Promise<void> {
  await db.insertInto('locations').values(row).execute();
}

const locationByUuid = preparedQuery(2, (db, orgUuid: string, uuid: string) =>
  db.selectFrom('locations').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid),
);

/** A point read: every alert's rules and notifications read its location (a busy organization's, once a turn). */
export async function findLocation(db: Db, orgUuid: string, uuid: string): Promise<LocationsTable | undefined> {
  return (await locationByUuid(db, orgUuid, uuid))[0];
}

export async function listLocations(db: Db, orgUuid: string): Promise<LocationsTable[]> {
  return db.selectFrom('locations').selectAll().where('org_uuid', '=', orgUuid).orderBy('name').orderBy('uuid').execute();
}

export async function insertDevice(db: Db, row: DevicesTable): Promise<void> {
  await db.insertInto('devices').values(row).execute();
}

export async function insertDevices(tx: Tx, rows: readonly DevicesTable[]): Promise<void> {
  await insertInChunks(tx, 'devices', rows);
}

const deviceByUuid = preparedQuery(2, (db, orgUuid: string, uuid: string) =>
  db.selectFrom('devices').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid),
);

/** A point read: every device report and alert, and every footage file served, finds its device. */
export async function findDevice(db: Db, orgUuid: string, uuid: string): Promise<DevicesTable | undefined> {
  return (await deviceByUuid(db, orgUuid, uuid))[0];
}

/** The organization's devices among the uuids, in one query (the others' and unknown ones are absent). */
export async function findDevices(db: Db, orgUuid: string, uuids: readonly string[]): Promise<DevicesTable[]> {
  if (uuids.length === 0) return [];
  return db.selectFrom('devices').selectAll().where('org_uuid', '=', orgUuid).where('uuid', 'in', uuids).execute();
}

/** Devices of one kind: a point read (getOrgV2 reads the cameras for their settings on every call). */
const devicesOfKind = preparedQuery(2, (db, orgUuid: string, kind: DeviceKind) =>
  db.selectFrom('devices').selectAll().where('org_uuid', '=', orgUuid).where('kind', '=', kind).orderBy('name').orderBy('uuid'),
);

/** An organization's devices of the given kinds (all kinds when none are given), by name. */
export async function listDevices(db: Db, orgUuid: string, kinds: readonly DeviceKind[] = []): Promise<DevicesTable[]> {
  if (kinds.length === 1) return devicesOfKind(db, orgUuid, kinds[0]!);
  return db
    .selectFrom('devices')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .$if(kinds.length > 0, (q) => q.where('kind', 'in', kinds))
    .orderBy('name')
    .orderBy('uuid')
    .execute();
}

export type DevicePatch = Partial<Omit<DevicesTable, 'uuid' | 'org_uuid' | 'kind' | 'created_at_ms'>>;

export async function updateDevice(db: Db, orgUuid: string, uuid: string, patch: DevicePatch): Promise<void> {
  await db.updateTable('devices').set(patch).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function insertDiscovery(db: Db, row: ThirdPartyCameraDiscoveriesTable): Promise<void> {
  await db.insertInto('third_party_camera_discoveries').values(row).execute();
}

export async function findDiscovery(db: Db, orgUuid: string, macAddress: string): Promise<ThirdPartyCameraDiscoveriesTable | undefined> {
  return db.selectFrom('third_party_camera_discoveries').selectAll().where('org_uuid', '=', orgUuid).where('mac_address', '=', macAddress).executeTakeFirst();
}

export async function listDiscoveries(db: Db, orgUuid: string): Promise<ThirdPartyCameraDiscoveriesTable[]> {
  return db.selectFrom('third_party_camera_discoveries').selectAll().where('org_uuid', '=', orgUuid).orderBy('mac_address').execute();
}

export async function findDeviceOfAnyOrg(db: Db, uuid: string): Promise<DevicesTable | undefined> {
  return db.selectFrom('devices').selectAll().where('uuid', '=', uuid).executeTakeFirst();
}

export async function deleteDiscovery(db: Db, orgUuid: string, macAddress: string): Promise<void> {
  await db.deleteFrom('third_party_camera_discoveries').where('org_uuid', '=', orgUuid).where('mac_address', '=', macAddress).execute();
}

export async function updateLocationPinDigest(db: Db, uuid: string, digest: string | null, nowMs: number): Promise<void> {
  await db.updateTable('locations').set({ monitoring_pin_digest: digest, updated_at_ms: nowMs }).where('uuid', '=', uuid).execute();
}

/** Which of `uuids` are devices of the kind of the organization (others' and missing ones are left out). */
export async function findDeviceUuidsOfKind(db: Db, orgUuid: string, kind: DeviceKind, uuids: readonly string[]): Promise<string[]> {
  if (uuids.length === 0) return [];
  const rows = await db.selectFrom('devices').select('uuid').where('org_uuid', '=', orgUuid).where('kind', '=', kind).where('uuid', 'in', uuids).execute();
  return rows.map((r) => r.uuid);
}

/** The organization's devices of some kinds at a location (over the (location, kind, uuid) index), by uuid. */
export async function listDevicesAt(db: Db, orgUuid: string, locationUuid: string, kinds: readonly DeviceKind[]): Promise<DevicesTable[]> {
  if (kinds.length === 0) return [];
  return db
    .selectFrom('devices')
    .selectAll()
    .where('location_uuid', '=', locationUuid)
    .where('kind', 'in', kinds)
    .where('org_uuid', '=', orgUuid)
    .orderBy('uuid')
    .execute();
}

/**
 * One page of the organization's devices of a kind (at one location, when given), in uuid order, after the
 * uuid `after`: keyset paging on the unique key, so pages never skip or repeat a device.
 */
export async function pageDevicesOfKind(
  db: Db,
  page: { orgUuid: string; kind: DeviceKind; locationUuid?: string; after?: string; limit: number },
): Promise<DevicesTable[]> {
  return db
    .selectFrom('devices')
    .selectAll()
    .$if(page.locationUuid !== undefined, (q) => q.where('location_uuid', '=', page.locationUuid!))
    .where('org_uuid', '=', page.orgUuid)
    .where('kind', '=', page.kind)
    .$if(page.after !== undefined, (q) => q.where('uuid', '>', page.after!))
    .orderBy('uuid')
    .limit(page.limit)
    .execute();
}

/** Deletes a device; its histories (events, boxes, labels, presses) go with it by their foreign keys. */
export async function deleteDevice(db: Db, orgUuid: string, uuid: string): Promise<void> {
  await db.deleteFrom('devices').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

/** The organization's other devices whose attributes may name the device (a text match, which the caller narrows). */
export async function listDevicesMentioning(db: Db, orgUuid: string, deviceUuid: string): Promise<DevicesTable[]> {
  return db
    .selectFrom('devices')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('uuid', '!=', deviceUuid)
    .where('attributes', 'like', `%${deviceUuid}%`)
    .orderBy('uuid')
    .execute();
}

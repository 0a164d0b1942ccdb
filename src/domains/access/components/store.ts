import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { Tx } from '../../../store/reader.js';
import type { DevicePortConfigsTable, HardwareComponentsTable } from './tables.js';

type Db = Kysely<DB> | Tx;

export async function insertComponent(tx: Tx, row: HardwareComponentsTable): Promise<void> {
  await tx.insertInto('hardware_components').values(row).execute();
}

export async function findComponent(db: Db, orgUuid: string, uuid: string): Promise<HardwareComponentsTable | undefined> {
  return db.selectFrom('hardware_components').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

/** For the simulator only: a component by uuid, whatever its organization. */
export async function findComponentOfAnyOrg(db: Db, uuid: string): Promise<HardwareComponentsTable | undefined> {
  return db.selectFrom('hardware_components').selectAll().where('uuid', '=', uuid).executeTakeFirst();
}

export async function findComponents(db: Db, orgUuid: string, uuids: readonly string[]): Promise<HardwareComponentsTable[]> {
  if (uuids.length === 0) return [];
  return db.selectFrom('hardware_components').selectAll().where('org_uuid', '=', orgUuid).where('uuid', 'in', uuids).orderBy('uuid').execute();
}

export async function listComponentsOfDevice(db: Db, orgUuid: string, ownerDeviceUuid: string): Promise<HardwareComponentsTable[]> {
  return db
    .selectFrom('hardware_components')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('owner_device_uuid', '=', ownerDeviceUuid)
    .orderBy('created_at_ms')
    .orderBy('uuid')
    .execute();
}

export async function listComponentsOfOrg(db: Db, orgUuid: string): Promise<HardwareComponentsTable[]> {
  return db.selectFrom('hardware_components').selectAll().where('org_uuid', '=', orgUuid).orderBy('uuid').execute();
}

export async function updateComponent(
  tx: Tx,
  orgUuid: string,
  uuid: string,
  patch: Partial<Pick<HardwareComponentsTable, 'name' | 'settings' | 'state' | 'state_at_ms' | 'transient_until_ms' | 'updated_at_ms'>>,
): Promise<void> {
  await tx.updateTable('hardware_components').set(patch).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

/** Ends a relay's transient state that ends at `untilMs` (patched), unless it was driven again meanwhile: false then. */
export async function endTransientState(
  tx: Tx,
  row: Pick<HardwareComponentsTable, 'org_uuid' | 'uuid'>,
  untilMs: number,
  patch: Pick<HardwareComponentsTable, 'state' | 'state_at_ms' | 'transient_until_ms' | 'updated_at_ms'>,
): Promise<boolean> {
  const result = await tx
    .updateTable('hardware_components')
    .set(patch)
    .where('org_uuid', '=', row.org_uuid)
    .where('uuid', '=', row.uuid)
    .where('transient_until_ms', '=', untilMs)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The relays of every organization in a transient state, with when it ends. */
export async function listTransientRelays(db: Db): Promise<Array<{ org_uuid: string; uuid: string; transient_until_ms: number }>> {
  const rows = await db
    .selectFrom('hardware_components')
    .select(['org_uuid', 'uuid', 'transient_until_ms'])
    .where('transient_until_ms', 'is not', null)
    .execute();
  return rows.map((r) => ({ org_uuid: r.org_uuid, uuid: r.uuid, transient_until_ms: Number(r.transient_until_ms) }));
}

export async function deleteComponents(tx: Tx, orgUuid: string, uuids: readonly string[]): Promise<void> {
  if (uuids.length === 0) return;
  await tx.deleteFrom('hardware_components').where('org_uuid', '=', orgUuid).where('uuid', 'in', uuids).execute();
}

export async function findPortConfig(db: Db, orgUuid: string, ownerDeviceUuid: string): Promise<DevicePortConfigsTable | undefined> {
  return db.selectFrom('device_port_configs').selectAll().where('org_uuid', '=', orgUuid).where('owner_device_uuid', '=', ownerDeviceUuid).executeTakeFirst();
}

export async function insertPortConfig(tx: Tx, row: DevicePortConfigsTable): Promise<void> {
  await tx.insertInto('device_port_configs').values(row).execute();
}

export async function deletePortConfig(tx: Tx, orgUuid: string, ownerDeviceUuid: string): Promise<void> {
  await tx.deleteFrom('device_port_configs').where('org_uuid', '=', orgUuid).where('owner_device_uuid', '=', ownerDeviceUuid).execute();
}

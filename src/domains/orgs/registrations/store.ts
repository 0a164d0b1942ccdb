import type { Kysely, Updateable } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { HardwareTable, ShipmentsTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertShipment(db: Db, shipment: ShipmentsTable, units: readonly HardwareTable[]): Promise<void> {
  await db.insertInto('hardware_shipments').values(shipment).execute();
  if (units.length > 0)
    await db
      .insertInto('shipped_hardware')
      .values([...units])
      .execute();
}

/** Which of the serial numbers a shipment holds already. */
export async function findShippedSerials(db: Db, serials: readonly string[]): Promise<string[]> {
  if (serials.length === 0) return [];
  return (await db.selectFrom('shipped_hardware').select('serial_number').where('serial_number', 'in', serials).execute()).map((r) => r.serial_number);
}

export async function findShipmentByToken(db: Db, tokenDigest: string): Promise<ShipmentsTable | undefined> {
  return db.selectFrom('hardware_shipments').selectAll().where('token_digest', '=', tokenDigest).executeTakeFirst();
}

/** Marks the shipment claimed, unless another claim got there first: false then. */
export async function claimShipment(db: Db, uuid: string, orgUuid: string, atMs: number): Promise<boolean> {
  const result = await db
    .updateTable('hardware_shipments')
    .set({ claimed_org_uuid: orgUuid, claimed_at_ms: atMs })
    .where('uuid', '=', uuid)
    .where('claimed_at_ms', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function listShipmentHardware(db: Db, shipmentUuid: string): Promise<HardwareTable[]> {
  return db.selectFrom('shipped_hardware').selectAll().where('shipment_uuid', '=', shipmentUuid).orderBy('serial_number').execute();
}

/** The organization's hardware not yet registered as a device: with a pending registration, or without one. */
export async function listWaitingHardware(db: Db, orgUuid: string, pending: boolean): Promise<HardwareTable[]> {
  return db
    .selectFrom('shipped_hardware')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('device_uuid', 'is', null)
    .where('pending_at_ms', pending ? 'is not' : 'is', null)
    .orderBy('serial_number')
    .execute();
}

export async function findOrgHardware(db: Db, orgUuid: string, by: { uuid: string } | { serialNumber: string }): Promise<HardwareTable | undefined> {
  const q = db.selectFrom('shipped_hardware').selectAll().where('org_uuid', '=', orgUuid);
  return ('uuid' in by ? q.where('uuid', '=', by.uuid) : q.where('serial_number', '=', by.serialNumber)).executeTakeFirst();
}

export async function listOrgHardware(db: Db, orgUuid: string, uuids: readonly string[]): Promise<HardwareTable[]> {
  if (uuids.length === 0) return [];
  return db.selectFrom('shipped_hardware').selectAll().where('org_uuid', '=', orgUuid).where('uuid', 'in', uuids).orderBy('serial_number').execute();
}

/** The organization's units whose pending registration names the location. */
export async function listPendingAtLocation(db: Db, orgUuid: string, locationUuid: string): Promise<string[]> {
  const rows = await db
    .selectFrom('shipped_hardware')
    .select('uuid')
    .where('org_uuid', '=', orgUuid)
    .where('pending_at_ms', 'is not', null)
    .where('pending_location_uuid', '=', locationUuid)
    .execute();
  return rows.map((r) => r.uuid);
}

/** The unit of any organization with this serial number that has a pending registration. */
export async function findPendingBySerial(db: Db, serialNumber: string): Promise<HardwareTable | undefined> {
  return db
    .selectFrom('shipped_hardware')
    .selectAll()
    .where('serial_number', '=', serialNumber)
    .where('pending_at_ms', 'is not', null)
    .where('org_uuid', 'is not', null)
    .executeTakeFirst();
}

export async function updateHardware(db: Db, uuids: readonly string[], patch: Updateable<HardwareTable>): Promise<void> {
  if (uuids.length > 0) await db.updateTable('shipped_hardware').set(patch).where('uuid', 'in', uuids).execute();
}

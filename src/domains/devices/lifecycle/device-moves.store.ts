import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { Tx } from '../../../store/reader.js';
import type { DevicesTable } from '../tables.js';

/** The organization's devices with these serial numbers (one query). */
export async function findDevicesBySerial(db: Kysely<DB>, orgUuid: string, serials: readonly string[]): Promise<DevicesTable[]> {
  if (serials.length === 0) return [];
  return db.selectFrom('devices').selectAll().where('org_uuid', '=', orgUuid).where('serial_number', 'in', serials).execute();
}

/** Moves a device to another organization, out of any location (locations belong to one organization). */
export async function moveDevice(tx: Tx, uuid: string, fromOrgUuid: string, toOrgUuid: string, nowMs: number): Promise<void> {
  await tx
    .updateTable('devices')
    .set({ org_uuid: toOrgUuid, location_uuid: null, updated_at_ms: nowMs })
    .where('uuid', '=', uuid)
    .where('org_uuid', '=', fromOrgUuid)
    .execute();
}

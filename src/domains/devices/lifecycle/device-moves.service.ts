import { dbOf, type ReadSource } from '../../../store/reader.js';
import type { WriteScope } from '../../../bus/write.js';
import * as moves from './device-moves.store.js';
import { toDeviceRecord, type DeviceRecord } from '../service.js';

/** The organization's devices by serial number, among the serials given (another organization's are absent). */
export async function findDevicesBySerial(source: ReadSource, orgUuid: string, serials: readonly string[]): Promise<Map<string, DeviceRecord>> {
  const rows = await moves.findDevicesBySerial(dbOf(source), orgUuid, [...new Set(serials)]);
  return new Map(rows.map((row) => [row.serial_number!, toDeviceRecord(row)]));
}

/**
 * Moves a device to another organization in the write (a partner's reassignDeviceOrg): it leaves its
 * location, and its history (events, alerts) stays with the organization it leaves. Announced on both
 * organizations' streams: DELETE on the one it leaves, CREATE on the one it joins (the entity is its kind).
 */
export async function moveDeviceToOrg(w: WriteScope, device: DeviceRecord, targetOrgUuid: string): Promise<DeviceRecord> {
  await moves.moveDevice(w.tx, device.uuid, device.orgUuid, targetOrgUuid, w.nowMs);
  const moved: DeviceRecord = { ...device, orgUuid: targetOrgUuid, locationUuid: null, updatedAtMillis: w.nowMs };
  const base = { entity: device.deviceType, entityUuid: device.uuid, deviceUuid: device.uuid } as const;
  w.change({ ...base, type: 'DELETE', update: device, orgUuid: device.orgUuid });
  w.change({ ...base, type: 'CREATE', update: moved, orgUuid: targetOrgUuid });
  return moved;
}

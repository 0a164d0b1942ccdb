import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet, isRuuid } from '../../../ids.js';
import { fromJson, toJson } from '../../../store/columns.js';
import type { ReadSource } from '../../../store/reader.js';
import { write } from '../../../bus/write.js';
import { requireRecords } from '../../../records/references.js';
import { rebootDevice } from './device-connection.service.js';
import { applyDeviceDetails, type DeviceDetailsChange } from '../cameras/camera-details.service.js';
import type { DeviceClass } from '../device-reads/device-events.service.js';
import { namesDevice, type DeviceReferenceCleaner } from '../device-references.js';
import * as events from '../device-reads/device-events.store.js';
import { findDevice, toDeviceRecord, type DeviceRecord } from '../service.js';
import * as store from '../store.js';
import { toVideoWallRecord } from '../video-walls/service.js';
import * as walls from '../video-walls/store.js';

type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** A device id as requests give it: its uuid, or one of its facet ids (`<uuid>.v0`); null when it is neither. */
export const deviceUuidOf = (id: string): string | null => (isRuuid(id) ? id : deviceOfFacet(id));

/** The device of the class (kinds) of the organization, by uuid or facet id; another organization's is missing. */
export async function deviceOfClass(source: ReadSource, orgUuid: string, cls: DeviceClass, id: string): Promise<DeviceRecord> {
  const uuid = deviceUuidOf(id);
  const device = uuid ? await findDevice(source, orgUuid, uuid, cls.kinds) : null;
  if (!device) throw fail('NOT_FOUND', cls.what);
  return device;
}

/**
 * The details update of every kind of device but cameras (climate sensors, environmental gateways, door and
 * occupancy sensors, tags, audio gateways): the fields given are set through the same applyDeviceDetails that
 * cameras and door controllers use, and the device is announced as its kind.
 */
export async function updateDeviceDetails(
  deps: WriteDeps & Pick<Deps, 'recordFinders'>,
  ctx: CallerContext,
  cls: DeviceClass,
  uuid: string,
  change: DeviceDetailsChange & { deleted?: boolean | null },
) {
  const { deleted, ...fields } = change;
  if (deleted === true) throw fail('INVALID_VALUE', 'deleted: a device is deleted by its delete operation, not by a details update');
  if (fields.policyUuid != null && !cls.policy)
    throw fail('INVALID_VALUE', `policyUuid: a ${cls.what.toLowerCase()} follows no policy (its alert thresholds are its own)`);
  await write(deps, ctx, async (w) => {
    const device = await deviceOfClass(w, ctx.orgUuid, cls, uuid);
    if (fields.policyUuid != null) await requireRecords(deps, w, ctx.orgUuid, cls.policy!, [String(fields.policyUuid)]);
    const updated = await applyDeviceDetails(w, device, fields);
    w.change({ entity: updated.deviceType, entityUuid: updated.uuid, deviceUuid: updated.uuid, type: 'UPDATE', update: updated });
  });
}

/**
 * Deletes a device of any kind, in one transaction: every domain's cleaner (deps.deviceReferences) first takes it
 * out of the records that name it (video walls, doors, rules, snoozes, ...) and announces them, then the device
 * goes, with its histories, and its DELETE is announced as its kind. `mummify` is accepted: nothing of a
 * deleted device is kept either way.
 */
export async function deleteDevice(deps: WriteDeps & Pick<Deps, 'deviceReferences'>, ctx: CallerContext, cls: DeviceClass, uuid: string) {
  await write(deps, ctx, async (w) => {
    const device = await deviceOfClass(w, ctx.orgUuid, cls, uuid);
    for (const forget of deps.deviceReferences) await forget(w, device);
    await store.deleteDevice(w.tx, device.orgUuid, device.uuid);
    w.change({ entity: device.deviceType, entityUuid: device.uuid, deviceUuid: device.uuid, type: 'DELETE', update: device });
  });
  return 'SUCCESS' as const;
}

/** The devices domain's own references: the video walls that show the device, and the devices that list it among their cameras. */
export const devicesForgetDevice: DeviceReferenceCleaner = async (w, device) => {
  for (const row of await walls.listWallsMentioning(w.tx, device.orgUuid, device.uuid)) {
    const list = fromJson<string[]>(row.device_list) ?? [];
    if (!list.some((e) => namesDevice(e, device.uuid))) continue;
    const updated = { ...row, device_list: toJson(list.filter((e) => !namesDevice(e, device.uuid)))!, updated_at_ms: w.nowMs };
    await walls.updateWall(w.tx, row.uuid, { device_list: updated.device_list, updated_at_ms: w.nowMs });
    w.change({ entity: 'VIDEO_WALL', entityUuid: row.uuid, type: 'UPDATE', update: toVideoWallRecord(updated) });
  }
  for (const row of await store.listDevicesMentioning(w.tx, device.orgUuid, device.uuid)) {
    const other = toDeviceRecord(row);
    const cameras = Array.isArray(other.attributes.cameras) ? (other.attributes.cameras as unknown[]) : [];
    if (!cameras.some((c) => namesDevice(c, device.uuid))) continue;
    const attributes = { ...other.attributes, cameras: cameras.filter((c) => !namesDevice(c, device.uuid)) };
    await events.updateDeviceReport(w.tx, other.uuid, { attributes: toJson(attributes)!, nowMs: w.nowMs });
    const updated: DeviceRecord = { ...other, attributes, updatedAtMillis: w.nowMs };
    w.change({ entity: updated.deviceType, entityUuid: updated.uuid, deviceUuid: updated.uuid, type: 'UPDATE', update: updated });
  }
};

/** `climate/reboot`, `badgereader/reboot`: the device of the class reboots as cameras do (rebootDevice). */
export async function rebootDeviceOfClass(deps: WriteDeps & Pick<Deps, 'log'>, ctx: CallerContext, cls: DeviceClass, uuid: string) {
  const sent = await rebootDevice(deps, ctx, await deviceOfClass(deps, ctx.orgUuid, cls, uuid));
  return sent ? ('REBOOT_SENT' as const) : ('DEVICE_OFFLINE' as const);
}

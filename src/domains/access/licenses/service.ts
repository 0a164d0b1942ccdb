import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import { write, type Actor, type WriteScope } from '../../../bus/write.js';
import type { ReadSource } from '../../../store/reader.js';
import { dbOf } from '../../../store/reader.js';
import { findDevice, listDevices, type DeviceRecord } from '../../devices/service.js';
import { updateDeviceAttributes } from '../../devices/device-reads/device-events.service.js';
import { featureMapOf } from '../../devices/device-reads/features.service.js';
import type { DeviceKind } from '../../devices/tables.js';
import type { DeviceReferenceCleaner } from '../../devices/device-references.js';
import type { RecordCleaner } from '../../../records/references.js';
import { clientOf } from '../../orgs/partners/service.js';
import { findDoor } from '../service.js';
import * as store from './store.js';
import type { LicensesTable } from './tables.js';
import type { ADD_ONS, DEVICE_TYPES, LICENSE_FAMILIES, LICENSE_TYPES } from './schemas.js';

type Tier = (typeof LICENSE_TYPES)[number];
type Family = (typeof LICENSE_FAMILIES)[number];
type AddOn = (typeof ADD_ONS)[number];
type DeviceType = (typeof DEVICE_TYPES)[number];

/*
 * Licenses: issued to an organization (`gatehouse license issue`, as the vendor's order system would), assigned
 * by the organization to a device (a device license, or an add-on), a door or a location's alert monitoring.
 * What a device's licenses grant is part of its feature map (feature/getDeviceFeatures): `deviceLicense` and one
 * feature per add-on, kept in the device's attributes and announced as its DEVICE change.
 */

type LicenseDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;
type ProductType = LicensesTable['product_type'];
type Row = store.LicenseRow;

/** The feature of the feature map each add-on grants. */
const ADD_ON_FEATURES: Record<string, string> = {
  CLOUD_ARCHIVING: 'cloudArchiving',
  PERCEPTION: 'perception',
  POSE: 'poseDetection',
  BEHAVIOR: 'behaviorDetection',
  VEHICLE: 'vehicleAnalytics',
  PEOPLE: 'peopleSearch',
  PPE: 'ppeDetection',
  PEOPLE_ANALYTICS: 'peopleAnalytics',
};
const DEVICE_LICENSE_FEATURE = 'deviceLicense';
const CLOUD_ARCHIVE_DAYS = 30;

/** The devices each device-license family may be assigned to; add-ons are for cameras. */
const FAMILY_KINDS: Record<string, readonly DeviceKind[]> = {
  CAMERA: ['CAMERA'],
  CAMERA_MS: ['CAMERA'],
  VIDEO_INTERCOM: ['DOORBELL_CAMERA'],
  AUDIO_GATEWAY: ['AUDIO_GATEWAY'],
  ENVIRONMENTAL_SENSOR: ['ENVIRONMENTAL_SENSOR'],
  ENVIRONMENTAL_GATEWAY: ['ENVIRONMENTAL_GATEWAY'],
};
const ADD_ON_KINDS: readonly DeviceKind[] = ['CAMERA', 'DOORBELL_CAMERA'];

/** The platform's DeviceTypeEnum for a device kind. */
const DEVICE_TYPE: Partial<Record<DeviceKind, DeviceType>> = {
  CAMERA: 'CAMERA',
  DOORBELL_CAMERA: 'CAMERA',
  BUTTON: 'BLE_BUTTON',
  ENVIRONMENTAL_SENSOR: 'ENVIRONMENTAL_SENSOR',
  ENVIRONMENTAL_GATEWAY: 'ENVIRONMENTAL_GATEWAY',
  AUDIO_GATEWAY: 'AUDIO_GATEWAY',
  DOOR_CONTROLLER: 'DOOR_CONTROLLER',
  DOOR_SENSOR: 'DOOR_SENSOR',
  OCCUPANCY_SENSOR: 'OCCUPANCY_SENSOR',
  BLE_TRACKER: 'BLE_TRACKER',
  BADGE_READER: 'BADGE_READER',
};
const deviceTypeOfFamily = (family: string | null) => (family ? (DEVICE_TYPE[FAMILY_KINDS[family]?.[0] ?? 'CAMERA'] ?? null) : null);

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The fields every view of a license answers. */
function common(row: Row) {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    claimKeyUuid: row.claim_key_uuid,
    productType: row.product_type,
    state: 'CLAIMED' as const,
    trial: row.trial === 1,
    createdOn: iso(row.created_at_ms),
    updatedOn: iso(row.updated_at_ms),
    firstAssignedDate: iso(row.first_assigned_ms),
  };
}
const grantedFeatures = (row: Row) => (row.product_type === 'DEVICE' ? [DEVICE_LICENSE_FEATURE] : row.add_on ? [ADD_ON_FEATURES[row.add_on]!] : []);

export const deviceLicenseView = (row: Row) => ({
  ...common(row),
  deviceType: deviceTypeOfFamily(row.license_family),
  deviceUuid: row.device_uuid,
  licenseFamily: row.license_family as Family | null,
  licenseType: row.license_type as Tier | null,
  features: grantedFeatures(row).map((name) => ({ name, enabled: row.device_uuid !== null })),
});
export const usageLicenseView = (row: Row) => ({
  ...common(row),
  addOnLicenseType: row.add_on as AddOn | null,
  license: row.add_on as AddOn | null,
  deviceType: 'CAMERA' as const,
  deviceUuid: row.device_uuid,
  licenseFamily: 'CAMERA' as const,
  cloudArchiveDays: row.add_on === 'CLOUD_ARCHIVING' ? CLOUD_ARCHIVE_DAYS : null,
});
export const doorLicenseView = (row: Row) => ({ ...common(row), doorUuid: row.door_uuid });
/** An alert-monitoring license covers the cameras at its location, as many as it allows. */
export const alertMonitoringView = (row: Row, camerasAt: ReadonlyMap<string, string[]>) => ({
  ...common(row),
  licenseType: row.license_type as Tier | null,
  locationUuid: row.location_uuid,
  allowedDeviceCount: row.allowed_device_count,
  deviceUuids: row.location_uuid ? (camerasAt.get(row.location_uuid) ?? []).slice(0, row.allowed_device_count ?? undefined) : [],
});
/** The LICENSE change: the license with whatever it is assigned to. */
export const licenseRecord = (row: Row) => ({
  ...common(row),
  licenseType: row.license_type,
  licenseFamily: row.license_family,
  addOnLicenseType: row.add_on,
  deviceUuid: row.device_uuid,
  doorUuid: row.door_uuid,
  locationUuid: row.location_uuid,
});
export type LicenseRecord = ReturnType<typeof licenseRecord>;

export interface LicenseOrder {
  productType: ProductType;
  licenseType?: string | null;
  licenseFamily?: string | null;
  addOn?: string | null;
  allowedDeviceCount?: number | null;
  trial?: boolean;
  count: number;
}

/** Issues licenses to an organization (the vendor's side: the CLI, the demo): unassigned, announced. */
export async function issueLicenses(deps: LicenseDeps, actor: Actor, order: LicenseOrder): Promise<Row[]> {
  return write(deps, actor, async (w) => {
    const claimKey = newRuuid();
    const rows: LicensesTable[] = Array.from({ length: order.count }, () => ({
      uuid: newRuuid(),
      org_uuid: actor.orgUuid,
      product_type: order.productType,
      license_type: order.licenseType ?? (order.productType === 'DEVICE' || order.productType === 'ALERT_MONITORING' ? 'ENTERPRISE' : null),
      license_family: order.licenseFamily ?? (order.productType === 'DEVICE' ? 'CAMERA' : null),
      add_on: order.productType === 'LICENSE_USAGE' ? (order.addOn ?? 'CLOUD_ARCHIVING') : null,
      device_uuid: null,
      door_uuid: null,
      location_uuid: null,
      allowed_device_count: order.productType === 'ALERT_MONITORING' ? (order.allowedDeviceCount ?? 10) : null,
      trial: order.trial ? 1 : 0,
      claim_key_uuid: claimKey,
      first_assigned_ms: null,
      created_at_ms: w.nowMs,
      updated_at_ms: w.nowMs,
    }));
    await store.insertLicenses(w.tx, rows);
    for (const row of rows) w.change({ entity: 'LICENSE', entityUuid: row.uuid, type: 'CREATE', update: licenseRecord(row) });
    return rows;
  });
}

async function requireLicense(w: WriteScope, orgUuid: string, uuid: string | null | undefined, product: ProductType): Promise<Row> {
  const row = uuid ? await store.findLicense(w.tx, orgUuid, uuid) : undefined;
  if (!row || row.product_type !== product) throw fail('NOT_FOUND', `License ${uuid ?? ''}`.trim());
  return row;
}

/** The license features of a device from the licenses now on it, written into its feature map and announced. */
async function refreshLicenseFeatures(w: WriteScope, device: DeviceRecord): Promise<void> {
  const granted = new Set((await store.licensesOfTarget(w.tx, device.orgUuid, 'device_uuid', device.uuid)).flatMap(grantedFeatures));
  const known = [DEVICE_LICENSE_FEATURE, ...Object.values(ADD_ON_FEATURES)];
  const had = (device.attributes.licenseFeatures ?? {}) as Record<string, boolean>;
  // Only the features the device has ever been licensed for appear (as false once the license goes).
  const licenseFeatures = Object.fromEntries(known.filter((f) => granted.has(f) || f in had).map((f) => [f, granted.has(f)]));
  await updateDeviceAttributes(
    w,
    device,
    { ...device.attributes, licenseFeatures },
    { entity: 'DEVICE', update: (d) => ({ deviceUuid: d.uuid, featureMap: featureMapOf(d) }) },
  );
}

type Target = { column: 'device_uuid' | 'door_uuid' | 'location_uuid'; uuid: string };
const cleared = { device_uuid: null, door_uuid: null, location_uuid: null };

/**
 * Puts a license on its target, in place of the license of the same product (and add-on) there, which is
 * freed; a license moved from another device leaves it. Both devices' feature maps follow.
 */
async function assign(w: WriteScope, license: Row, target: Target): Promise<Row> {
  const previousDevice = license.device_uuid;
  const displaced = await store.licenseOn(w.tx, license.org_uuid, license.product_type, target, license.add_on);
  if (displaced && displaced.uuid !== license.uuid) {
    await store.updateAssignment(w.tx, displaced.uuid, { ...cleared, first_assigned_ms: displaced.first_assigned_ms, updated_at_ms: w.nowMs });
    const freed = { ...displaced, ...cleared, updated_at_ms: w.nowMs };
    w.change({ entity: 'LICENSE', entityUuid: freed.uuid, type: 'UPDATE', update: licenseRecord(freed) });
  }
  const assigned: Row = {
    ...license,
    ...cleared,
    [target.column]: target.uuid,
    first_assigned_ms: license.first_assigned_ms ?? w.nowMs,
    updated_at_ms: w.nowMs,
  };
  await store.updateAssignment(w.tx, license.uuid, assigned);
  w.change({ entity: 'LICENSE', entityUuid: license.uuid, type: 'UPDATE', update: licenseRecord(assigned) });
  if (target.column === 'device_uuid') {
    for (const uuid of new Set([target.uuid, ...(previousDevice && previousDevice !== target.uuid ? [previousDevice] : [])])) {
      const device = await findDevice(w, license.org_uuid, uuid);
      if (device) await refreshLicenseFeatures(w, device);
    }
  }
  return assigned;
}

/** A deleted device or door keeps no license: each license on it is free again, and announced. */
async function releaseLicensesOf(w: WriteScope, column: 'device_uuid' | 'door_uuid', uuid: string): Promise<void> {
  const held = await store.licensesOfTarget(w.tx, w.actor.orgUuid, column, uuid);
  if (held.length === 0) return;
  await store.releaseTarget(w.tx, column, uuid, w.nowMs);
  for (const row of held) {
    const freed = { ...row, [column]: null, updated_at_ms: w.nowMs };
    w.change({ entity: 'LICENSE', entityUuid: row.uuid, type: 'UPDATE', update: licenseRecord(freed) });
  }
}

/** deps.deviceReferences. */
export const licensesForgetDevice: DeviceReferenceCleaner = (w, device) => releaseLicensesOf(w, 'device_uuid', device.uuid);
/** deps.recordCleaners.door. */
export const licensesForgetDoor: RecordCleaner = (w, doorUuid) => releaseLicensesOf(w, 'door_uuid', doorUuid);

/** assignDeviceLicense (a device license) and assignLicense (an add-on): the device must be of a kind the license is for. */
export async function assignToDevice(
  deps: LicenseDeps,
  ctx: CallerContext,
  product: 'DEVICE' | 'LICENSE_USAGE',
  input: { licenseUuid?: string | null; deviceUuid?: string | null },
) {
  return write(deps, ctx, async (w) => {
    const license = await requireLicense(w, ctx.orgUuid, input.licenseUuid, product);
    const device = input.deviceUuid ? await findDevice(w, ctx.orgUuid, input.deviceUuid) : null;
    if (!device) throw fail('NOT_FOUND', `Device ${input.deviceUuid ?? ''}`.trim());
    const kinds = product === 'DEVICE' ? (FAMILY_KINDS[license.license_family ?? ''] ?? []) : ADD_ON_KINDS;
    if (!kinds.includes(device.deviceType))
      throw fail('INVALID_VALUE', `deviceUuid: a ${license.license_family ?? license.add_on} license is not for a ${device.deviceType} (${kinds.join(', ')})`);
    return assign(w, license, { column: 'device_uuid', uuid: device.uuid });
  });
}

export async function assignToDoor(deps: LicenseDeps, ctx: CallerContext, input: { licenseUuid?: string | null; doorUuid?: string | null }) {
  return write(deps, ctx, async (w) => {
    const license = await requireLicense(w, ctx.orgUuid, input.licenseUuid, 'ACCESS_CONTROL');
    const door = input.doorUuid ? await findDoor(w, ctx.orgUuid, input.doorUuid) : null;
    if (!door) throw fail('NOT_FOUND', `Door ${input.doorUuid ?? ''}`.trim());
    return assign(w, license, { column: 'door_uuid', uuid: door.uuid });
  });
}

/** The location was resolved against the organization at the edge (RefUuid). */
export async function assignToLocation(deps: LicenseDeps, ctx: CallerContext, input: { licenseUuid?: string | null; locationUuid?: string | null }) {
  const row = await write(deps, ctx, async (w) => {
    const license = await requireLicense(w, ctx.orgUuid, input.licenseUuid, 'ALERT_MONITORING');
    if (!input.locationUuid) throw fail('INVALID_VALUE', 'locationUuid: the location the license monitors');
    return assign(w, license, { column: 'location_uuid', uuid: input.locationUuid });
  });
  return alertMonitoringView(row, await camerasByLocation(deps, ctx.orgUuid));
}

async function camerasByLocation(source: ReadSource, orgUuid: string): Promise<Map<string, string[]>> {
  const byLocation = new Map<string, string[]>();
  for (const d of await listDevices(source, orgUuid, ADD_ON_KINDS))
    if (d.locationUuid) byLocation.set(d.locationUuid, [...(byLocation.get(d.locationUuid) ?? []), d.uuid]);
  return byLocation;
}

/** An organization's licenses of a product, in their view; device licenses and add-ons narrowed to a device type when asked. */
export async function licensesOf(source: ReadSource, orgUuid: string, product: ProductType, deviceType?: string | null) {
  const rows = await store.listLicenses(dbOf(source), orgUuid, product);
  if (product === 'DEVICE') return rows.map(deviceLicenseView).filter((l) => !deviceType || l.deviceType === deviceType);
  if (product === 'LICENSE_USAGE') return rows.map(usageLicenseView).filter((l) => !deviceType || l.deviceType === deviceType);
  if (product === 'ACCESS_CONTROL') return rows.map(doorLicenseView);
  const cameras = await camerasByLocation(source, orgUuid);
  return rows.map((r) => alertMonitoringView(r, cameras));
}

/** A client organization's licenses, read by its partner (another organization's answers as not a client). */
export async function clientLicenses(deps: Pick<Deps, 'store'>, ctx: CallerContext, clientOrgUuid: string | null | undefined, product: ProductType) {
  const client = await clientOf(deps, ctx, clientOrgUuid ?? '');
  return licensesOf(deps, client.orgUuid, product);
}

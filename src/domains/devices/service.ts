import { fail } from '../../errors.js';
import { deviceOfFacet, isRuuid, newRuuid } from '../../ids.js';
import { fromJson, toJson } from '../../store/columns.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import type { WriteScope } from '../../bus/write.js';
import { isValidTimeZone } from '../schedules/week-minutes.js';
import { digestPin, normaliseMac, PIN_PATTERN, pinMatches } from './identifiers.js';
import { listPins } from './monitoring/store.js';
import * as store from './store.js';
import type { DeviceKind, DevicesTable, DeviceStatus, LocationsTable, ThirdPartyCameraDiscoveriesTable } from './tables.js';
import type { RecordFinder } from '../../records/references.js';
import { orgUuidsIn } from '../../store/org-uuids.js';

/** A location as the REST API returns it (the reference's LocationType, with the fields Gatehouse keeps). */
export interface LocationRecord {
  uuid: string;
  orgUuid: string;
  name: string;
  tz: string;
  address1: string | null;
  address2: string | null;
  city: string | null;
  postalCode: string | null;
  countryCode: string | null;
  latitude: number | null;
  longitude: number | null;
  monitoringPinSet: boolean;
  createdAtMillis: number;
}

/**
 * A device's health details (the catalogue's DeviceHealthStatusDetailsEnum, never null: clients print it):
 * DISCONNECTED when its connection is RED, else NONE, no details known (what makes a health YELLOW is not kept).
 */
export const healthDetailsOf = (device: Pick<DeviceRecord, 'connectionStatus'>) =>
  device.connectionStatus === 'RED' ? ('DISCONNECTED' as const) : ('NONE' as const);

export interface DeviceRecord {
  uuid: string;
  orgUuid: string;
  locationUuid: string | null;
  deviceType: DeviceKind;
  name: string;
  serialNumber: string | null;
  firmwareVersion: string | null;
  connectionStatus: DeviceStatus;
  healthStatus: DeviceStatus;
  macAddress: string | null;
  /** What differs by kind: `thresholds` of an environmental sensor, `floor` of an elevator landing. */
  attributes: Record<string, unknown>;
  createdAtMillis: number;
  updatedAtMillis: number;
}

export interface DiscoveryRecord {
  orgUuid: string;
  thirdPartyCameraMacAddress: string;
  assignments: number;
  createdAtMillis: number;
}

export function toLocationRecord(row: LocationsTable): LocationRecord {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    name: row.name,
    tz: row.time_zone,
    address1: row.address1,
    address2: row.address2,
    city: row.city,
    postalCode: row.postal_code,
    countryCode: row.country_code,
    latitude: row.latitude,
    longitude: row.longitude,
    monitoringPinSet: row.monitoring_pin_digest !== null,
    createdAtMillis: row.created_at_ms,
  };
}

export function toDeviceRecord(row: DevicesTable): DeviceRecord {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    locationUuid: row.location_uuid,
    deviceType: row.kind,
    name: row.name,
    serialNumber: row.serial_number,
    firmwareVersion: row.firmware_version,
    connectionStatus: row.connection_status,
    healthStatus: row.health_status,
    macAddress: row.mac_address,
    attributes: fromJson<Record<string, unknown>>(row.attributes) ?? {},
    createdAtMillis: row.created_at_ms,
    updatedAtMillis: row.updated_at_ms,
  };
}

export function toDiscoveryRecord(row: ThirdPartyCameraDiscoveriesTable): DiscoveryRecord {
  return { orgUuid: row.org_uuid, thirdPartyCameraMacAddress: row.mac_address, assignments: row.assignments, createdAtMillis: row.created_at_ms };
}

export interface LocationInput {
  name: string;
  timeZone: string;
  monitoringPin?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  postalCode?: string | null;
  countryCode?: string | null;
  latitude?: number | null;
  longitude?: number | null;
}

/** Creates a location of the writer's organization. */
export async function createLocation(w: WriteScope, input: LocationInput): Promise<LocationRecord> {
  if (!isValidTimeZone(input.timeZone)) throw fail('INVALID_VALUE', `timeZone: "${input.timeZone}" is not a known time zone`);
  if (input.monitoringPin != null && !PIN_PATTERN.test(input.monitoringPin)) throw fail('INVALID_VALUE', 'monitoringPin: must be 4 to 8 digits');
  const row: LocationsTable = {
    uuid: newRuuid(),
    org_uuid: w.actor.orgUuid,
    name: input.name,
    time_zone: input.timeZone,
    monitoring_pin_digest: input.monitoringPin != null ? digestPin(input.monitoringPin) : null,
    address1: input.address1 ?? null,
    address2: input.address2 ?? null,
    city: input.city ?? null,
    postal_code: input.postalCode ?? null,
    country_code: input.countryCode ?? null,
    latitude: input.latitude ?? null,
    longitude: input.longitude ?? null,
    created_at_ms: w.nowMs,
    updated_at_ms: w.nowMs,
  };
  await store.insertLocation(w.tx, row);
  const record = toLocationRecord(row);
  w.change({ entity: 'LOCATION', entityUuid: row.uuid, type: 'CREATE', update: record });
  return record;
}

export interface DeviceInput {
  kind: DeviceKind;
  name: string;
  /** A location of the writer's organization, checked by the caller. */
  locationUuid: string | null;
  serialNumber?: string | null;
  firmwareVersion?: string | null;
  connectionStatus?: DeviceStatus;
  healthStatus?: DeviceStatus;
  macAddress?: string | null;
  attributes?: Record<string, unknown>;
}

/** Creates a device of any kind; the change event's entity is the kind (CAMERA, BUTTON, ...). */
function deviceRow(w: WriteScope, input: DeviceInput): DevicesTable {
  const mac = input.macAddress != null ? normaliseMac(input.macAddress) : null;
  if (input.macAddress != null && !mac) throw fail('INVALID_VALUE', `macAddress: "${input.macAddress}" is not a MAC address`);
  return {
    uuid: newRuuid(),
    org_uuid: w.actor.orgUuid,
    location_uuid: input.locationUuid,
    kind: input.kind,
    name: input.name,
    serial_number: input.serialNumber ?? null,
    firmware_version: input.firmwareVersion ?? null,
    connection_status: input.connectionStatus ?? 'GREEN',
    health_status: input.healthStatus ?? 'GREEN',
    mac_address: mac,
    attributes: toJson(input.attributes ?? {})!,
    created_at_ms: w.nowMs,
    updated_at_ms: w.nowMs,
  };
}

function announceDevice(w: WriteScope, row: DevicesTable): DeviceRecord {
  const record = toDeviceRecord(row);
  w.change({ entity: row.kind, entityUuid: row.uuid, deviceUuid: row.uuid, type: 'CREATE', update: record });
  return record;
}

export async function createDevice(w: WriteScope, input: DeviceInput): Promise<DeviceRecord> {
  const row = deviceRow(w, input);
  await store.insertDevice(w.tx, row);
  return announceDevice(w, row);
}

/** Creates many devices in the write, in as few statements as the store's bind-parameter limit allows (site files). */
export async function createDevices(w: WriteScope, inputs: readonly DeviceInput[]): Promise<DeviceRecord[]> {
  const rows = inputs.map((input) => deviceRow(w, input));
  await store.insertDevices(w.tx, rows);
  return rows.map((row) => announceDevice(w, row));
}

/**
 * Brings a device to the fields an input gives (a site file seeded again): its location always, the other
 * fields when given, attributes merged over its own. An input that changes nothing writes nothing.
 */
export async function reviseDevice(w: WriteScope, current: DeviceRecord, input: DeviceInput): Promise<DeviceRecord> {
  const mac = input.macAddress != null ? normaliseMac(input.macAddress) : undefined;
  if (mac === null) throw fail('INVALID_VALUE', `macAddress: "${input.macAddress}" is not a MAC address`);
  const patch: store.DevicePatch = {};
  if (input.locationUuid !== current.locationUuid) patch.location_uuid = input.locationUuid;
  if (input.serialNumber != null && input.serialNumber !== current.serialNumber) patch.serial_number = input.serialNumber;
  if (input.firmwareVersion != null && input.firmwareVersion !== current.firmwareVersion) patch.firmware_version = input.firmwareVersion;
  if (input.connectionStatus !== undefined && input.connectionStatus !== current.connectionStatus) patch.connection_status = input.connectionStatus;
  if (input.healthStatus !== undefined && input.healthStatus !== current.healthStatus) patch.health_status = input.healthStatus;
  if (mac !== undefined && mac !== current.macAddress) patch.mac_address = mac;
  const attributes = { ...current.attributes, ...input.attributes };
  if (JSON.stringify(attributes) !== JSON.stringify(current.attributes)) patch.attributes = toJson(attributes)!;
  if (Object.keys(patch).length === 0) return current;
  await store.updateDevice(w.tx, current.orgUuid, current.uuid, { ...patch, updated_at_ms: w.nowMs });
  const record = toDeviceRecord((await store.findDevice(w.tx, current.orgUuid, current.uuid))!);
  w.change({ entity: record.deviceType, entityUuid: record.uuid, deviceUuid: record.uuid, type: 'UPDATE', update: record });
  return record;
}

/** Records a third-party camera discovery; the MAC address is stored normalised. */
export async function createDiscovery(w: WriteScope, input: { macAddress: string; assignments?: number }): Promise<DiscoveryRecord> {
  const mac = normaliseMac(input.macAddress);
  if (!mac) throw fail('INVALID_VALUE', `macAddress: "${input.macAddress}" is not a MAC address`);
  if (await store.findDiscovery(w.tx, w.actor.orgUuid, mac)) throw fail('CONFLICT', `A discovery of ${mac} already exists`);
  const row = { org_uuid: w.actor.orgUuid, mac_address: mac, assignments: input.assignments ?? 0, created_at_ms: w.nowMs };
  await store.insertDiscovery(w.tx, row);
  const record = toDiscoveryRecord(row);
  w.change({ entity: 'THIRD_PARTY_CAMERA_DISCOVERY', entityUuid: mac, type: 'CREATE', update: record });
  return record;
}

/** A device of the organization (of one of `kinds`, when given); null for a missing one or another organization's. */
export async function findDevice(source: ReadSource, orgUuid: string, uuid: string, kinds?: readonly DeviceKind[]): Promise<DeviceRecord | null> {
  const row = await store.findDevice(dbOf(source), orgUuid, uuid);
  if (!row || (kinds && kinds.length > 0 && !kinds.includes(row.kind))) return null;
  return toDeviceRecord(row);
}

/** The organization's devices (of one of `kinds`, when given) among the uuids, in one query: uuid -> device. */
export async function findDevices(
  source: ReadSource,
  orgUuid: string,
  uuids: readonly string[],
  kinds?: readonly DeviceKind[],
): Promise<Map<string, DeviceRecord>> {
  const rows = await store.findDevices(dbOf(source), orgUuid, [...new Set(uuids)]);
  return new Map(rows.filter((row) => !kinds || kinds.length === 0 || kinds.includes(row.kind)).map((row) => [row.uuid, toDeviceRecord(row)]));
}

/**
 * The devices a filter names, by uuid or facet id (`<uuid>.v0`), each of the organization (in one query): their
 * uuids, or null when none is named. A missing one, or another organization's, is `Device <ref> not found`.
 */
export async function devicesNamed(source: ReadSource, orgUuid: string, refs: readonly string[] | null | undefined): Promise<string[] | null> {
  if (!refs || refs.length === 0) return null;
  const uuidOf = (ref: string) => (isRuuid(ref) ? ref : deviceOfFacet(ref));
  const found = await findDevices(
    source,
    orgUuid,
    refs.map(uuidOf).filter((u): u is string => u !== null),
  );
  return refs.map((ref) => {
    const device = found.get(uuidOf(ref) ?? '');
    if (!device) throw fail('NOT_FOUND', `Device ${ref}`);
    return device.uuid;
  });
}

export async function listDevices(source: ReadSource, orgUuid: string, kinds?: readonly DeviceKind[]): Promise<DeviceRecord[]> {
  return (await store.listDevices(dbOf(source), orgUuid, kinds)).map(toDeviceRecord);
}

/** The organization's devices of some kinds at a location, by uuid. */
export async function listDevicesAt(source: ReadSource, orgUuid: string, locationUuid: string, kinds: readonly DeviceKind[]): Promise<DeviceRecord[]> {
  return (await store.listDevicesAt(dbOf(source), orgUuid, locationUuid, kinds)).map(toDeviceRecord);
}

/** A location of the organization, with its time zone; null for a missing one or another organization's. */
export async function findLocation(source: ReadSource, orgUuid: string, uuid: string): Promise<LocationRecord | null> {
  const row = await store.findLocation(dbOf(source), orgUuid, uuid);
  return row ? toLocationRecord(row) : null;
}

/** The record finder of kind location (src/records/references.ts). */
export const findLocationUuids: RecordFinder = (source, orgUuid, uuids) => orgUuidsIn(dbOf(source), 'locations', orgUuid, uuids);
/** The record finder of kind device: a device of any kind. */
export const findDeviceUuids: RecordFinder = (source, orgUuid, uuids) => orgUuidsIn(dbOf(source), 'devices', orgUuid, uuids);
/** The record finder of kind camera: a device that is a camera. */
export const findCameraUuids: RecordFinder = async (source, orgUuid, uuids) => new Set((await findDevices(source, orgUuid, uuids, ['CAMERA'])).keys());

export async function listLocations(source: ReadSource, orgUuid: string): Promise<LocationRecord[]> {
  return (await store.listLocations(dbOf(source), orgUuid)).map(toLocationRecord);
}

/** A discovery of the organization by MAC address in any spelling; null when there is none (or the MAC is invalid). */
export async function findDiscovery(source: ReadSource, orgUuid: string, macAddress: string): Promise<DiscoveryRecord | null> {
  const mac = normaliseMac(macAddress);
  const row = mac ? await store.findDiscovery(dbOf(source), orgUuid, mac) : undefined;
  return row ? toDiscoveryRecord(row) : null;
}

export async function listDiscoveries(source: ReadSource, orgUuid: string): Promise<DiscoveryRecord[]> {
  return (await store.listDiscoveries(dbOf(source), orgUuid)).map(toDiscoveryRecord);
}

/**
 * Whether `pin` is one of the location's monitoring pins: its own or one of its custom pins (false when it has
 * none); null for a location the organization lacks.
 */
export async function monitoringPinMatches(source: ReadSource, orgUuid: string, locationUuid: string, pin: string): Promise<boolean | null> {
  const row = await store.findLocation(dbOf(source), orgUuid, locationUuid);
  if (!row) return null;
  if (pinMatches(pin, row.monitoring_pin_digest)) return true;
  return (await listPins(dbOf(source), orgUuid, locationUuid)).some((p) => pinMatches(pin, p.pin_digest));
}

/**
 * A device by UUID alone, whatever its organization: for the control API only (the simulator names a
 * device by its UUID and acts as that device, in its organization). Never for API callers.
 */
export async function findDeviceOfAnyOrg(source: ReadSource, uuid: string): Promise<DeviceRecord | null> {
  const row = await store.findDeviceOfAnyOrg(dbOf(source), uuid);
  return row ? toDeviceRecord(row) : null;
}

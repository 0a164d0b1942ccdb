import { createHash } from 'node:crypto';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import * as store from './store.js';
import type { HardwareTable } from './tables.js';
import type { PlatformDeviceType } from '../../../schemas/device-types.js';
import type { RecordCleaner } from '../../../records/references.js';

/*
 * Hardware reaches an organization in a shipment: the operator issues it (`gatehouse shipment issue`), with a
 * token that the organization claims once (claimShipmentRegistrationToken, claimActivationToken). Its units then
 * wait to come online, each with or without a pending registration (a name, a location, a policy, Wi-Fi); when one
 * comes online (devices/pending-registration.ts) it registers as a device of the organization with what its
 * pending registration says, and the pending registration goes.
 */

type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** A unit with no pending registration. */
const NO_PENDING = {
  pending_at_ms: null,
  pending_name: null,
  pending_location_uuid: null,
  pending_policy_uuid: null,
  pending_wifi_ssid: null,
  pending_wifi_psk_sealed: null,
} as const;

/** The platform's device types (PLATFORM_DEVICE_TYPES) of which a unit can be shipped: those Gatehouse registers as devices. */
export const SHIPPABLE_TYPES = [
  'CAMERA',
  'AUDIO_GATEWAY',
  'ENVIRONMENTAL_SENSOR',
  'ENVIRONMENTAL_GATEWAY',
  'DOOR_SENSOR',
  'OCCUPANCY_SENSOR',
  'BLE_TRACKER',
  'BADGE_READER',
  'DOOR_CONTROLLER',
  'BLE_BUTTON',
  'NVR',
] as const satisfies readonly PlatformDeviceType[];
export type ShippableType = (typeof SHIPPABLE_TYPES)[number];

/** What a pending registration gives the device its unit becomes. */
export interface PendingRegistrationInfo {
  name: string | null;
  locationUuid: string | null;
  policyUuid: string | null;
}

/** A unit of hardware as the registration operations answer it and the stream carries it (never its Wi-Fi key). */
export interface HardwareRecord {
  uuid: string;
  orgUuid: string | null;
  serialNumber: string;
  mac: string | null;
  type: ShippableType;
  /** Left out while unknown: the catalogue's hardware variation is an enum, not nullable. */
  hwVariation?: string;
  deviceUuid: string | null;
  pendingRegistrationOrgUuid: string | null;
  manufacturedAtMillis: number;
  pendingRegistrationInfo: PendingRegistrationInfo | null;
}

export const toHardwareRecord = (row: HardwareTable): HardwareRecord => ({
  uuid: row.uuid,
  orgUuid: row.org_uuid,
  serialNumber: row.serial_number,
  mac: row.mac_address,
  type: row.device_type as ShippableType,
  ...(row.hw_variation === null ? {} : { hwVariation: row.hw_variation }),
  deviceUuid: row.device_uuid,
  pendingRegistrationOrgUuid: row.pending_at_ms === null ? null : row.org_uuid,
  manufacturedAtMillis: row.manufactured_at_ms,
  pendingRegistrationInfo:
    row.pending_at_ms === null ? null : { name: row.pending_name, locationUuid: row.pending_location_uuid, policyUuid: row.pending_policy_uuid },
});

/** Tokens are kept as digests: whoever reads the store cannot claim a shipment with them. */
const digestOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('base64url').slice(0, 22);

export interface ShipmentUnit {
  serialNumber: string;
  type: ShippableType;
  hwVariation?: string | null;
  mac?: string | null;
}

/** The operator issues a shipment of units (`gatehouse shipment issue`): its token is answered this once. */
export async function issueShipment(deps: Pick<Deps, 'store' | 'clock'>, units: readonly ShipmentUnit[]) {
  if (units.length === 0) throw fail('INVALID_VALUE', 'a shipment holds at least one unit');
  const serials = new Set(units.map((u) => u.serialNumber));
  if (serials.size !== units.length) throw fail('INVALID_VALUE', 'serial numbers: each unit has its own');
  const token = newRuuid();
  const nowMs = deps.clock.now();
  const shipment = { uuid: newRuuid(), token_digest: digestOf(token), claimed_org_uuid: null, claimed_at_ms: null, created_at_ms: nowMs };
  const rows: HardwareTable[] = units.map((u) => ({
    uuid: newRuuid(),
    shipment_uuid: shipment.uuid,
    serial_number: u.serialNumber,
    mac_address: u.mac ?? null,
    device_type: u.type,
    hw_variation: u.hwVariation ?? null,
    org_uuid: null,
    device_uuid: null,
    ...NO_PENDING,
    manufactured_at_ms: nowMs,
  }));
  // No organization owns the shipment yet: nothing to announce, one transaction all the same.
  await deps.store.transaction(async (tx) => {
    const [taken] = await store.findShippedSerials(tx, [...serials]);
    if (taken) throw fail('CONFLICT', `Serial number ${taken} is shipped already`);
    await store.insertShipment(tx, shipment, rows);
  });
  return { token, shipmentUuid: shipment.uuid, hardware: rows.map(toHardwareRecord) };
}

const TOKEN_CLAIMED = 'The shipment registration token has been claimed already';

/** peekShipmentRegistrationToken: the units a token's shipment holds, without claiming it. */
export async function peekShipment(deps: Pick<Deps, 'store'>, token: string): Promise<string[]> {
  const shipment = await store.findShipmentByToken(deps.store.db, digestOf(token));
  if (!shipment) throw fail('NOT_FOUND', 'Shipment registration token');
  if (shipment.claimed_at_ms !== null) throw fail('CONFLICT', TOKEN_CLAIMED);
  return (await store.listShipmentHardware(deps.store.db, shipment.uuid)).map((h) => h.uuid);
}

/**
 * Claims a token's shipment once: its units become the organization's, each with the pending registration
 * `registrations` gives it (from the units, in serial-number order), or none. A second claim is refused.
 */
async function claimShipment(
  deps: WriteDeps,
  ctx: CallerContext,
  token: string,
  registrations: (units: HardwareTable[]) => Map<string, PendingRegistrationInfo>,
): Promise<void> {
  await write(deps, ctx, async (w) => {
    const shipment = await store.findShipmentByToken(w.tx, digestOf(token));
    if (!shipment) throw fail('NOT_FOUND', 'Shipment registration token');
    const units = await store.listShipmentHardware(w.tx, shipment.uuid);
    const pending = registrations(units);
    if (!(await store.claimShipment(w.tx, shipment.uuid, ctx.orgUuid, w.nowMs))) throw fail('CONFLICT', TOKEN_CLAIMED);
    await store.updateHardware(
      w.tx,
      units.filter((u) => !pending.has(u.uuid)).map((u) => u.uuid),
      { org_uuid: ctx.orgUuid },
    );
    for (const [uuid, info] of pending) await store.updateHardware(w.tx, [uuid], { org_uuid: ctx.orgUuid, ...pendingColumns(w, info) });
    await announce(
      w,
      'CREATE',
      units.map((u) => u.uuid),
    );
  });
}

const pendingColumns = (w: WriteScope, info: PendingRegistrationInfo) => ({
  pending_at_ms: w.nowMs,
  pending_name: info.name,
  pending_location_uuid: info.locationUuid,
  pending_policy_uuid: info.policyUuid,
});

/** Reads the units back and announces each as the stream carries it. */
async function announce(w: WriteScope, type: 'CREATE' | 'UPDATE', uuids: readonly string[]): Promise<void> {
  for (const row of await store.listOrgHardware(w.tx, w.actor.orgUuid, uuids))
    w.change({ entity: 'HARDWARE', entityUuid: row.uuid, type, update: toHardwareRecord(row) });
}

export interface DeviceClaim {
  hardwareUuid?: string | null;
  deviceName?: string | null;
  locationUuid?: string | null;
  policyUuid?: string | null;
}

/** claimShipmentRegistrationToken: each claim names a unit of the shipment and gives it a pending registration. */
export async function claimShipmentToken(deps: WriteDeps, ctx: CallerContext, input: { tokenUuid: string; claimList?: DeviceClaim[] | null }) {
  await claimShipment(deps, ctx, input.tokenUuid, (units) => {
    const known = new Set(units.map((u) => u.uuid));
    const pending = new Map<string, PendingRegistrationInfo>();
    (input.claimList ?? []).forEach((claim, i) => {
      if (!claim.hardwareUuid || !known.has(claim.hardwareUuid))
        throw fail('INVALID_VALUE', `claimList[${i}].hardwareUuid: ${claim.hardwareUuid ?? 'missing'} is no unit of this shipment`);
      pending.set(claim.hardwareUuid, { name: claim.deviceName ?? null, locationUuid: claim.locationUuid ?? null, policyUuid: claim.policyUuid ?? null });
    });
    return pending;
  });
}

/**
 * claimActivationToken: the token (a shipment's) claims every unit of the shipment with a pending registration
 * named `name` (numbered when the shipment holds more than one).
 */
export async function claimActivationToken(deps: WriteDeps, ctx: CallerContext, input: { activationToken: string; name?: string | null }) {
  await claimShipment(
    deps,
    ctx,
    input.activationToken,
    (units) =>
      new Map(
        units.map((u, i) => [
          u.uuid,
          { name: input.name ? (units.length > 1 ? `${input.name} ${i + 1}` : input.name) : null, locationUuid: null, policyUuid: null },
        ]),
      ),
  );
}

/** The organization's units waiting to come online with a pending registration (true) or without one (false). */
export async function listWaitingHardware(source: ReadSource, orgUuid: string, pending: boolean): Promise<HardwareRecord[]> {
  return (await store.listWaitingHardware(dbOf(source), orgUuid, pending)).map(toHardwareRecord);
}

/** A unit of the organization that has not come online yet, by its serial number or uuid; NOT_FOUND otherwise. */
async function waitingUnit(w: WriteScope, by: { uuid: string } | { serialNumber: string }): Promise<HardwareTable> {
  const row = await store.findOrgHardware(w.tx, w.actor.orgUuid, by);
  const named = 'uuid' in by ? `Hardware ${by.uuid}` : `Hardware with serial number ${by.serialNumber}`;
  if (!row) throw fail('NOT_FOUND', named);
  if (row.device_uuid) throw fail('CONFLICT', `${named} is registered already`);
  return row;
}

export interface CreatePendingInput {
  serialNumber: string;
  locationUuid?: string | null;
  wifiSsid?: string | null;
  wifiPsk?: string[] | null;
}

/** createPendingRegistration: a unit of the organization waits to come online at a location (its Wi-Fi key sealed). */
export async function createPendingRegistration(deps: WriteDeps & Pick<Deps, 'secrets'>, ctx: CallerContext, input: CreatePendingInput): Promise<void> {
  await write(deps, ctx, async (w) => {
    const unit = await waitingUnit(w, { serialNumber: input.serialNumber });
    if (unit.pending_at_ms !== null) throw fail('CONFLICT', `Hardware with serial number ${input.serialNumber} has a pending registration already`);
    await store.updateHardware(w.tx, [unit.uuid], {
      ...pendingColumns(w, { name: null, locationUuid: input.locationUuid ?? null, policyUuid: null }),
      pending_wifi_ssid: input.wifiSsid ?? null,
      pending_wifi_psk_sealed: input.wifiPsk?.length ? deps.secrets.seal(JSON.stringify(input.wifiPsk), `hardware:${unit.uuid}:wifiPsk`) : null,
    });
    await announce(w, 'UPDATE', [unit.uuid]);
  });
}

/** updatePendingRegistration: changes the fields given (null or absent: unchanged) of a unit's pending registration. */
export async function updatePendingRegistration(
  deps: WriteDeps,
  ctx: CallerContext,
  input: { hardwareUuid: string } & { [K in keyof PendingRegistrationInfo]?: string | null },
): Promise<void> {
  await write(deps, ctx, async (w) => {
    const unit = await waitingUnit(w, { uuid: input.hardwareUuid });
    if (unit.pending_at_ms === null) throw fail('NOT_FOUND', `Pending registration of hardware ${input.hardwareUuid}`);
    await store.updateHardware(w.tx, [unit.uuid], {
      pending_name: input.name ?? unit.pending_name,
      pending_location_uuid: input.locationUuid ?? unit.pending_location_uuid,
      pending_policy_uuid: input.policyUuid ?? unit.pending_policy_uuid,
    });
    await announce(w, 'UPDATE', [unit.uuid]);
  });
}

/** removePendingRegistration: the unit stays the organization's, available for another pending registration. */
export async function removePendingRegistration(deps: WriteDeps, ctx: CallerContext, input: { serialNumber: string }): Promise<void> {
  await write(deps, ctx, async (w) => {
    const unit = await waitingUnit(w, { serialNumber: input.serialNumber });
    if (unit.pending_at_ms === null) throw fail('NOT_FOUND', `Pending registration of serial number ${input.serialNumber}`);
    await store.updateHardware(w.tx, [unit.uuid], NO_PENDING);
    await announce(w, 'UPDATE', [unit.uuid]);
  });
}

/** A unit's pending registration, for the device domain when the unit comes online. */
export interface PendingRegistration extends PendingRegistrationInfo {
  hardwareUuid: string;
  orgUuid: string;
  serialNumber: string;
  type: ShippableType;
  mac: string | null;
}

/** The pending registration of the unit with this serial number, in whichever organization holds it; null if none. */
export async function findPendingRegistration(source: ReadSource, serialNumber: string): Promise<PendingRegistration | null> {
  const row = await store.findPendingBySerial(dbOf(source), serialNumber);
  if (!row) return null;
  const record = toHardwareRecord(row);
  return {
    ...record.pendingRegistrationInfo!,
    hardwareUuid: row.uuid,
    orgUuid: row.org_uuid!,
    serialNumber: row.serial_number,
    type: record.type,
    mac: row.mac_address,
  };
}

/** In the write that registers the unit as `deviceUuid` (of the actor's organization): its pending registration goes. */
export async function completePendingRegistration(w: WriteScope, hardwareUuid: string, deviceUuid: string): Promise<void> {
  await store.updateHardware(w.tx, [hardwareUuid], { ...NO_PENDING, device_uuid: deviceUuid });
  await announce(w, 'UPDATE', [hardwareUuid]);
}

/** A deleted location leaves the pending registrations that named it (`deps.recordCleaners.location`): each is announced. */
export const registrationsForgetLocation: RecordCleaner = async (w, locationUuid) => {
  const uuids = await store.listPendingAtLocation(w.tx, w.actor.orgUuid, locationUuid);
  await store.updateHardware(w.tx, uuids, { pending_location_uuid: null });
  await announce(w, 'UPDATE', uuids);
};

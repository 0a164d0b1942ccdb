import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { newRuuid } from '../../ids.js';
import { fromJson, toJson } from '../../store/columns.js';
import { write, type WriteScope } from '../../bus/write.js';
import { normaliseMac } from '../devices/identifiers.js';
import { createDevice, findLocation } from '../devices/service.js';
import { clientOf } from '../orgs/partners/service.js';
import { asPartner, partnerOf } from '../orgs/partners/grants.js';
import { listClients, type PartnerClientRecord } from './service.js';
import * as store from './store.js';
import type { PartnerHardwareTable } from './tables.js';

/** A piece of the partner's hardware as the stream carries it (the Wi-Fi key never: only whether one is set). */
export interface PartnerHardwareRecord {
  uuid: string;
  orgUuid: string;
  serialNumber: string;
  macAddress: string | null;
  deviceType: string;
  deviceModel: string;
  clientOrgUuid: string | null;
  deviceUuid: string | null;
  wifiSsid: string | null;
  wifiPskSet: boolean;
  createdAtMillis: number;
  registeredAtMillis: number | null;
}

/** A deal the partner registered, as getDeals answers it and the stream carries it. */
export interface PartnerDealRecord {
  uuid: string;
  orgUuid: string;
  details: Record<string, string>;
  createdAtMillis: number;
}

const toHardwareRecord = (r: PartnerHardwareTable): PartnerHardwareRecord => ({
  uuid: r.uuid,
  orgUuid: r.partner_org_uuid,
  serialNumber: r.serial_number,
  macAddress: r.mac_address,
  deviceType: r.device_type,
  deviceModel: r.device_model,
  clientOrgUuid: r.client_org_uuid,
  deviceUuid: r.device_uuid,
  wifiSsid: r.wifi_ssid,
  wifiPskSet: r.wifi_psk_sealed !== null,
  createdAtMillis: r.created_at_ms,
  registeredAtMillis: r.registered_at_ms,
});

export interface HardwareInput {
  serialNumber: string;
  macAddress?: string | null;
  deviceType?: string;
  deviceModel?: string;
}

/**
 * Adds hardware to the writer's (the partner's) inventory (a site file's `partnerHardware`). A serial number
 * already in this inventory is kept as it is; one in another partner's is refused.
 */
export async function addPartnerHardware(w: WriteScope, input: HardwareInput): Promise<PartnerHardwareRecord> {
  const partner = w.actor.orgUuid;
  const [held] = await store.findHardwareBySerial(w.tx, [input.serialNumber]);
  if (held?.partner_org_uuid === partner) return toHardwareRecord(held);
  if (held) throw fail('CONFLICT', `Serial number ${input.serialNumber} is in another partner's inventory`);
  const mac = input.macAddress != null ? normaliseMac(input.macAddress) : null;
  if (input.macAddress != null && !mac) throw fail('INVALID_VALUE', `macAddress: "${input.macAddress}" is not a MAC address`);
  const row: PartnerHardwareTable = {
    uuid: newRuuid(),
    partner_org_uuid: partner,
    serial_number: input.serialNumber,
    mac_address: mac,
    device_type: input.deviceType ?? 'CAMERA',
    device_model: input.deviceModel ?? 'UNSPECIFIED',
    wifi_ssid: null,
    wifi_psk_sealed: null,
    client_org_uuid: null,
    device_uuid: null,
    created_at_ms: w.nowMs,
    registered_at_ms: null,
  };
  await store.insertHardware(w.tx, row);
  const record = toHardwareRecord(row);
  w.change({ entity: 'PARTNER_HARDWARE', entityUuid: row.uuid, type: 'CREATE', update: record });
  return record;
}

/** getListOfAvailableHardware: the partner's hardware that no client has yet. */
export async function availableHardware(deps: Pick<Deps, 'store'>, ctx: CallerContext) {
  return (await store.listAvailableHardware(deps.store.db, partnerOf(ctx))).map((r) => ({
    serialNumber: r.serial_number,
    macAddress: r.mac_address,
    deviceType: r.device_type,
    deviceModel: r.device_model,
  }));
}

export interface RegisterCameraInput {
  orgUuid: string;
  serialNumber: string;
  locationUuid?: string | null;
  wifiSsid?: string | null;
  wifiPsk?: string[] | null;
}

/**
 * registerCameraToClient: a camera of the partner's inventory becomes a camera of one of its clients (at one of
 * the client's locations), in one write: the device is created in the client (announced there, so it shows in
 * the client's camera lists) and the inventory marks it registered (announced to the partner). The Wi-Fi key
 * is kept sealed.
 */
export async function registerCameraToClient(deps: Pick<Deps, 'store' | 'bus' | 'clock' | 'secrets'>, ctx: CallerContext, input: RegisterCameraInput) {
  const client = await clientOf(deps, ctx, input.orgUuid);
  const partner = partnerOf(ctx);
  const serial = input.serialNumber.trim();
  const [hw] = await store.findHardwareBySerial(deps.store.db, [serial]);
  if (!hw || hw.partner_org_uuid !== partner) throw fail('NOT_FOUND', `Hardware with serial number ${serial}`);
  if (hw.client_org_uuid) throw fail('CONFLICT', `Hardware ${serial} is already registered to a client`);
  if (hw.device_type !== 'CAMERA') throw fail('INVALID_VALUE', `serialNumber: hardware ${serial} is a ${hw.device_type}, not a camera`);
  if (input.locationUuid && !(await findLocation(deps, client.orgUuid, input.locationUuid))) throw fail('NOT_FOUND', 'Location');
  const psk = input.wifiPsk?.join('') || null;
  await write(deps, client, async (w) => {
    const device = await createDevice(w, {
      kind: 'CAMERA',
      name: `${hw.device_model === 'UNSPECIFIED' ? 'Camera' : hw.device_model} ${serial}`,
      locationUuid: input.locationUuid ?? null,
      serialNumber: serial,
      macAddress: hw.mac_address,
    });
    const wifiSsid = input.wifiSsid?.trim() || null;
    const wifiPskSealed = psk ? deps.secrets.seal(psk, `partner-hardware:${hw.uuid}:wifiPsk`) : null;
    if (
      !(await store.markHardwareRegistered(w.tx, hw.uuid, { clientOrgUuid: client.orgUuid, deviceUuid: device.uuid, wifiSsid, wifiPskSealed, nowMs: w.nowMs }))
    )
      throw fail('CONFLICT', `Hardware ${serial} is already registered to a client`);
    const registered = {
      ...hw,
      client_org_uuid: client.orgUuid,
      device_uuid: device.uuid,
      wifi_ssid: wifiSsid,
      wifi_psk_sealed: wifiPskSealed,
      registered_at_ms: w.nowMs,
    };
    w.change({ entity: 'PARTNER_HARDWARE', entityUuid: hw.uuid, type: 'UPDATE', update: toHardwareRecord(registered), orgUuid: partner });
  });
}

/** registerDeal: keeps the deal's details for the partner, announced to it; answers the partner's clients. */
export async function registerDeal(
  deps: Pick<Deps, 'store' | 'bus' | 'clock'>,
  ctx: CallerContext,
  details: Record<string, string> | null | undefined,
): Promise<PartnerClientRecord[]> {
  const entries = Object.entries(details ?? {}).filter(([k, v]) => k.trim() && v.trim());
  if (entries.length === 0) throw fail('INVALID_VALUE', 'details: give the deal at least one detail');
  const partner = partnerOf(ctx);
  await write(deps, asPartner(ctx), async (w) => {
    const row = { uuid: newRuuid(), partner_org_uuid: partner, details: toJson(Object.fromEntries(entries))!, created_at_ms: w.nowMs };
    await store.insertDeal(w.tx, row);
    w.change({ entity: 'PARTNER_DEAL', entityUuid: row.uuid, type: 'CREATE', update: toDealRecord(row) });
  });
  return listClients(deps, ctx);
}

const toDealRecord = (r: { uuid: string; partner_org_uuid: string; details: string; created_at_ms: number }): PartnerDealRecord => ({
  uuid: r.uuid,
  orgUuid: r.partner_org_uuid,
  details: fromJson<Record<string, string>>(r.details)!,
  createdAtMillis: r.created_at_ms,
});

/** The most deals getDeals answers. */
export const DEALS_MAX = 1000;

/** getDeals (Gatehouse): the deals the partner registered, newest first. */
export async function listDeals(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<PartnerDealRecord[]> {
  return (await store.listDeals(deps.store.db, partnerOf(ctx), DEALS_MAX)).map(toDealRecord);
}

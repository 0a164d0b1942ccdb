import { randomInt } from 'node:crypto';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { fromDbBool } from '../../../store/columns.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { digestPin } from '../identifiers.js';
import * as monitoring from './store.js';
import { findLocation, listLocations, monitoringPinMatches, type LocationRecord } from '../service.js';
import type { LocationMonitoringTable } from '../tables.js';
import * as store from '../store.js';

type MonitoringDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** The reference's MonitoringEnableStatus, with the fields Gatehouse keeps. */
/** The LOCATION change that monitoring being enabled or disabled announces. */
export interface LocationMonitoringChange {
  locationUuid: string;
  status: MonitoringStatus;
}

export interface MonitoringStatus {
  enabled: boolean;
  enabledOnMs: number | null;
  disabledOnMs: number | null;
  notEnabledReason: string | null;
}

async function callersLocation(source: ReadSource, ctx: CallerContext, locationUuid: string): Promise<LocationRecord> {
  const location = await findLocation(source, ctx.orgUuid, locationUuid);
  if (!location) throw fail('NOT_FOUND', 'Location');
  return location;
}

async function statusOf(source: ReadSource, location: LocationRecord): Promise<MonitoringStatus> {
  return statusFrom(location, await monitoring.findMonitoring(dbOf(source), location.uuid));
}

function statusFrom(location: LocationRecord, row: LocationMonitoringTable | undefined): MonitoringStatus {
  const enabled = fromDbBool(row?.enabled) ?? false;
  const reason = enabled ? null : location.monitoringPinSet ? 'monitoring is disabled' : 'the location has no monitoring pin';
  return { enabled, enabledOnMs: row?.enabled_on_ms ?? null, disabledOnMs: row?.disabled_on_ms ?? null, notEnabledReason: reason };
}

/** Whether alert monitoring is on at a location of the organization (an alert there opens a threat case). */
export async function monitoringEnabled(source: ReadSource, orgUuid: string, locationUuid: string): Promise<boolean> {
  const location = await findLocation(source, orgUuid, locationUuid);
  return location !== null && (await statusOf(source, location)).enabled;
}

/** `orgStatus`: the monitoring status of every location of the caller's organization, by location uuid. */
export async function orgStatus(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<Record<string, MonitoringStatus>> {
  const rows = new Map((await monitoring.listMonitoring(deps.store.db, ctx.orgUuid)).map((row) => [row.location_uuid, row]));
  return Object.fromEntries((await listLocations(deps, ctx.orgUuid)).map((location) => [location.uuid, statusFrom(location, rows.get(location.uuid))]));
}

/** `locationStatus`: whether alert monitoring is on at a location of the caller's organization. */
export async function locationStatus(deps: Pick<Deps, 'store'>, ctx: CallerContext, locationUuid: string): Promise<MonitoringStatus> {
  return statusOf(deps, await callersLocation(deps, ctx, locationUuid));
}

/** Monitoring pins are 6 random digits; the location keeps only their digest. */
const newPin = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** `createPinForLocation`: a new monitoring pin for the location, replacing any earlier one; answered once. */
export async function createPinForLocation(deps: MonitoringDeps, ctx: CallerContext, locationUuid: string): Promise<{ pin: string }> {
  const pin = newPin();
  const digest = digestPin(pin);
  await write(deps, ctx, async (w) => {
    const location = await callersLocation(w, ctx, locationUuid);
    await store.updateLocationPinDigest(w.tx, location.uuid, digest, w.nowMs);
    const record = (await findLocation(w, ctx.orgUuid, location.uuid))!;
    w.change({ entity: 'LOCATION', entityUuid: location.uuid, type: 'UPDATE', update: record });
  });
  return { pin };
}

/** Turns monitoring on or off after checking the pin; a location already in that state is left as it is. */
async function setMonitoring(w: WriteScope, ctx: CallerContext, input: { locationUuid: string; pin: string }, enabled: boolean): Promise<MonitoringStatus> {
  const location = await callersLocation(w, ctx, input.locationUuid);
  const hasPin = location.monitoringPinSet || (await monitoring.listPins(w.tx, ctx.orgUuid, location.uuid)).length > 0;
  if (!hasPin) throw fail('NOT_ALLOWED', `Location "${location.name}" has no monitoring pin: create one with createPinForLocation`);
  if (!(await monitoringPinMatches(w, ctx.orgUuid, location.uuid, input.pin))) throw fail('NOT_ALLOWED', "pin: does not match the location's monitoring pin");
  const current = await statusOf(w, location);
  if (current.enabled === enabled) return current;
  await monitoring.saveMonitoring(w.tx, {
    location_uuid: location.uuid,
    org_uuid: ctx.orgUuid,
    enabled: enabled ? 1 : 0,
    enabled_on_ms: enabled ? w.nowMs : current.enabledOnMs,
    disabled_on_ms: enabled ? current.disabledOnMs : w.nowMs,
  });
  const status = await statusOf(w, location);
  w.change({ entity: 'LOCATION', entityUuid: location.uuid, type: 'UPDATE', update: { locationUuid: location.uuid, status } });
  return status;
}

/** `enableMonitoringForLocation`. */
export async function enableMonitoring(deps: MonitoringDeps, ctx: CallerContext, input: { locationUuid: string; pin: string }): Promise<MonitoringStatus> {
  return write(deps, ctx, (w) => setMonitoring(w, ctx, input, true));
}

/** `disableMonitoringForLocation`. */
export async function disableMonitoring(deps: MonitoringDeps, ctx: CallerContext, input: { locationUuid: string; pin: string }): Promise<MonitoringStatus> {
  return write(deps, ctx, (w) => setMonitoring(w, ctx, input, false));
}

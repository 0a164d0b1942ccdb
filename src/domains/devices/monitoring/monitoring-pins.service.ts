import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { digestPin, PIN_PATTERN, pinMatches } from '../identifiers.js';
import { locationStatus } from './service.js';
import * as monitoring from './store.js';
import { findLocation, type LocationRecord } from '../service.js';
import * as store from '../store.js';
import type { AlertMonitoringPinsTable } from '../tables.js';

type PinDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** A custom pin as the stream and the settings show it: never the pin itself. */
export interface AlertMonitoringPinRecord {
  uuid: string;
  orgUuid: string;
  locationUuid: string;
  name: string;
  description: string | null;
  createdAtMillis: number;
}

const toPinRecord = (r: AlertMonitoringPinsTable): AlertMonitoringPinRecord => ({
  uuid: r.uuid,
  orgUuid: r.org_uuid,
  locationUuid: r.location_uuid,
  name: r.name,
  description: r.description,
  createdAtMillis: r.created_at_ms,
});

async function callersLocation(w: WriteScope, locationUuid: string): Promise<LocationRecord> {
  const location = await findLocation(w, w.actor.orgUuid, locationUuid);
  if (!location) throw fail('NOT_FOUND', 'Location');
  return location;
}

/**
 * `createCustomPinForLocation`: another pin that switches the location's monitoring and cancels its threat cases,
 * kept as a salted digest. A pin the location already has (its own or a custom one) is not added twice:
 * the answer says `alreadyExists` and nothing changes.
 */
export async function createCustomPin(
  deps: PinDeps,
  ctx: CallerContext,
  input: { locationUuid: string; name: string; pin: string; description?: string | null },
) {
  if (!PIN_PATTERN.test(input.pin)) throw fail('INVALID_VALUE', 'pin: must be 4 to 8 digits');
  const name = input.name.trim();
  if (!name) throw fail('INVALID_VALUE', 'name: must not be empty');
  return write(deps, ctx, async (w) => {
    const location = await callersLocation(w, input.locationUuid);
    const pins = await monitoring.listPins(w.tx, ctx.orgUuid, location.uuid);
    const own = (await store.findLocation(w.tx, ctx.orgUuid, location.uuid))?.monitoring_pin_digest ?? null;
    if (pinMatches(input.pin, own) || pins.some((p) => pinMatches(input.pin, p.pin_digest))) return { alreadyExists: true };
    const row: AlertMonitoringPinsTable = {
      uuid: newRuuid(),
      org_uuid: ctx.orgUuid,
      location_uuid: location.uuid,
      name,
      description: input.description ?? null,
      pin_digest: digestPin(input.pin),
      created_at_ms: w.nowMs,
    };
    await monitoring.insertPin(w.tx, row);
    w.change({ entity: 'ALERT_MONITORING_PIN', entityUuid: row.uuid, type: 'CREATE', update: toPinRecord(row) });
    return { alreadyExists: false };
  });
}

/** `deletePinForLocation`: the custom pin that matches goes (or, failing one, the location's own pin). */
export async function deletePin(deps: PinDeps, ctx: CallerContext, input: { locationUuid: string; pin: string }): Promise<void> {
  await write(deps, ctx, async (w) => {
    const location = await callersLocation(w, input.locationUuid);
    const custom = (await monitoring.listPins(w.tx, ctx.orgUuid, location.uuid)).find((p) => pinMatches(input.pin, p.pin_digest));
    if (custom) {
      await monitoring.deletePin(w.tx, ctx.orgUuid, custom.uuid);
      w.change({ entity: 'ALERT_MONITORING_PIN', entityUuid: custom.uuid, type: 'DELETE', update: toPinRecord(custom) });
      return;
    }
    const own = (await store.findLocation(w.tx, ctx.orgUuid, location.uuid))?.monitoring_pin_digest ?? null;
    if (!pinMatches(input.pin, own)) throw fail('NOT_FOUND', 'Pin');
    await store.updateLocationPinDigest(w.tx, location.uuid, null, w.nowMs);
    w.change({ entity: 'LOCATION', entityUuid: location.uuid, type: 'UPDATE', update: (await findLocation(w, ctx.orgUuid, location.uuid))! });
  });
}

/**
 * `getAlertMonitoringSettingsForLocation`: the location's monitoring (on or off, since when) and its custom pins
 * by name, never their values. No earlier versions of the settings are kept.
 */
export async function getAlertMonitoringSettings(deps: Pick<Deps, 'store'>, ctx: CallerContext, locationUuid: string) {
  const status = await locationStatus(deps, ctx, locationUuid);
  const pins = await monitoring.listPins(deps.store.db, ctx.orgUuid, locationUuid);
  return {
    orgUuid: ctx.orgUuid,
    locationUuid,
    enabled: status.enabled,
    enabledOnMs: status.enabledOnMs,
    disabledOnMs: status.disabledOnMs,
    monitoringMode: 'MANUAL' as const,
    status,
    pins: pins.map((p) => ({ name: p.name, description: p.description, pin: null })),
    deleted: false,
    subLocationsHierarchyKey: { locationUuids: [locationUuid] },
  };
}

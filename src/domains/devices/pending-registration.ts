import { systemActor, type Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { write, type WriteScope } from '../../bus/write.js';
import { completePendingRegistration, findPendingRegistration, type PendingRegistration, type ShippableType } from '../orgs/registrations/service.js';
import { createDevice, findLocationUuids, type DeviceRecord } from './service.js';
import type { DeviceKind } from './tables.js';

/** The kind of device each shippable type registers as. */
const KIND_OF: Record<ShippableType, DeviceKind> = {
  CAMERA: 'CAMERA',
  AUDIO_GATEWAY: 'AUDIO_GATEWAY',
  ENVIRONMENTAL_SENSOR: 'ENVIRONMENTAL_SENSOR',
  ENVIRONMENTAL_GATEWAY: 'ENVIRONMENTAL_GATEWAY',
  DOOR_SENSOR: 'DOOR_SENSOR',
  OCCUPANCY_SENSOR: 'OCCUPANCY_SENSOR',
  BLE_TRACKER: 'BLE_TRACKER',
  BADGE_READER: 'BADGE_READER',
  DOOR_CONTROLLER: 'DOOR_CONTROLLER',
  BLE_BUTTON: 'BUTTON',
  NVR: 'NVR',
};

/** What registers a device when its unit has no pending registration, or leaves a field of it empty. */
export interface RegistrationDefaults {
  name: string;
  locationUuid: string | null;
  attributes: Record<string, unknown>;
}

/**
 * In a write of the unit's organization: the unit registers as a device with what its pending registration
 * says over the defaults (a location deleted since is none), and the pending registration goes.
 */
export async function registerPending(w: WriteScope, pending: PendingRegistration, defaults: RegistrationDefaults): Promise<DeviceRecord> {
  const location = pending.locationUuid ?? defaults.locationUuid;
  const kept = location ? await findLocationUuids(w, w.actor.orgUuid, [location]) : new Set<string>();
  const device = await createDevice(w, {
    kind: KIND_OF[pending.type],
    name: pending.name ?? defaults.name,
    locationUuid: location && kept.has(location) ? location : null,
    serialNumber: pending.serialNumber,
    macAddress: pending.mac,
    attributes: { ...defaults.attributes, ...(pending.policyUuid ? { policyUuid: pending.policyUuid } : {}) },
  });
  await completePendingRegistration(w, pending.hardwareUuid, device.uuid);
  return device;
}

/** A unit with a pending registration comes online (`gatehouse simulate hardware-online --serial S`). */
export async function hardwareOnline(deps: Pick<Deps, 'store' | 'bus' | 'clock'>, serialNumber: string): Promise<DeviceRecord> {
  const missing = () => fail('NOT_FOUND', `Pending registration of serial number ${serialNumber}`);
  const found = await findPendingRegistration(deps, serialNumber);
  if (!found) throw missing();
  return write(deps, systemActor(found.orgUuid, 'simulate.hardware-online'), async (w) => {
    const pending = await findPendingRegistration(w, serialNumber);
    if (pending?.orgUuid !== found.orgUuid) throw missing();
    return registerPending(w, pending, { name: `${pending.type} ${serialNumber}`, locationUuid: null, attributes: {} });
  });
}

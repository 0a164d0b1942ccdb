import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { listDevices, type DeviceRecord } from '../devices/service.js';
import type { MinimalButtonState } from './schemas.js';
import type { Static } from 'typebox';

const config = (d: DeviceRecord) => (d.attributes.config as Record<string, unknown> | undefined) ?? {};

/** The minimal state of every button of the caller's organization (getMinimalButtonStateList). */
export async function listButtonStates(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<Array<Static<typeof MinimalButtonState>>> {
  return (await listDevices(deps, ctx.orgUuid, ['BUTTON'])).map((d) => ({
    sensorUuid: d.uuid,
    name: d.name,
    locationUuid: d.locationUuid,
    serialNumber: d.serialNumber,
    firmwareVersion: d.firmwareVersion,
    health: d.healthStatus,
    createdAtMillis: d.createdAtMillis,
    associatedCameras: Array.isArray(d.attributes.cameras) ? (d.attributes.cameras as string[]).map((c) => (c.includes('.') ? c : `${c}.v0`)) : [],
    // Neither the mode nor the contact is nullable in the catalogue: a button without one leaves it out.
    ...(typeof d.attributes.buttonMode === 'string' ? { buttonMode: d.attributes.buttonMode } : {}),
    floorNumber: typeof d.attributes.floor === 'number' ? d.attributes.floor : null,
    latitude: typeof d.attributes.latitude === 'number' ? d.attributes.latitude : null,
    longitude: typeof d.attributes.longitude === 'number' ? d.attributes.longitude : null,
    testModeEnabled: config(d).button_test_mode_enabled === true,
    ...(config(d).button_emergency_onsite_contact
      ? { buttonEmergencyOnsiteContact: config(d).button_emergency_onsite_contact as { name?: string | null; phoneNumber?: string | null } }
      : {}),
  }));
}

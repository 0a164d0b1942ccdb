import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { listDevices } from '../devices/service.js';
import type { MinimalButtonState } from './schemas.js';
import type { Static } from 'typebox';

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
    associatedCameras: [],
  }));
}

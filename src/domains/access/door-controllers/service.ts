import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { applyDeviceDetails } from '../../devices/cameras/camera-details.service.js';
import { findDevicesBySerial } from '../../devices/lifecycle/device-moves.service.js';
import { createDevice, findDevice, type DeviceRecord } from '../../devices/service.js';
import type { RegisterDiscoveredReaderInput, UpdateDoorControllerDetailsInput } from './schemas.js';

type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

async function controllerOf(w: WriteScope, uuid: string): Promise<DeviceRecord> {
  const controller = await findDevice(w, w.actor.orgUuid, uuid, ['DOOR_CONTROLLER']);
  if (!controller) throw fail('NOT_FOUND', 'Door controller');
  return controller;
}

/** `doorcontroller/updateDetails`: the fields given change (name, description, location, floor, coordinates, direction). */
export async function updateDoorControllerDetails(deps: WriteDeps, ctx: CallerContext, input: UpdateDoorControllerDetailsInput): Promise<void> {
  const { uuid, ...change } = input;
  await write(deps, ctx, async (w) => {
    const controller = await controllerOf(w, uuid);
    const given = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined && v !== null));
    const updated = await applyDeviceDetails(w, controller, given);
    w.change({ entity: 'DOOR_CONTROLLER', entityUuid: uuid, deviceUuid: uuid, type: 'UPDATE', update: updated });
  });
}

/**
 * `doorcontroller/registerDiscoveredRhombusReader`: the reader a door controller found on one of its ports
 * becomes a badge reader of the organization, at the controller's location and wired to it (board, port).
 */
export async function registerDiscoveredReader(deps: WriteDeps, ctx: CallerContext, input: RegisterDiscoveredReaderInput): Promise<void> {
  const serialNumber = input.serialNumber.trim();
  if (!serialNumber) throw fail('INVALID_VALUE', 'serialNumber: must not be empty');
  await write(deps, ctx, async (w) => {
    const controller = await controllerOf(w, input.doorControllerUuid);
    const known = (await findDevicesBySerial(w, ctx.orgUuid, [serialNumber])).get(serialNumber);
    if (known) throw fail('CONFLICT', `A device with serial number ${serialNumber} is already registered (${known.deviceType} ${known.name})`);
    await createDevice(w, {
      kind: 'BADGE_READER',
      name: `Reader ${serialNumber}`,
      locationUuid: controller.locationUuid,
      serialNumber,
      attributes: { doorControllerUuid: controller.uuid, boardNum: input.boardNum ?? null, portNum: input.portNum ?? null },
    });
  });
}

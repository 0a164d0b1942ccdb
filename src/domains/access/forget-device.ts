import type { Deps } from '../../deps.js';
import type { DeviceReferenceCleaner } from '../devices/device-references.js';
import { doorAnswer } from './service.js';
import { findDoors } from './service.js';
import * as store from './store.js';
import { forgetComponentsOf } from './components/service.js';

/** A deleted device leaves the doors it filmed (their associated cameras) or drove (their controller); each door changed is announced. */
export const doorsForgetDevice: DeviceReferenceCleaner = async (w, device) => {
  const doorUuids = await store.listDoorUuidsNamingDevice(w.tx, device.orgUuid, device.uuid);
  if (doorUuids.length === 0) return;
  await store.removeDeviceFromDoors(w.tx, device.orgUuid, device.uuid, w.nowMs);
  for (const door of await findDoors(w, device.orgUuid, doorUuids)) {
    w.change({ entity: 'DOOR', entityUuid: door.uuid, deviceUuid: door.controllerUuid, type: 'UPDATE', update: doorAnswer(door) });
  }
};

/** A deleted device takes its hardware components (and its port configuration) with it, and they leave the records that named them. */
export const componentsForgetDevice =
  (deps: Pick<Deps, 'recordCleaners'>): DeviceReferenceCleaner =>
  (w, device) =>
    forgetComponentsOf(deps, w, device);

import type { WriteScope } from '../../bus/write.js';
import type { DeviceRecord } from './service.js';

/**
 * "Forget this device": each domain whose records name devices (doors' cameras, rules' triggers, users'
 * snoozes, ...) provides a cleaner, listed in the composition root (`deps.deviceReferences`, src/open-deps.ts),
 * so that deleting a device removes every reference to it in the delete's own transaction without the devices
 * domain importing those domains. A cleaner runs in the writer's transaction, before the device's row goes,
 * and announces each record it changes with `w.change(...)`.
 */
export type DeviceReferenceCleaner = (w: WriteScope, device: DeviceRecord) => Promise<void>;

/** The facet ids and uuid a device is named by in lists: `<uuid>` and `<uuid>.<facet>`. */
export const namesDevice = (entry: unknown, uuid: string): boolean => typeof entry === 'string' && (entry === uuid || entry.startsWith(`${uuid}.`));

declare module '../../deps.js' {
  interface Deps {
    /** The cleaners that remove a deleted device from the records of other domains (doors, rules, snoozes, ...). */
    deviceReferences: readonly DeviceReferenceCleaner[];
  }
}

import type { Bus } from './bus/bus.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { DeviceReferenceCleaner } from './domains/devices/device-references.js';
import type { KeyCache } from './domains/orgs/keys/key-cache.js';
import type { RightsCache } from './domains/permissions/rights-cache.js';
import type { ScheduleUsageCheck } from './domains/schedules/schedule-usage.js';
import type { Logger } from './logger.js';
import type { SecretBox } from './secrets.js';
import type { Store } from './store/database.js';
import type { Actor } from './bus/write.js';

/** Everything a service may need, built once in the composition root (src/app.ts); each service picks its part. */
export interface Deps {
  config: Config;
  store: Store;
  bus: Bus;
  clock: Clock;
  log: Logger;
  /** Encrypts secrets at rest (integration tokens, webhook secrets). */
  secrets: SecretBox;
  /** This instance's short-lived cache of API keys (src/domains/orgs/key-cache.ts). */
  keyCache: KeyCache;
  /** This instance's short-lived cache of users' rights (src/domains/permissions/rights-cache.ts). */
  rightsCache: RightsCache;
  /** The checks that tell whether a schedule is in use (doors, rules): deleting it is then refused. */
  scheduleUsage: readonly ScheduleUsageCheck[];
  /** The cleaners that remove a deleted device from the records of other domains (doors, rules, snoozes, ...). */
  deviceReferences: readonly DeviceReferenceCleaner[];
}

/** The actor of a write that no API caller makes: a CLI command, the seeder, the simulator. */
export function systemActor(orgUuid: string, operation: string): Actor {
  return { orgUuid, userUuid: null, apiKeyId: null, partnerOrgUuid: null, operation };
}

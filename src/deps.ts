import type { Bus } from './bus/bus.js';
import type { Actor } from './bus/write.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import type { SecretBox } from './secrets.js';
import type { Store } from './store/database.js';

/**
 * Everything a service may need, built once in the composition root (src/open-deps.ts); each service picks its
 * part (`Pick<Deps, 'store' | 'bus'>`). The ground floor is declared here; a domain that keeps something for
 * every instance (a cache, the checks other domains register with it) adds it to this interface from its own
 * module, by declaration merging, so that this floor imports nothing from the domains.
 */
export interface Deps {
  config: Config;
  store: Store;
  bus: Bus;
  clock: Clock;
  log: Logger;
  /** Encrypts secrets at rest (integration tokens, webhook secrets). */
  secrets: SecretBox;
}

/** The actor of a write that no API caller makes: a CLI command, the seeder, the simulator. */
export function systemActor(orgUuid: string, operation: string): Actor {
  return { orgUuid, userUuid: null, apiKeyId: null, partnerOrgUuid: null, operation };
}

import type { Deps } from '../../../deps.js';
import { expirePolicyAlerts } from './alert-feed.service.js';

/** How often an instance sweeps expired alerts. */
export const EXPIRY_SWEEP_MS = 60_000;

export interface AlertExpiry {
  stop(): Promise<void>;
}

/**
 * Deletes expired policy alerts once a minute (and once at start, for what expired while no instance ran).
 * Several instances may sweep at once: a deletion is by uuid, so a row two sweeps read goes once.
 */
export function startAlertExpiry(deps: Pick<Deps, 'store' | 'bus' | 'clock' | 'log'>): AlertExpiry {
  const log = deps.log.child({ domain: 'events', job: 'alert-expiry' });
  let running: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    running = expirePolicyAlerts(deps, deps.clock.now())
      .then((n) => n > 0 && log.info({ deleted: n }, 'expired policy alerts deleted'))
      .catch((err) => log.error({ err }, 'alert expiry sweep failed'));
  };
  const timer = setInterval(sweep, EXPIRY_SWEEP_MS);
  timer.unref();
  sweep();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

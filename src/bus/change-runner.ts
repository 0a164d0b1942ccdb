import type { Bus } from './bus.js';
import type { ChangeEvent } from '../store/change-event.js';

/**
 * Runs `fire` in the background for each change on the bus that `pick` turns into work (null: none), logging
 * a failure through `failed`; `stop()` unsubscribes and waits for the runs still in flight. The lockdown and
 * general rule runners are made of it.
 */
export function runOnChanges<T>(
  bus: Pick<Bus, 'subscribe'>,
  pick: (event: ChangeEvent) => T | null,
  fire: (work: T, event: ChangeEvent) => Promise<unknown>,
  failed: (err: unknown, work: T) => void,
): { stop(): Promise<void> } {
  const inFlight = new Set<Promise<unknown>>();
  const unsubscribe = bus.subscribe('change', (event) => {
    const work = pick(event);
    if (work === null) return;
    const run = fire(work, event)
      .catch((err: unknown) => failed(err, work))
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
  });
  return {
    async stop() {
      unsubscribe();
      await Promise.allSettled([...inFlight]);
    },
  };
}

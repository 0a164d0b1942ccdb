import type { ChangeEvent } from '../../bus/events.js';
import type { Deps } from '../../deps.js';
import { listPendingRelocks, relockDoor, type PendingRelock } from './relay.service.js';
import type { DoorRecord } from './service.js';

/** setTimeout's longest delay; a later relock is re-armed when this one fires early. */
const MAX_DELAY_MS = 2 ** 31 - 1;

export interface RelockScheduler {
  stop(): Promise<void>;
}

/**
 * Runs the relock timers of an instance. A door's relock time is persisted on the door (relay.service.ts);
 * the scheduler arms a timer for every pending relock when it starts, and for every DOOR change that carries
 * a relock time afterwards (from the bus, so a door unlocked through another instance is armed here too).
 * When several instances arm the same relock, relockDoor's conditional update lets exactly one of them lock.
 */
export async function startRelockScheduler(deps: Pick<Deps, 'store' | 'bus' | 'clock' | 'log'>): Promise<RelockScheduler> {
  const log = deps.log.child({ domain: 'access', job: 'relock' });
  /** The armed relock times of each door, each with its timer. */
  const timers = new Map<string, Map<number, NodeJS.Timeout>>();
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;

  const disarm = (doorUuid: string) => {
    for (const timer of timers.get(doorUuid)?.values() ?? []) clearTimeout(timer);
    timers.delete(doorUuid);
  };
  const fire = (pending: PendingRelock) => {
    const armed = timers.get(pending.doorUuid);
    armed?.delete(pending.relockAtMs);
    if (armed?.size === 0) timers.delete(pending.doorUuid);
    if (pending.relockAtMs > deps.clock.now()) return arm(pending);
    const run = relockDoor(deps, pending)
      .catch((err) => log.error({ err, door: pending.doorUuid }, 'relock failed'))
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
  };
  // Every relock time a door is announced with is armed, earlier or later than the others: a rule may move
  // it earlier (a TIME_DELAY shorter than the door's unlock duration), and news may arrive out of order.
  // Only the time still persisted on the door relocks it (relockDoor's conditional update); the others are no-ops.
  const arm = (pending: PendingRelock) => {
    if (stopped || timers.get(pending.doorUuid)?.has(pending.relockAtMs)) return;
    const delay = Math.min(Math.max(0, pending.relockAtMs - deps.clock.now()), MAX_DELAY_MS);
    const timer = setTimeout(() => fire(pending), delay);
    timer.unref();
    const armed = timers.get(pending.doorUuid) ?? new Map<number, NodeJS.Timeout>();
    timers.set(pending.doorUuid, armed.set(pending.relockAtMs, timer));
  };

  const unsubscribe = deps.bus.subscribe('change', (event: ChangeEvent) => {
    if (event.entity !== 'DOOR') return;
    const door = event.update as DoorRecord;
    if (door.relockAtMillis === null || door.relockAtMillis === undefined) disarm(door.uuid);
    else arm({ orgUuid: door.orgUuid, doorUuid: door.uuid, relockAtMs: door.relockAtMillis });
  });
  // A reset or restore of the store replaces the doors: the timers follow what it now holds.
  const unsubscribeReplaced = deps.bus.subscribe('store.replaced', () => {
    for (const doorUuid of [...timers.keys()]) disarm(doorUuid);
    void listPendingRelocks(deps)
      .then((all) => all.forEach(arm))
      .catch((err) => log.error({ err }, 'reading the pending relocks failed'));
  });
  // Subscribed first, so that a door unlocked while the pending ones are read is not missed.
  for (const pending of await listPendingRelocks(deps)) arm(pending);

  return {
    async stop() {
      stopped = true;
      unsubscribe();
      unsubscribeReplaced();
      for (const doorUuid of [...timers.keys()]) disarm(doorUuid);
      await Promise.allSettled([...inFlight]);
    },
  };
}

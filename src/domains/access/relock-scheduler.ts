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
  const timers = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;

  const disarm = (doorUuid: string) => {
    clearTimeout(timers.get(doorUuid)?.timer);
    timers.delete(doorUuid);
  };
  const fire = (pending: PendingRelock) => {
    timers.delete(pending.doorUuid);
    if (pending.relockAtMs > deps.clock.now()) return arm(pending);
    const run = relockDoor(deps, pending)
      .catch((err) => log.error({ err, door: pending.doorUuid }, 'relock failed'))
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
  };
  // A door's relock only moves later while it stays unlocked (unlockRelay keeps the later time), so an
  // earlier time than the armed one is stale news; a relock that is no longer due is a no-op anyway.
  const arm = (pending: PendingRelock) => {
    if (stopped || (timers.get(pending.doorUuid)?.at ?? -1) >= pending.relockAtMs) return;
    disarm(pending.doorUuid);
    const delay = Math.min(Math.max(0, pending.relockAtMs - deps.clock.now()), MAX_DELAY_MS);
    const timer = setTimeout(() => fire(pending), delay);
    timer.unref();
    timers.set(pending.doorUuid, { at: pending.relockAtMs, timer });
  };

  const unsubscribe = deps.bus.subscribe('change', (event: ChangeEvent) => {
    if (event.entity !== 'DOOR') return;
    const door = event.update as DoorRecord;
    if (door.relockAtMillis === null || door.relockAtMillis === undefined) disarm(door.uuid);
    else arm({ orgUuid: door.orgUuid, doorUuid: door.uuid, relockAtMs: door.relockAtMillis });
  });
  // Subscribed first, so that a door unlocked while the pending ones are read is not missed.
  for (const pending of await listPendingRelocks(deps)) arm(pending);

  return {
    async stop() {
      stopped = true;
      unsubscribe();
      for (const doorUuid of [...timers.keys()]) disarm(doorUuid);
      await Promise.allSettled([...inFlight]);
    },
  };
}

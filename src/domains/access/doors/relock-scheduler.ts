import type { ChangeEvent } from '../../../store/change-event.js';
import type { Deps } from '../../../deps.js';
import { applyDueDoorState, listPendingStateChecks } from './door-state.js';
import { listPendingRelocks, relockDoor } from './relay.service.js';
import type { DoorRecord } from '../service.js';

/** setTimeout's longest delay; a later time is re-armed when its timer fires early. */
const MAX_DELAY_MS = 2 ** 31 - 1;

export interface RelockScheduler {
  stop(): Promise<void>;
}

/** A door's due time of one kind (its relock, or its state check). */
interface Pending {
  orgUuid: string;
  doorUuid: string;
  atMs: number;
}

/**
 * The armed times of each door, each with its timer, for one kind of job. Every time a door is announced with
 * is armed, earlier or later than the others: news may arrive out of order, and only the time still persisted
 * on the door does anything (the job's conditional update); the others are no-ops.
 */
function timerTable(deps: Pick<Deps, 'clock' | 'log'>, job: (pending: Pending) => Promise<unknown>, what: string) {
  const timers = new Map<string, Map<number, NodeJS.Timeout>>();
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;
  const disarm = (doorUuid: string) => {
    for (const timer of timers.get(doorUuid)?.values() ?? []) clearTimeout(timer);
    timers.delete(doorUuid);
  };
  const fire = (pending: Pending) => {
    const armed = timers.get(pending.doorUuid);
    armed?.delete(pending.atMs);
    if (armed?.size === 0) timers.delete(pending.doorUuid);
    if (pending.atMs > deps.clock.now()) return arm(pending);
    const run = job(pending)
      .catch((err) => deps.log.error({ err, door: pending.doorUuid }, `${what} failed`))
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
  };
  const arm = (pending: Pending) => {
    if (stopped || timers.get(pending.doorUuid)?.has(pending.atMs)) return;
    const delay = Math.min(Math.max(0, pending.atMs - deps.clock.now()), MAX_DELAY_MS);
    const timer = setTimeout(() => fire(pending), delay);
    timer.unref();
    const armed = timers.get(pending.doorUuid) ?? new Map<number, NodeJS.Timeout>();
    timers.set(pending.doorUuid, armed.set(pending.atMs, timer));
  };
  /** Follows a door's announced time: armed when set, disarmed when cleared. */
  const follow = (door: DoorRecord, atMs: number | null | undefined) =>
    atMs === null || atMs === undefined ? disarm(door.uuid) : arm({ orgUuid: door.orgUuid, doorUuid: door.uuid, atMs });
  return {
    arm,
    follow,
    disarmAll: () => [...timers.keys()].forEach(disarm),
    async stop() {
      stopped = true;
      [...timers.keys()].forEach(disarm);
      await Promise.allSettled([...inFlight]);
    },
  };
}

/**
 * Runs the door timers of an instance: relocks, and re-applications of a door's expected state when it
 * changes (a schedule or an exception starts or ends: door-state.ts). Both times are persisted on the door;
 * the scheduler arms a timer for every pending one when it starts, and for every DOOR change that carries
 * one afterwards (from the bus, so a door changed through another instance is armed here too). When several
 * instances arm the same time, the job's conditional update lets exactly one of them act.
 */
export async function startRelockScheduler(deps: Pick<Deps, 'store' | 'bus' | 'clock' | 'log'>): Promise<RelockScheduler> {
  const log = deps.log.child({ domain: 'access', job: 'relock' });
  const relocks = timerTable({ clock: deps.clock, log }, (p) => relockDoor(deps, { orgUuid: p.orgUuid, doorUuid: p.doorUuid, relockAtMs: p.atMs }), 'relock');
  const checks = timerTable(
    { clock: deps.clock, log },
    (p) => applyDueDoorState(deps, { orgUuid: p.orgUuid, doorUuid: p.doorUuid, checkAtMs: p.atMs }),
    'door state',
  );
  const armPending = async () => {
    for (const p of await listPendingRelocks(deps)) relocks.arm({ orgUuid: p.orgUuid, doorUuid: p.doorUuid, atMs: p.relockAtMs });
    for (const p of await listPendingStateChecks(deps)) checks.arm({ orgUuid: p.orgUuid, doorUuid: p.doorUuid, atMs: p.checkAtMs });
  };

  const unsubscribe = deps.bus.subscribe('change', (event: ChangeEvent) => {
    if (event.entity !== 'DOOR') return;
    const door = event.update as DoorRecord;
    relocks.follow(door, event.type === 'DELETE' ? null : door.relockAtMillis);
    checks.follow(door, event.type === 'DELETE' ? null : door.stateCheckAtMillis);
  });
  // A reset or restore of the store replaces the doors: the timers follow what it now holds.
  const unsubscribeReplaced = deps.bus.subscribe('store.replaced', () => {
    relocks.disarmAll();
    checks.disarmAll();
    void armPending().catch((err) => log.error({ err }, 'reading the pending door timers failed'));
  });
  // Subscribed first, so that a door changed while the pending ones are read is not missed.
  await armPending();

  return {
    async stop() {
      unsubscribe();
      unsubscribeReplaced();
      await Promise.all([relocks.stop(), checks.stop()]);
    },
  };
}

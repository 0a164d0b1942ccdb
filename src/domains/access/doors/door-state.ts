import type { Deps } from '../../../deps.js';
import { systemActor } from '../../../deps.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { findLocation } from '../../devices/service.js';
import { findSchedule, type ScheduleRecord } from '../../schedules/service.js';
import { scheduleBoundaries, scheduleHolds } from '../../schedules/strategies.js';
import { recordDoorEvent } from '../door-events/service.js';
import { exceptionBoundaries, exceptionStateAt, type DoorScheduleExceptionRecord } from '../exceptions/model.js';
import { exceptionsOfDoorBetween } from '../exceptions/store.js';
import { addDays, instantOf, localDateTime } from '../../schedules/local-time.js';
import { doorLockdownOf } from '../lockdowns/lockdown-plans.js';
import { originatorOf, type DoorLockdown } from '../lockdowns/model.js';
import { changeDoorState, findDoor, type DoorRecord, type DoorStatePatch } from '../service.js';
import * as store from '../store.js';
import type { DoorAccessState, DoorStateSource } from '../tables.js';

/**
 * A door's expected state at an instant (the platform's access state: UNLOCKED or ACCESS_CONTROLLED) and what
 * decided it, strongest first:
 *   LOCKDOWN            the location is locked down and the lockdown overrides doors (the plans say how);
 *   SCHEDULE_EXCEPTION  an exception covers the door at that local moment;
 *   SCHEDULE            the door's UNLOCKED schedule, else its ACCESS_CONTROLLED schedule, covers the moment;
 *   DEFAULT_STATE       the door's default state.
 * Local moments are read on the wall clock of the door's location. The relay follows the expected state
 * (applyDoorState): held unlocked while UNLOCKED, relocked when that ends (the relock scheduler), and the door
 * keeps the next instant its state changes (stateCheckAtMillis), which the scheduler re-applies then.
 */
export interface DoorStateVerdict {
  state: DoorAccessState;
  source: DoorStateSource;
}

/** Everything the verdict at any instant of the next days depends on, read once. */
export interface DoorStateInputs {
  door: DoorRecord;
  timeZone: string;
  lockdown: DoorLockdown | null;
  exceptions: DoorScheduleExceptionRecord[];
  unlocked: ScheduleRecord | null;
  controlled: ScheduleRecord | null;
}

/** How far ahead the next change is looked for, and the longest a door with time-dependent state waits for a re-check. */
const HORIZON_DAYS = 8;
const RECHECK_MS = 24 * 3_600_000;

async function scheduleOf(source: ReadSource, orgUuid: string, scheduleUuid: string | null): Promise<ScheduleRecord | null> {
  return scheduleUuid === null ? null : findSchedule(source, orgUuid, scheduleUuid);
}

export async function doorStateInputs(source: ReadSource, door: DoorRecord, atMs: number): Promise<DoorStateInputs> {
  const timeZone = (await findLocation(source, door.orgUuid, door.locationUuid))?.tz ?? 'UTC';
  const today = localDateTime(atMs, timeZone).slice(0, 10);
  const rows = await exceptionsOfDoorBetween(dbOf(source), door.uuid, addDays(today, -1), addDays(today, HORIZON_DAYS + 1));
  return {
    door,
    timeZone,
    lockdown: await doorLockdownOf(source, door),
    exceptions: rows.map((r) => JSON.parse(r.data) as DoorScheduleExceptionRecord),
    unlocked: await scheduleOf(source, door.orgUuid, door.unlockedScheduleUuid),
    controlled: await scheduleOf(source, door.orgUuid, door.controlledScheduleUuid),
  };
}

export function verdictAt(inputs: DoorStateInputs, atMs: number): DoorStateVerdict {
  if (inputs.lockdown?.doorsOverridden) return { state: inputs.lockdown.state === 'UNLOCKED' ? 'UNLOCKED' : 'ACCESS_CONTROLLED', source: 'LOCKDOWN' };
  const local = localDateTime(atMs, inputs.timeZone);
  const excepted = exceptionStateAt(inputs.exceptions, local);
  if (excepted) return { state: excepted, source: 'SCHEDULE_EXCEPTION' };
  if (scheduleHolds(inputs.unlocked, atMs, inputs.timeZone)) return { state: 'UNLOCKED', source: 'SCHEDULE' };
  if (scheduleHolds(inputs.controlled, atMs, inputs.timeZone)) return { state: 'ACCESS_CONTROLLED', source: 'SCHEDULE' };
  return { state: inputs.door.defaultState, source: 'DEFAULT_STATE' };
}

/** The instants after `fromMs`, within the horizon, where some input may change the verdict. */
function boundaries(inputs: DoorStateInputs, fromMs: number): number[] {
  const end = fromMs + HORIZON_DAYS * 86_400_000;
  const locals = inputs.exceptions.flatMap((e) => exceptionBoundaries(e, (d) => addDays(d, 1)));
  const scheduled = [inputs.unlocked, inputs.controlled].flatMap((s) => (s ? scheduleBoundaries(s, fromMs, end, inputs.timeZone) : []));
  const instants = [...locals.map((l) => instantOf(l, inputs.timeZone)), ...scheduled].filter((t) => t > fromMs && t <= end);
  return [...new Set(instants)].sort((a, b) => a - b);
}

/**
 * When the expected state next differs from the one at `fromMs` (null: not within the horizon), and when to
 * look again (null: the door's state does not depend on time). A lockdown holds until it ends.
 */
export function nextChange(inputs: DoorStateInputs, fromMs: number): { changeAtMs: number | null; checkAtMs: number | null } {
  if (inputs.lockdown?.doorsOverridden) return { changeAtMs: null, checkAtMs: null };
  const now = verdictAt(inputs, fromMs).state;
  const changeAtMs = boundaries(inputs, fromMs).find((t) => verdictAt(inputs, t).state !== now) ?? null;
  const timeDependent = inputs.exceptions.length > 0 || inputs.unlocked !== null || inputs.controlled !== null;
  return { changeAtMs, checkAtMs: timeDependent ? Math.min(changeAtMs ?? Infinity, fromMs + RECHECK_MS) : null };
}

/** The door's expected state now, and its lockdown, as the badge decision reads them. */
export async function doorConditionsAt(
  source: ReadSource,
  door: DoorRecord,
  atMs: number,
): Promise<{ verdict: DoorStateVerdict; lockdown: DoorLockdown | null }> {
  const inputs = await doorStateInputs(source, door, atMs);
  return { verdict: verdictAt(inputs, atMs), lockdown: inputs.lockdown };
}

/**
 * Makes a door's relay follow its expected state at `atMs`, in the caller's write: an UNLOCKED state holds it
 * unlocked until the state next changes (its relock time); an ACCESS_CONTROLLED state locks a door held
 * unlocked (and, under a lockdown, any unlocked door at once). Remembers when to look again. A door without a
 * lock has no relay to move. Answers the door as it now is; no change is announced when nothing changed.
 */
export async function applyDoorState(w: WriteScope, door: DoorRecord, atMs = w.nowMs): Promise<DoorRecord> {
  const inputs = await doorStateInputs(w, door, atMs);
  const verdict = verdictAt(inputs, atMs);
  const { changeAtMs, checkAtMs } = nextChange(inputs, atMs);
  const patch: DoorStatePatch = {};
  const originator = originatorOf(w.actor);
  if (door.hasLock && verdict.state === 'UNLOCKED') {
    if (door.lockState === 'LOCKED') await recordDoorEvent(w, door, atMs, { type: 'DoorRelayStateChangeEvent', newState: 'UNLOCKED', originator });
    Object.assign(patch, { lockState: 'UNLOCKED', relockAtMillis: changeAtMs, heldSource: verdict.source });
  } else if (door.hasLock && door.lockState === 'UNLOCKED' && (door.heldSource !== null || verdict.source === 'LOCKDOWN')) {
    await recordDoorEvent(w, door, atMs, { type: 'DoorRelayStateChangeEvent', newState: 'LOCKED', originator });
    Object.assign(patch, { lockState: 'LOCKED', relockAtMillis: null, heldSource: null });
  }
  patch.stateCheckAtMillis = door.hasLock ? checkAtMs : null;
  if (verdict.state !== door.accessState || verdict.source !== door.accessStateSource)
    Object.assign(patch, { accessState: verdict.state, accessStateSource: verdict.source, accessStateAtMillis: atMs });
  const changed = (Object.keys(patch) as Array<keyof DoorStatePatch>).some((k) => patch[k] !== door[k]);
  return changed ? changeDoorState(w, door, patch) : door;
}

/** Re-applies the expected state of each door, in the caller's write (a schedule exception or a lockdown changed them). */
export async function applyDoorStates(w: WriteScope, doors: readonly DoorRecord[]): Promise<void> {
  for (const door of doors) await applyDoorState(w, door);
}

export interface PendingStateCheck {
  orgUuid: string;
  doorUuid: string;
  checkAtMs: number;
}

/**
 * Re-applies a door's state when its check falls due. The check is claimed first (a conditional update of the
 * persisted time), so that of several instances armed for it exactly one applies it.
 */
export async function applyDueDoorState(deps: Pick<Deps, 'store' | 'bus' | 'clock'>, pending: PendingStateCheck): Promise<boolean> {
  return write(deps, systemActor(pending.orgUuid, 'door.state'), async (w) => {
    if (!(await store.claimStateCheck(w.tx, pending.doorUuid, pending.checkAtMs))) return false;
    const door = await findDoor(w, pending.orgUuid, pending.doorUuid);
    if (!door) return false;
    await applyDoorState(w, door, Math.max(w.nowMs, pending.checkAtMs));
    return true;
  });
}

/** Every door with a state check pending, in every organization: what a starting instance arms. */
export async function listPendingStateChecks(deps: Pick<Deps, 'store'>): Promise<PendingStateCheck[]> {
  return (await store.listPendingStateChecks(deps.store.db)).map((r) => ({ orgUuid: r.org_uuid, doorUuid: r.uuid, checkAtMs: r.state_check_at_ms }));
}

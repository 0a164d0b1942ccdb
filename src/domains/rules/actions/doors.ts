import { write, type WriteScope } from '../../../bus/write.js';
import { lockdownRefusal, startLocationLockdown } from '../../access/lockdowns/service.js';
import { lockRelay, unlockRelay } from '../../access/doors/relay.service.js';
import { changeDoorState, findDoor, type DoorRecord } from '../../access/service.js';
import { findLocation } from '../../devices/service.js';
import { failed, succeeded, type ActionContext, type ActionFamily, type ActionRun, type Outcome } from './action.js';

type Change = NonNullable<ActionContext['action']['changeComponentCompositeAccessStateActions']>[number];

/** The next instant after `nowMs` whose wall clock in `timeZone` reads `secondOfDay`. */
export function nextTimeOfDay(nowMs: number, secondOfDay: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(
    new Date(nowMs),
  );
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  const nowSecond = get('hour') * 3600 + get('minute') * 60 + get('second');
  const ahead = (secondOfDay - nowSecond + 86_400) % 86_400 || 86_400;
  return nowMs - (nowMs % 1000) + ahead * 1000;
}

/** Runs a door action in its own write; a missing door, a door without a lock or an offline controller fails. */
async function withDoor(ctx: ActionContext, doorUuid: string | null | undefined, fn: (w: WriteScope, door: DoorRecord) => Promise<Outcome>): Promise<Outcome> {
  return write(ctx.deps, ctx.actor, async (w) => {
    const door = doorUuid ? await findDoor(w, ctx.actor.orgUuid, doorUuid) : null;
    if (!door) return failed('door not found');
    if (!door.hasLock) return failed(`door ${door.name} has no lock`);
    if (!door.controllerOnline) return failed(`the controller of door ${door.name} is offline`);
    const lockedDown = await lockdownRefusal(w, door);
    if (lockedDown) return failed(lockedDown);
    return fn(w, door);
  });
}

const cause = (ctx: ActionContext) => ({ correlationId: ctx.event.firingUuid, originator: { type: 'BUTTON_RULE' } });

/** When an UNLOCKED state set by a rule ends: the strategy's delay or local time of day, or never (NONE). */
async function relockAt(w: WriteScope, door: DoorRecord, change: Change): Promise<number | null | undefined> {
  switch (change.expirationStrategy) {
    case 'TIME_DELAY':
      return w.nowMs + (change.expireTimeDelaySeconds ?? 0) * 1000;
    case 'TIME_OF_DAY_LOCAL': {
      const location = await findLocation(w, door.orgUuid, door.locationUuid);
      return nextTimeOfDay(w.nowMs, change.expireTimeOfDayLocalSeconds ?? 0, location?.tz ?? 'UTC');
    }
    case 'NONE':
      return null;
    default:
      return undefined; // the door's own unlock duration
  }
}

/**
 * `remoteDoorUnlockActions` (unlock for the door's unlock duration) and
 * `changeComponentCompositeAccessStateActions` (UNLOCKED until the expiration strategy says, or back to
 * ACCESS_CONTROLLED at once), through the access-control service: the relock scheduler relocks the door.
 */
export const doorActions: ActionFamily = (ctx) => {
  const runs: ActionRun[] = [];
  for (const [i, unlock] of (ctx.action.remoteDoorUnlockActions ?? []).entries()) {
    runs.push({
      action: `remoteDoorUnlockActions[${i}]`,
      run: () =>
        withDoor(ctx, unlock.doorId, async (w, door) => {
          await unlockRelay(w, door, w.nowMs, cause(ctx));
          return succeeded(`door ${door.uuid} unlocked`);
        }),
    });
  }
  for (const [i, change] of (ctx.action.changeComponentCompositeAccessStateActions ?? []).entries()) {
    runs.push({
      action: `changeComponentCompositeAccessStateActions[${i}]`,
      run: () =>
        withDoor(ctx, change.componentCompositeUuid, async (w, door) => {
          if (change.accessState === 'ACCESS_CONTROLLED') {
            await lockRelay(w, door, w.nowMs, cause(ctx));
            return succeeded(`door ${door.uuid} access controlled`);
          }
          const unlocked = (await unlockRelay(w, door, w.nowMs, cause(ctx))).door;
          const until = await relockAt(w, door, change);
          if (until !== undefined) await changeDoorState(w, unlocked, { relockAtMillis: until });
          return succeeded(`door ${door.uuid} unlocked${until ? ` until ${new Date(until).toISOString()}` : ''}`);
        }),
    });
  }
  const lockdown = ctx.action.activateLocationLockdown;
  if (lockdown?.locationUuid) {
    runs.push({
      action: 'activateLocationLockdown',
      async run() {
        const record = await write(ctx.deps, ctx.actor, (w) =>
          startLocationLockdown(w, { locationUuid: lockdown.locationUuid!, lockdownPlanUuid: lockdown.locationLockdownPlanUuid ?? null }),
        );
        return succeeded(`location ${record.locationUuid} ${record.state}`);
      },
    });
  }
  return runs;
};

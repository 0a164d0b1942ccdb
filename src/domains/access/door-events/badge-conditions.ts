import type { ReadSource } from '../../../store/reader.js';
import { doorConditionsAt, type DoorStateVerdict } from '../doors/door-state.js';
import type { DoorLockdown } from '../lockdowns/model.js';
import type { DoorRecord } from '../service.js';

/**
 * What the door itself says of a badge-in, whoever presents it (badge-decision.ts asks before weighing the
 * holder's access): its location's lockdown refuses everyone but the plans' physicalAccess users at a door it
 * locks down, and a door whose expected state is UNLOCKED (a schedule, an exception, a lockdown plan) admits
 * any valid credential, as the open door would.
 */
export interface BadgeConditions {
  verdict: DoorStateVerdict;
  lockdown: DoorLockdown | null;
  /** The reference's activeDoorLockdownState of the door at the badge-in. */
  doorLockdownState: 'LOCKED_DOWN' | 'ACCESS_CONTROLLED' | 'UNLOCKED';
}

/** Reasons this file adds to the badge decision's list. */
export const CONDITION_REASONS = ['DOOR_UNLOCKED'] as const;

export async function badgeConditionsAt(source: ReadSource, door: DoorRecord, atMs: number): Promise<BadgeConditions> {
  const { verdict, lockdown } = await doorConditionsAt(source, door, atMs);
  const lockedDown = lockdown?.accessOverridden === true && lockdown.state === 'LOCKED_DOWN';
  return { verdict, lockdown, doorLockdownState: lockedDown ? 'LOCKED_DOWN' : verdict.state === 'UNLOCKED' ? 'UNLOCKED' : 'ACCESS_CONTROLLED' };
}

/**
 * Whether the lockdown refuses the holder: it overrides access, locks this door down, and the holder is not
 * one of the active plans' physicalAccess users. (Exempt groups are kept with the plans; their members are
 * exempt once access control groups resolve membership: see docs/access-lockdown.md.)
 */
export function lockdownRefuses(conditions: BadgeConditions, userUuid: string | null): boolean {
  if (conditions.doorLockdownState !== 'LOCKED_DOWN') return false;
  return !(userUuid !== null && conditions.lockdown!.exemptUserUuids.has(userUuid));
}

/** Whether the door stands unlocked at the moment, so that any valid credential goes through. */
export const doorStandsUnlocked = (conditions: BadgeConditions): boolean => conditions.verdict.state === 'UNLOCKED';

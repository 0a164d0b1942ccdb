import type { Actor } from '../../../bus/write.js';

/** What a lockdown does to a door (the platform's DoorLockdownStateEnumType). */
export const DOOR_LOCKDOWN_STATES = ['LOCKED_DOWN', 'ACCESS_CONTROLLED', 'UNLOCKED', 'UNKNOWN'] as const;
export type DoorLockdownState = (typeof DOOR_LOCKDOWN_STATES)[number];
export const LOCKDOWN_ORIGINATORS = ['USER', 'SUPPORT_AUTHORITY', 'API_TOKEN', 'RULE', 'UNKNOWN'] as const;

/**
 * Who made a write, in the platform's originator names: of a lockdown change, and of a door's relay change
 * that a lockdown or a door's state brought (the catalogue names no LOCKDOWN or SCHEDULE originator, so the
 * change is the caller's, and the scheduler's is UNKNOWN).
 */
export function originatorOf(actor: Actor): { type: (typeof LOCKDOWN_ORIGINATORS)[number] } {
  if (actor.apiKeyId) return { type: 'API_TOKEN' };
  if (/rule/i.test(actor.operation)) return { type: 'RULE' };
  return { type: actor.userUuid ? 'USER' : 'UNKNOWN' };
}

export interface LockdownUsersAndGroups {
  userUuids?: string[] | null;
  groupUuids?: string[] | null;
}

/**
 * A location lockdown plan (the platform's LocationLockdownPlanType): what each door of the location does
 * while the plan is active (doorLockdownStateMap, else defaultLockdownState, else LOCKED_DOWN), who keeps
 * physical access (physicalAccess), and what test mode overrides (testPlan).
 */
export interface LockdownPlanRecord {
  uuid: string;
  orgUuid: string;
  name: string;
  type: 'LOCATION_LOCKDOWN';
  locationUuid: string;
  scopeUuid: string;
  defaultLockdownState: DoorLockdownState | null;
  doorLockdownStateMap: Record<string, DoorLockdownState>;
  physicalAccess: LockdownUsersAndGroups;
  activationPlan: LockdownUsersAndGroups & { rhombusKeyNotificationMessage?: string | null };
  deactivationPlan: LockdownUsersAndGroups & { rhombusKeyNotificationMessage?: string | null };
  testPlan: { doorStateOverrideEnabled: boolean; userAccessOverrideEnabled: boolean };
  description?: string | null;
  createdAtMillis: number;
  updatedAtMillis: number;
}

export interface LockdownPlanReference {
  lockdownPlanUuid: string | null;
  scope: 'LOCATION_LOCKDOWN';
  scopeUuid: string;
}

/** A location's lockdown state (the platform's LocationLockdownStateType). */
export interface LocationLockdownRecord {
  orgUuid: string;
  locationUuid: string;
  state: 'LOCKED_DOWN' | 'STANDARD_SECURITY';
  activeLockdownPlans: LockdownPlanReference[];
  followingTestPlan: boolean;
  createdAtMillis: number | null;
  updatedAtMillis: number | null;
  stateChangedAtMillis: number | null;
}

/** A lockdown activated or deactivated at a location (the platform's BaseLockdownStateEventType). */
export interface LocationLockdownEventRecord {
  uuid: string;
  orgUuid: string;
  locationUuid: string;
  type: 'LOCKDOWN_ACTIVATED' | 'LOCKDOWN_DEACTIVATED';
  followingTestPlan: boolean;
  originator: { type: (typeof LOCKDOWN_ORIGINATORS)[number] };
  lockdownPlanUuids: string[];
  stateChangedAtMillis: number;
  createdAtMillis: number;
}

/** A rule of a location that activates one of its lockdown plans (the platform's ExternalLockdownPlanRuleType). */
export interface LockdownRuleRecord {
  uuid: string;
  ruleUuid: string;
  orgUuid: string;
  locationUuid: string;
  ruleName: string | null;
  triggerActivity: LockdownTrigger;
  ruleFilters: { scheduleUuids?: string[] | null; triggerBackoffSecs?: number | null } | null;
  action: { activateLocationLockdown: { locationLockdownPlanUuid: string; locationUuid: string } };
  lastFiredAtMillis: number | null;
}

/** A door while its location is locked down: its lockdown state by the active plans, and who keeps access. */
export interface DoorLockdown {
  state: Exclude<DoorLockdownState, 'UNKNOWN'>;
  doorsOverridden: boolean;
  accessOverridden: boolean;
  exemptUserUuids: ReadonlySet<string>;
  exemptGroupUuids: ReadonlySet<string>;
}

/** Severity order: where active plans disagree about a door, the strictest wins. */
const STRICTNESS: Record<DoorLockdown['state'], number> = { LOCKED_DOWN: 2, ACCESS_CONTROLLED: 1, UNLOCKED: 0 };

/** A door's state under the active plans; a plan-less lockdown (no plans) locks every door down. */
export function doorStateUnderPlans(plans: readonly LockdownPlanRecord[], doorUuid: string): DoorLockdown['state'] {
  if (plans.length === 0) return 'LOCKED_DOWN';
  let state: DoorLockdown['state'] = 'UNLOCKED';
  for (const plan of plans) {
    const said = plan.doorLockdownStateMap[doorUuid] ?? plan.defaultLockdownState ?? 'LOCKED_DOWN';
    const planState = said === 'UNKNOWN' ? 'LOCKED_DOWN' : said;
    if (STRICTNESS[planState] > STRICTNESS[state]) state = planState;
  }
  return state;
}

/**
 * The activities at a location that can fire a lockdown rule: the ones Gatehouse raises there (a button
 * pressed, a badge refused, a door forced or held open), in the platform's ActivityEnum names.
 */
export const LOCKDOWN_TRIGGERS = [
  'BUTTON_SINGLE_PRESSED',
  'BUTTON_DOUBLE_PRESSED',
  'BUTTON_LONG_PRESSED',
  'AC_BADGE_UNAUTHORIZED',
  'AC_DPI_DOOR_FORCED_OPEN',
  'AC_DPI_DOOR_AJAR',
] as const;
export type LockdownTrigger = (typeof LOCKDOWN_TRIGGERS)[number];

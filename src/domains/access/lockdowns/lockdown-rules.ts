import { runOnChanges } from '../../../bus/change-runner.js';
import type { ChangeEvent } from '../../../store/change-event.js';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { systemActor } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { orgRecords } from '../../../records/org-records.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { findLocation } from '../../devices/service.js';
import { findSchedule } from '../../schedules/service.js';
import { scheduleHolds } from '../../schedules/strategies.js';
import type { ComponentEventRecord } from '../door-events/service.js';
import { lockdownPlans } from './lockdown-plans.js';
import type { LockdownRuleRecord, LockdownTrigger } from './model.js';
import { startLocationLockdown } from './service.js';

async function checkRule(w: WriteScope, rule: LockdownRuleRecord): Promise<LockdownRuleRecord> {
  const action = rule.action.activateLocationLockdown;
  if (action.locationUuid && action.locationUuid !== rule.locationUuid)
    throw fail('INVALID_VALUE', "rule.action.activateLocationLockdown.locationUuid: must be the rule's location");
  const plan = await lockdownPlans.find(w, w.actor.orgUuid, action.locationLockdownPlanUuid);
  if (!plan || plan.locationUuid !== rule.locationUuid) throw fail('NOT_FOUND', `Lockdown plan ${action.locationLockdownPlanUuid} of the location`);
  return {
    ...rule,
    orgUuid: w.actor.orgUuid,
    ruleUuid: rule.uuid,
    ruleName: rule.ruleName ?? null,
    ruleFilters: { scheduleUuids: rule.ruleFilters?.scheduleUuids ?? [], triggerBackoffSecs: rule.ruleFilters?.triggerBackoffSecs ?? 0 },
    action: { activateLocationLockdown: { locationLockdownPlanUuid: plan.uuid, locationUuid: rule.locationUuid } },
  };
}

/** The lockdown rules of the organization's locations (org-scoped records, src/records). */
export const lockdownRules = orgRecords({
  entity: 'LOCKDOWN_RULE',
  label: 'Lockdown rule',
  nameOf: (r) => r.ruleName,
  ownerOf: (r) => r.locationUuid,
  check: checkRule,
});

type RuleInput = Omit<LockdownRuleRecord, 'uuid' | 'ruleUuid' | 'orgUuid' | 'lastFiredAtMillis' | 'ruleName' | 'ruleFilters' | 'action'> & {
  ruleUuid?: string | null;
  ruleName?: string | null;
  ruleFilters?: LockdownRuleRecord['ruleFilters'];
  action: { activateLocationLockdown: { locationLockdownPlanUuid: string; locationUuid?: string | null } };
};

async function ruleOfLocation(
  w: Parameters<typeof lockdownRules.find>[0],
  orgUuid: string,
  locationUuid: string,
  ruleUuid: string,
): Promise<LockdownRuleRecord> {
  const rule = await lockdownRules.find(w, orgUuid, ruleUuid);
  if (!rule || rule.locationUuid !== locationUuid) throw fail('NOT_FOUND', `Lockdown rule ${ruleUuid} of the location`);
  return rule;
}

/** Creates a lockdown rule of a location, or replaces one (ruleUuid given: a rule of that location). */
export async function saveLockdownRule(deps: Pick<Deps, 'store' | 'bus' | 'clock'>, ctx: CallerContext, input: RuleInput): Promise<LockdownRuleRecord> {
  const { ruleUuid, ...fields } = input;
  const record = { ...fields, ruleName: fields.ruleName ?? null, ruleFilters: fields.ruleFilters ?? null, orgUuid: ctx.orgUuid, lastFiredAtMillis: null };
  return write(deps, ctx, async (w) => {
    if (!ruleUuid) return lockdownRules.insert(w, { ...record, ruleUuid: '' } as Omit<LockdownRuleRecord, 'uuid'>);
    const existing = await ruleOfLocation(w, ctx.orgUuid, input.locationUuid, ruleUuid);
    return lockdownRules.put(w, ruleUuid, { ...record, lastFiredAtMillis: existing.lastFiredAtMillis } as Partial<LockdownRuleRecord>);
  });
}

export async function lockdownRulesOf(
  deps: Pick<Deps, 'store'>,
  ctx: Pick<CallerContext, 'orgUuid'>,
  input: { locationUuid: string },
): Promise<LockdownRuleRecord[]> {
  return lockdownRules.list(deps, ctx.orgUuid, { ownerUuids: [input.locationUuid] });
}

export async function deleteLockdownRule(
  deps: Pick<Deps, 'store' | 'bus' | 'clock'>,
  ctx: CallerContext,
  input: { locationUuid: string; ruleUuid: string },
): Promise<void> {
  await write(deps, ctx, async (w) => {
    await ruleOfLocation(w, ctx.orgUuid, input.locationUuid, input.ruleUuid);
    await lockdownRules.delete(w, input.ruleUuid);
  });
}

const PRESS_TRIGGERS: Record<string, LockdownTrigger> = { SINGLE: 'BUTTON_SINGLE_PRESSED', DOUBLE: 'BUTTON_DOUBLE_PRESSED', LONG: 'BUTTON_LONG_PRESSED' };

/** The trigger a change raises at a location, if it raises one. */
export function triggerOf(event: ChangeEvent): { locationUuid: string; trigger: LockdownTrigger; atMs: number } | null {
  if (event.type !== 'CREATE') return null;
  if (event.entity === 'BUTTON_EVENT') {
    const press = event.update as { locationUuid?: string | null; buttonPress?: string; timestampMs?: number };
    const trigger = PRESS_TRIGGERS[press.buttonPress ?? ''];
    return trigger && press.locationUuid ? { locationUuid: press.locationUuid, trigger, atMs: press.timestampMs ?? event.timestampMs } : null;
  }
  if (event.entity === 'COMPONENT_EVENT') {
    const e = event.update as ComponentEventRecord;
    const refused = e.type === 'CredentialReceivedEvent' && (e.authenticationResult === 'REJECTED' || e.authorizationResult === 'DENIED');
    const trigger = refused
      ? 'AC_BADGE_UNAUTHORIZED'
      : e.type === 'DoorPositionIndicatorStateChangeEvent' && e.newState === 'FORCED_OPEN'
        ? 'AC_DPI_DOOR_FORCED_OPEN'
        : e.type === 'DoorPositionIndicatorStateChangeEvent' && e.newState === 'AJAR'
          ? 'AC_DPI_DOOR_AJAR'
          : null;
    return trigger ? { locationUuid: e.locationUuid, trigger, atMs: e.timestampMs } : null;
  }
  return null;
}

/**
 * Fires the lockdown rules a trigger matches: inside one of the rule's schedules (none: always), on the wall
 * clock of the location, and past its back-off since it last fired. Firing activates the rule's plan (as the
 * rule), and records when it fired.
 */
export async function fireLockdownRules(
  deps: Pick<Deps, 'store' | 'bus' | 'clock'>,
  orgUuid: string,
  fired: NonNullable<ReturnType<typeof triggerOf>>,
): Promise<number> {
  const rules = (await lockdownRules.list(deps, orgUuid, { ownerUuids: [fired.locationUuid] })).filter((r) => r.triggerActivity === fired.trigger);
  const timeZone = (await findLocation(deps, orgUuid, fired.locationUuid))?.tz ?? 'UTC';
  let count = 0;
  for (const rule of rules) {
    const schedules = rule.ruleFilters?.scheduleUuids ?? [];
    let inside = schedules.length === 0;
    for (const uuid of schedules) inside ||= scheduleHolds(await findSchedule(deps, orgUuid, uuid), fired.atMs, timeZone);
    if (!inside) continue;
    const ran = await write(deps, systemActor(orgUuid, `lockdown.rule.${rule.uuid}`), async (w) => {
      const current = await lockdownRules.find(w, orgUuid, rule.uuid);
      const backoffMs = (current?.ruleFilters?.triggerBackoffSecs ?? 0) * 1000;
      if (!current || (current.lastFiredAtMillis !== null && w.nowMs < current.lastFiredAtMillis + backoffMs)) return false;
      await lockdownRules.put(w, rule.uuid, { lastFiredAtMillis: w.nowMs });
      await startLocationLockdown(w, { locationUuid: rule.locationUuid, lockdownPlanUuid: rule.action.activateLocationLockdown.locationLockdownPlanUuid });
      return true;
    });
    if (ran) count++;
  }
  return count;
}

/** Runs the lockdown rules of this instance: every change that raises a trigger at a location is evaluated. */
export function startLockdownRuleRunner(deps: Pick<Deps, 'store' | 'bus' | 'clock' | 'log'>): { stop(): Promise<void> } {
  const log = deps.log.child({ domain: 'access', job: 'lockdown-rules' });
  return runOnChanges(
    deps.bus,
    triggerOf,
    (fired, event) => fireLockdownRules(deps, event.orgUuid, fired),
    (err, fired) => log.error({ err, location: fired.locationUuid }, 'lockdown rule failed'),
  );
}

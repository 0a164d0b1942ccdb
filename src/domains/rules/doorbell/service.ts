import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import type { Activity } from '../../../schemas/activities.js';
import { findDevice } from '../../devices/service.js';
import type { Rule } from '../general/schemas.js';
import { createRule, deleteRule, getRulesFiltered } from '../general/service.js';
import type { Static } from 'typebox';
import type { DoorbellRule as DoorbellRuleSchema } from './schemas.js';

type RuleDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'secrets' | 'config'>;

/** What a doorbell camera's press is, as an activity: a rule on a doorbell camera fires on one of these. */
export const DOORBELL_ACTIVITIES: readonly Activity[] = ['AC_DB_TRIGGERED', 'VISITOR_ARRIVED'];
const DOORBELL_RULE_TYPE = 'DOORBELL_CAMERA_DEFINED';

/** A doorbell camera's rule as the platform's clients read and write it. */
export type DoorbellRule = Static<typeof DoorbellRuleSchema>;

async function callersDoorbell(deps: Pick<Deps, 'store'>, ctx: CallerContext, uuid: string | null | undefined): Promise<string> {
  const doorbell = uuid ? await findDevice(deps, ctx.orgUuid, uuid, ['DOORBELL_CAMERA']) : null;
  if (!doorbell) throw fail('NOT_FOUND', 'Doorbell camera');
  return doorbell.uuid;
}

/** A general rule of the doorbell type, as a doorbell rule: its one trigger names the camera and the activity. */
function toDoorbellRule(rule: Rule): DoorbellRule {
  const trigger = rule.triggers?.[0];
  return {
    ruleUuid: rule.uuid,
    ruleName: rule.name,
    doorbellCameraUuid: trigger?.deviceUuids?.[0] ?? null,
    doorbellCameraComponentUuid: trigger?.componentUuids?.[0] ?? null,
    triggerActivity: trigger?.activityEvent?.activityEvent ?? null,
    ruleFilters: rule.ruleFilters,
    action: rule.action,
  };
}

/**
 * `createRuleForDoorbellCamera`: a rule of the general engine (type DOORBELL_CAMERA_DEFINED) whose one trigger is
 * the camera's press: the general rule runner fires it, with every action family, its schedules, back-off and
 * pauses, as any rule. Announced as a RULE.
 */
export async function createRuleForDoorbellCamera(deps: RuleDeps, ctx: CallerContext, rule: DoorbellRule): Promise<string> {
  const doorbell = await callersDoorbell(deps, ctx, rule.doorbellCameraUuid);
  const activity = rule.triggerActivity ?? 'AC_DB_TRIGGERED';
  if (!DOORBELL_ACTIVITIES.includes(activity as Activity))
    throw fail('INVALID_VALUE', `rule.triggerActivity: a doorbell camera's press is ${DOORBELL_ACTIVITIES.join(' or ')}`);
  return createRule(deps, ctx, {
    name: rule.ruleName ?? null,
    ruleType: DOORBELL_RULE_TYPE,
    conjunction: 'OR',
    triggers: [
      {
        type: 'DEVICE_ACTIVITY_EVENT',
        activityEvent: { activityEvent: activity as Activity },
        deviceUuids: [doorbell],
        ...(rule.doorbellCameraComponentUuid ? { componentUuids: [rule.doorbellCameraComponentUuid] } : {}),
      },
    ],
    ruleFilters: rule.ruleFilters,
    action: rule.action,
  });
}

/** The doorbell rules of the caller's organization that name the camera (all doorbell rules when it is null). */
async function doorbellRules(deps: Pick<Deps, 'store' | 'secrets'>, ctx: CallerContext, doorbellUuid: string | null): Promise<DoorbellRule[]> {
  const rules = await getRulesFiltered(deps, ctx, { ruleTypeFilter: [DOORBELL_RULE_TYPE], associatedUuids: doorbellUuid ? [doorbellUuid] : null });
  return rules.map(toDoorbellRule);
}

export async function getRulesForDoorbellCamera(deps: Pick<Deps, 'store' | 'secrets'>, ctx: CallerContext, doorbellUuid: string) {
  return doorbellRules(deps, ctx, await callersDoorbell(deps, ctx, doorbellUuid));
}

/** `getDoorbellCameraRulesForOrg`: every doorbell rule of the organization, by camera. */
export async function getDoorbellCameraRulesForOrg(deps: Pick<Deps, 'store' | 'secrets'>, ctx: CallerContext): Promise<Record<string, DoorbellRule[]>> {
  const map: Record<string, DoorbellRule[]> = {};
  for (const rule of await doorbellRules(deps, ctx, null)) if (rule.doorbellCameraUuid) (map[rule.doorbellCameraUuid] ??= []).push(rule);
  return map;
}

/** `deleteRuleForDoorbellCamera`: the rule must be a doorbell rule of that camera. */
export async function deleteRuleForDoorbellCamera(deps: RuleDeps, ctx: CallerContext, input: { doorbellCameraUuid: string; ruleUuid: string }): Promise<void> {
  const doorbell = await callersDoorbell(deps, ctx, input.doorbellCameraUuid);
  if (!(await doorbellRules(deps, ctx, doorbell)).some((r) => r.ruleUuid === input.ruleUuid)) throw fail('NOT_FOUND', 'Rule');
  await deleteRule(deps, ctx, input.ruleUuid);
}

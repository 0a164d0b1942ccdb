import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { newRuuid } from '../../ids.js';
import { fromJson, toJson } from '../../store/columns.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import { write } from '../../bus/write.js';
import { findDevice } from '../devices/service.js';
import { checkRuleReferences, checkWebhookAddresses } from './rule-references.js';
import { maskActionSecrets, sealActionSecrets } from './rule-secrets.js';
import type { ButtonPress, ButtonRule, CreateRuleForButtonRequest, RuleAction } from './schemas.js';
import * as store from './store.js';
import type { ButtonRulesTable } from './tables.js';
import type { RecordFinder } from '../../records/references.js';
import { orgUuidsIn } from '../../store/org-uuids.js';
import type { ScheduleUse } from '../schedules/schedule-usage.js';

export type RuleDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'secrets' | 'config'>;

/** The stream's entity name of button rule changes. */
export const BUTTON_RULE_ENTITY = 'BUTTON_RULE';

/** A stored rule as evaluation needs it: the action still sealed. */
export interface StoredRule {
  uuid: string;
  orgUuid: string;
  sensorUuid: string;
  name: string | null;
  triggerPress: ButtonPress;
  scheduleUuids: string[];
  backoffSecs: number;
  sealedAction: RuleAction;
}

export function toStoredRule(row: ButtonRulesTable): StoredRule {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    sensorUuid: row.sensor_uuid,
    name: row.name,
    triggerPress: row.trigger_press as ButtonPress,
    scheduleUuids: fromJson<string[]>(row.schedule_uuids) ?? [],
    backoffSecs: row.backoff_secs,
    sealedAction: fromJson<RuleAction>(row.action) ?? {},
  };
}

/** The rule as the API answers it (the specification's button rule), secrets masked. */
export function toButtonRule(deps: Pick<Deps, 'secrets'>, rule: StoredRule): ButtonRule {
  return {
    ruleUuid: rule.uuid,
    ruleName: rule.name,
    sensorUuid: rule.sensorUuid,
    triggerPress: rule.triggerPress,
    ruleFilters: { scheduleUuids: rule.scheduleUuids, triggerBackoffSecs: rule.backoffSecs },
    action: maskActionSecrets(deps.secrets, rule.uuid, rule.sealedAction),
  };
}

/** Drops null and empty members, so the stored action holds only what the rule does. */
function compactAction(action: RuleAction): RuleAction {
  return Object.fromEntries(Object.entries(action).filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0))) as RuleAction;
}

/** Creates a rule on a button of the caller's organization, once every reference and URL in it checks out. */
export async function createRuleForButton(deps: RuleDeps, ctx: CallerContext, input: CreateRuleForButtonRequest): Promise<string> {
  const rule = input.rule;
  if (!rule.sensorUuid) throw fail('INVALID_VALUE', 'rule.sensorUuid: required');
  if (!rule.triggerPress) throw fail('INVALID_VALUE', 'rule.triggerPress: required');
  const action = compactAction(rule.action ?? {});
  if (Object.keys(action).length === 0) throw fail('INVALID_VALUE', 'rule.action: give at least one action');
  const scheduleUuids = [...new Set(rule.ruleFilters?.scheduleUuids ?? [])];
  await checkWebhookAddresses(deps, action);
  return write(deps, ctx, async (w) => {
    await checkRuleReferences(w, ctx.orgUuid, { ...rule, action });
    const uuid = newRuuid();
    const row: ButtonRulesTable = {
      uuid,
      org_uuid: ctx.orgUuid,
      sensor_uuid: rule.sensorUuid!,
      name: rule.ruleName ?? null,
      trigger_press: rule.triggerPress!,
      schedule_uuids: toJson(scheduleUuids)!,
      backoff_secs: rule.ruleFilters?.triggerBackoffSecs ?? 0,
      action: toJson(sealActionSecrets(deps.secrets, uuid, action))!,
      last_fired_at_ms: null,
      created_at_ms: w.nowMs,
      updated_at_ms: w.nowMs,
    };
    await store.insertRule(w.tx, row, scheduleUuids);
    w.change({ entity: BUTTON_RULE_ENTITY, entityUuid: uuid, type: 'CREATE', deviceUuid: row.sensor_uuid, update: toButtonRule(deps, toStoredRule(row)) });
    return uuid;
  });
}

/** The rules of a button of the caller's organization, or of all its buttons when `sensorUuid` is null. */
export async function getRulesForButton(deps: Pick<Deps, 'store' | 'secrets'>, ctx: CallerContext, sensorUuid: string | null): Promise<ButtonRule[]> {
  if (sensorUuid !== null && !(await findDevice(deps, ctx.orgUuid, sensorUuid, ['BUTTON']))) throw fail('NOT_FOUND', 'Button');
  return (await store.listRules(deps.store.db, ctx.orgUuid, sensorUuid)).map((row) => toButtonRule(deps, toStoredRule(row)));
}

/** Every button rule of the caller's organization, by button. */
export async function getButtonRulesForOrg(deps: Pick<Deps, 'store' | 'secrets'>, ctx: CallerContext): Promise<Record<string, ButtonRule[]>> {
  const map: Record<string, ButtonRule[]> = {};
  for (const rule of await getRulesForButton(deps, ctx, null)) (map[rule.sensorUuid!] ??= []).push(rule);
  return map;
}

/** The record finder of kind buttonRule (src/records/references.ts). */
export const findButtonRuleUuids: RecordFinder = (source, orgUuid, uuids) => orgUuidsIn(dbOf(source), 'button_rules', orgUuid, uuids);

/** Deletes a rule of the caller's organization; when `sensorUuid` is given the rule must be that button's. */
export async function deleteRuleForButton(deps: RuleDeps, ctx: CallerContext, input: { ruleUuid: string; sensorUuid?: string | null }): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await store.findRule(w.tx, ctx.orgUuid, input.ruleUuid);
    if (!row || (input.sensorUuid && row.sensor_uuid !== input.sensorUuid)) throw fail('NOT_FOUND', 'Rule');
    await store.deleteRule(w.tx, ctx.orgUuid, row.uuid);
    w.change({
      entity: BUTTON_RULE_ENTITY,
      entityUuid: row.uuid,
      type: 'DELETE',
      deviceUuid: row.sensor_uuid,
      update: { ruleUuid: row.uuid, sensorUuid: row.sensor_uuid },
    });
  });
}

/** The rules of one button, as evaluation reads them (inside the press's write). */
export async function listButtonRules(source: ReadSource, orgUuid: string, sensorUuid: string): Promise<StoredRule[]> {
  return (await store.listRules(dbOf(source), orgUuid, sensorUuid)).map(toStoredRule);
}

/** The rules that filter on a schedule, named for the schedules domain's usage check (deps.scheduleUsage). */
export async function rulesUsingSchedule(source: ReadSource, orgUuid: string, scheduleUuid: string): Promise<ScheduleUse[]> {
  return (await store.listRulesUsingSchedule(dbOf(source), orgUuid, scheduleUuid)).map((r) => ({
    kind: 'rule',
    uuid: r.uuid,
    label: `button rule "${r.name ?? r.uuid}"`,
  }));
}

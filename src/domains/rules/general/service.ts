import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import { fromJson, toJson } from '../../../store/columns.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import type { Rule, RuleTrigger } from './schemas.js';
import * as store from './store.js';
import type { RulePausesTable, RulesTable } from './tables.js';
import { checkRuleReferences, checkWebhookAddresses } from '../rule-references.js';
import { maskActionSecrets, sealActionSecrets } from '../rule-secrets.js';
import type { StoredRule } from '../rules.service.js';
import type { RuleAction } from '../schemas.js';
import type { ScheduleUse } from '../../schedules/schedule-usage.js';

type RuleDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'secrets' | 'config'>;

/** A general rule as kept: triggers and filters as given, the action sealed. */
export interface GeneralRule {
  uuid: string;
  orgUuid: string;
  name: string | null;
  ruleType: NonNullable<Rule['ruleType']>;
  conjunction: NonNullable<Rule['conjunction']>;
  triggers: RuleTrigger[];
  scheduleUuids: string[];
  backoffSecs: number;
  /** When it last fired, as read (the firing's claim decides; this only spares a firing that cannot pass its back-off). */
  lastFiredAtMs: number | null;
  sealedAction: RuleAction;
}

export function toGeneralRule(row: RulesTable): GeneralRule {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    name: row.name,
    ruleType: row.rule_type as GeneralRule['ruleType'],
    conjunction: row.conjunction as GeneralRule['conjunction'],
    triggers: fromJson<RuleTrigger[]>(row.triggers) ?? [],
    scheduleUuids: fromJson<string[]>(row.schedule_uuids) ?? [],
    backoffSecs: row.backoff_secs,
    lastFiredAtMs: row.last_fired_at_ms,
    sealedAction: fromJson<RuleAction>(row.action) ?? {},
  };
}

/** The rule as the API and the stream answer it, secrets masked. */
export function toRule(deps: Pick<Deps, 'secrets'>, rule: GeneralRule): Rule {
  return {
    uuid: rule.uuid,
    orgUuid: rule.orgUuid,
    name: rule.name,
    ruleType: rule.ruleType,
    conjunction: rule.conjunction,
    triggers: rule.triggers,
    ruleFilters: { scheduleUuids: rule.scheduleUuids, triggerBackoffSecs: rule.backoffSecs },
    action: maskActionSecrets(deps.secrets, rule.uuid, rule.sealedAction),
  };
}

/** The rule as the action families run it (they were written for button rules: the device is the trigger's). */
export function asStoredRule(rule: GeneralRule, deviceUuid: string): StoredRule {
  return {
    uuid: rule.uuid,
    orgUuid: rule.orgUuid,
    sensorUuid: deviceUuid,
    name: rule.name,
    triggerPress: 'NONE',
    scheduleUuids: rule.scheduleUuids,
    backoffSecs: rule.backoffSecs,
    sealedAction: rule.sealedAction,
  };
}

const compactAction = (action: RuleAction): RuleAction =>
  Object.fromEntries(Object.entries(action).filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0))) as RuleAction;

/** Checks the triggers: device activity ones, naming an activity, and only the organization's devices, doors and locations. */
function checkTriggers(triggers: readonly RuleTrigger[]): RuleTrigger[] {
  if (triggers.length === 0) throw fail('INVALID_VALUE', 'rule.triggers: give at least one trigger');
  const kept: RuleTrigger[] = [];
  for (const [i, t] of triggers.entries()) {
    const at = `rule.triggers[${i}]`;
    if (t.type !== 'DEVICE_ACTIVITY_EVENT') throw fail('INVALID_VALUE', `${at}.type: only DEVICE_ACTIVITY_EVENT triggers are evaluated, not ${t.type}`);
    if (!t.activityEvent?.activityEvent) throw fail('INVALID_VALUE', `${at}.activityEvent.activityEvent: required`);
    // Its devices, doors, locations and components were resolved at the edge (RefUuid in RuleTrigger).
    kept.push(Object.fromEntries(Object.entries(t).filter(([, v]) => v !== null && v !== undefined)) as RuleTrigger);
  }
  return kept;
}

/** The columns a rule's fields make, once checked inside the write. */
async function checkedColumns(deps: RuleDeps, w: WriteScope, uuid: string, rule: Rule) {
  const action = compactAction(rule.action ?? {});
  if (Object.keys(action).length === 0) throw fail('INVALID_VALUE', 'rule.action: give at least one action');
  const triggers = checkTriggers(rule.triggers ?? []);
  await checkRuleReferences(w, w.actor.orgUuid, { ruleFilters: rule.ruleFilters, action });
  return {
    name: rule.name ?? null,
    rule_type: rule.ruleType ?? 'USER_DEFINED',
    conjunction: rule.conjunction ?? 'OR',
    triggers: toJson(triggers)!,
    schedule_uuids: toJson([...new Set(rule.ruleFilters?.scheduleUuids ?? [])])!,
    backoff_secs: rule.ruleFilters?.triggerBackoffSecs ?? 0,
    action: toJson(sealActionSecrets(deps.secrets, uuid, action))!,
  };
}

function announce(deps: Pick<Deps, 'secrets'>, w: WriteScope, type: 'CREATE' | 'UPDATE' | 'DELETE', row: RulesTable): void {
  w.change({ entity: 'RULE', entityUuid: row.uuid, type, update: toRule(deps, toGeneralRule(row)) });
}

async function callersRule(source: ReadSource, orgUuid: string, uuid: string): Promise<RulesTable> {
  const row = await store.findRule(dbOf(source), orgUuid, uuid);
  if (!row) throw fail('NOT_FOUND', 'Rule');
  return row;
}

/** `createRule`: a rule of the caller's organization on device activity; answers its uuid. */
export async function createRule(deps: RuleDeps, ctx: CallerContext, rule: Rule): Promise<string> {
  if (rule.orgUuid != null && rule.orgUuid !== ctx.orgUuid) throw fail('NOT_FOUND', 'Organization');
  await checkWebhookAddresses(deps, rule.action ?? {});
  return write(deps, ctx, async (w) => {
    const uuid = newRuuid();
    const row: RulesTable = {
      uuid,
      org_uuid: ctx.orgUuid,
      ...(await checkedColumns(deps, w, uuid, rule)),
      last_fired_at_ms: null,
      created_at_ms: w.nowMs,
      updated_at_ms: w.nowMs,
    };
    await store.insertRule(w.tx, row);
    announce(deps, w, 'CREATE', row);
    return uuid;
  });
}

/** `updateRule`: the fields given replace the rule's; its action, when given, is replaced whole. */
export async function updateRule(deps: RuleDeps, ctx: CallerContext, update: Rule & { uuid: string }): Promise<void> {
  if (update.action) await checkWebhookAddresses(deps, update.action);
  await write(deps, ctx, async (w) => {
    const current = await callersRule(w, ctx.orgUuid, update.uuid);
    const rule = toRule({ secrets: deps.secrets }, toGeneralRule(current));
    const given = Object.fromEntries(Object.entries(update).filter(([, v]) => v !== null && v !== undefined)) as Rule;
    // The current action is kept sealed when none is given: it is carried over, not re-sealed from its masked form.
    const merged: Rule = { ...rule, ...given, action: given.action ?? fromJson<RuleAction>(current.action) ?? {} };
    const columns = await checkedColumns(deps, w, current.uuid, merged);
    const changes = { ...columns, ...(given.action ? {} : { action: current.action }), updated_at_ms: w.nowMs };
    await store.updateRule(w.tx, ctx.orgUuid, current.uuid, changes);
    announce(deps, w, 'UPDATE', { ...current, ...changes });
  });
}

/** `deleteRule`: the rule and its pauses (its records stay until deleted). */
export async function deleteRule(deps: RuleDeps, ctx: CallerContext, uuid: string): Promise<void> {
  await write(deps, ctx, async (w) => {
    const current = await callersRule(w, ctx.orgUuid, uuid);
    await store.deleteRule(w.tx, ctx.orgUuid, current.uuid);
    announce(deps, w, 'DELETE', current);
  });
}

/** `getRulesForOrg`: every general rule of the caller's organization, by name. */
export async function getRulesForOrg(deps: Pick<Deps, 'store' | 'secrets'>, ctx: CallerContext): Promise<Rule[]> {
  return (await store.listRules(deps.store.db, ctx.orgUuid)).map((row) => toRule(deps, toGeneralRule(row)));
}

const associatedWith = (rule: Rule, uuids: ReadonlySet<string>) =>
  uuids.has(rule.uuid!) ||
  (rule.triggers ?? []).some((t) => [...(t.deviceUuids ?? []), ...(t.componentCompositeUuids ?? []), ...(t.locationUuids ?? [])].some((u) => uuids.has(u)));

/** `getRulesFiltered`: the rules of the given types that name one of the uuids (the rule's, or a device, door or location its triggers name). */
export async function getRulesFiltered(
  deps: Pick<Deps, 'store' | 'secrets'>,
  ctx: CallerContext,
  filter: { associatedUuids?: string[] | null; ruleTypeFilter?: string[] | null },
): Promise<Rule[]> {
  const uuids = filter.associatedUuids?.length ? new Set(filter.associatedUuids) : null;
  const types = filter.ruleTypeFilter?.length ? new Set(filter.ruleTypeFilter) : null;
  return (await getRulesForOrg(deps, ctx)).filter((r) => (!types || types.has(r.ruleType!)) && (!uuids || associatedWith(r, uuids)));
}

export interface RulePauseRecord {
  uuid: string;
  orgUuid: string;
  ruleUuid: string;
  timestampSec: number;
  durationSecs: number;
}

const toPause = (row: RulePausesTable): RulePauseRecord => ({
  uuid: row.uuid,
  orgUuid: row.org_uuid,
  ruleUuid: row.rule_uuid,
  timestampSec: Math.floor(row.start_ms / 1000),
  durationSecs: row.duration_secs,
});

/** `pauseRule`: the rule does not fire from the pause's start (default now) for its duration. */
export async function pauseRule(
  deps: RuleDeps,
  ctx: CallerContext,
  input: { ruleUuid: string; durationSec: number; scheduledTimestampSec?: number | null },
): Promise<RulePauseRecord> {
  return write(deps, ctx, async (w) => {
    const rule = await callersRule(w, ctx.orgUuid, input.ruleUuid);
    const row: RulePausesTable = {
      uuid: newRuuid(),
      org_uuid: ctx.orgUuid,
      rule_uuid: rule.uuid,
      start_ms: input.scheduledTimestampSec != null ? input.scheduledTimestampSec * 1000 : w.nowMs,
      duration_secs: input.durationSec,
    };
    await store.insertPause(w.tx, row);
    const pause = toPause(row);
    w.change({ entity: 'RULE_PAUSE', entityUuid: row.uuid, type: 'CREATE', update: pause });
    return pause;
  });
}

/** `getRulePauseSettings`: the pauses not yet over, by rule. */
export async function getRulePauseSettings(
  deps: Pick<Deps, 'store' | 'clock'>,
  ctx: CallerContext,
): Promise<Record<string, Array<Omit<RulePauseRecord, 'orgUuid' | 'ruleUuid'>>>> {
  const now = deps.clock.now();
  const map: Record<string, Array<Omit<RulePauseRecord, 'orgUuid' | 'ruleUuid'>>> = {};
  for (const row of await store.listPauses(deps.store.db, ctx.orgUuid)) {
    if (row.start_ms + row.duration_secs * 1000 <= now) continue;
    const { uuid, timestampSec, durationSecs } = toPause(row);
    (map[row.rule_uuid] ??= []).push({ uuid, timestampSec, durationSecs });
  }
  return map;
}

/** `deleteRulePauseSetting`: ends a pause (the rule fires again at once, unless another pause covers now). */
export async function deleteRulePauseSetting(deps: RuleDeps, ctx: CallerContext, uuid: string): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await store.findPause(w.tx, ctx.orgUuid, uuid);
    if (!row) throw fail('NOT_FOUND', 'Rule pause setting');
    await store.deletePause(w.tx, ctx.orgUuid, uuid);
    w.change({ entity: 'RULE_PAUSE', entityUuid: uuid, type: 'DELETE', update: toPause(row) });
  });
}

/** Whether a pause of the rule covers the moment. */
export async function isRulePaused(source: ReadSource, orgUuid: string, ruleUuid: string, atMs: number): Promise<boolean> {
  return (await store.listPauses(dbOf(source), orgUuid, ruleUuid)).some((p) => p.start_ms <= atMs && atMs < p.start_ms + p.duration_secs * 1000);
}

/** The organization's general rules, as the runner evaluates them. */
export async function listGeneralRules(source: ReadSource, orgUuid: string): Promise<GeneralRule[]> {
  return (await store.listRules(dbOf(source), orgUuid)).map(toGeneralRule);
}

/** The general rules that filter on a schedule, for the schedules domain's usage check. */
export async function generalRulesUsingSchedule(source: ReadSource, orgUuid: string, scheduleUuid: string): Promise<ScheduleUse[]> {
  return (await listGeneralRules(source, orgUuid))
    .filter((r) => r.scheduleUuids.includes(scheduleUuid))
    .map((r) => ({ kind: 'rule', uuid: r.uuid, label: `rule "${r.name ?? r.uuid}"` }));
}

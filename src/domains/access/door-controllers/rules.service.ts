import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { newRuuid } from '../../../ids.js';
import { findDevice } from '../../devices/service.js';
import type { DoorControllerRuleRecord, RuleInput } from './rules.schemas.js';
import * as store from './rules.store.js';
import type { DoorControllerRulesTable } from './tables.js';

type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;
const KNOWN = new Set(['uuid', 'name', 'enabled', 'ruleType', 'settings', 'deviceUuid', 'createdAtMillis', 'updatedAtMillis']);

export function toRuleRecord(row: DoorControllerRulesTable): DoorControllerRuleRecord {
  return {
    uuid: row.uuid,
    deviceUuid: row.device_uuid,
    name: row.name,
    enabled: Boolean(row.enabled),
    ruleType: row.rule_type,
    settings: JSON.parse(row.settings) as Record<string, unknown>,
    createdAtMillis: Number(row.created_at_ms),
    updatedAtMillis: Number(row.updated_at_ms),
  };
}

async function requireController(source: Parameters<typeof findDevice>[0], orgUuid: string, uuid: string): Promise<void> {
  if (!(await findDevice(source, orgUuid, uuid, ['DOOR_CONTROLLER']))) throw fail('NOT_FOUND', 'Door controller');
}

/** The rule's other fields (beyond those kept in columns), merged over its `settings`. */
function settingsOf(rule: RuleInput): string {
  const extra = Object.fromEntries(Object.entries(rule).filter(([k, v]) => !KNOWN.has(k) && v !== undefined));
  return JSON.stringify({ ...(rule.settings ?? {}), ...extra });
}

function announce(w: WriteScope, row: DoorControllerRulesTable, type: 'CREATE' | 'UPDATE' | 'DELETE'): void {
  w.change({ entity: 'DOOR_CONTROLLER_RULE', entityUuid: row.uuid, deviceUuid: row.device_uuid, type, update: toRuleRecord(row) });
}

export async function createRule(deps: WriteDeps, ctx: CallerContext, controllerUuid: string, rule: RuleInput): Promise<DoorControllerRuleRecord> {
  return write(deps, ctx, async (w) => {
    await requireController(w, ctx.orgUuid, controllerUuid);
    const row: DoorControllerRulesTable = {
      uuid: newRuuid(),
      org_uuid: ctx.orgUuid,
      device_uuid: controllerUuid,
      name: rule.name,
      enabled: rule.enabled === false ? 0 : 1,
      rule_type: rule.ruleType ?? 'CUSTOM',
      settings: settingsOf(rule),
      created_at_ms: w.nowMs,
      updated_at_ms: w.nowMs,
    };
    await store.insertRule(w.tx, row);
    announce(w, row, 'CREATE');
    return toRuleRecord(row);
  });
}

async function existing(
  source: Parameters<typeof store.findRule>[0],
  orgUuid: string,
  controllerUuid: string,
  ruleUuid: string,
): Promise<DoorControllerRulesTable> {
  const row = await store.findRule(source, orgUuid, controllerUuid, ruleUuid);
  if (!row) throw fail('NOT_FOUND', 'Door controller rule');
  return row;
}

export async function getRule(deps: Pick<Deps, 'store'>, ctx: CallerContext, controllerUuid: string, ruleUuid: string): Promise<DoorControllerRuleRecord> {
  await requireController(deps, ctx.orgUuid, controllerUuid);
  return toRuleRecord(await existing(deps.store.db, ctx.orgUuid, controllerUuid, ruleUuid));
}

export async function listRules(deps: Pick<Deps, 'store'>, ctx: CallerContext, controllerUuid: string): Promise<DoorControllerRuleRecord[]> {
  await requireController(deps, ctx.orgUuid, controllerUuid);
  return (await store.listRules(deps.store.db, ctx.orgUuid, controllerUuid)).map(toRuleRecord);
}

export async function updateRule(
  deps: WriteDeps,
  ctx: CallerContext,
  controllerUuid: string,
  rule: RuleInput & { uuid: string },
): Promise<DoorControllerRuleRecord> {
  return write(deps, ctx, async (w) => {
    await requireController(w, ctx.orgUuid, controllerUuid);
    const current = await existing(w.tx, ctx.orgUuid, controllerUuid, rule.uuid);
    const row: DoorControllerRulesTable = {
      ...current,
      name: rule.name,
      enabled: rule.enabled == null ? current.enabled : rule.enabled ? 1 : 0,
      rule_type: rule.ruleType ?? current.rule_type,
      settings: settingsOf(rule),
      updated_at_ms: w.nowMs,
    };
    await store.updateRule(w.tx, row);
    announce(w, row, 'UPDATE');
    return toRuleRecord(row);
  });
}

export async function deleteRule(deps: WriteDeps, ctx: CallerContext, controllerUuid: string, ruleUuid: string): Promise<void> {
  await write(deps, ctx, async (w) => {
    await requireController(w, ctx.orgUuid, controllerUuid);
    const row = await existing(w.tx, ctx.orgUuid, controllerUuid, ruleUuid);
    await store.deleteRule(w.tx, ctx.orgUuid, ruleUuid);
    announce(w, row, 'DELETE');
  });
}

import type { Deps } from '../../deps.js';
import { fromJson, toJson } from '../../store/columns.js';
import type { WriteScope } from '../../bus/write.js';
import type { RecordCleaner } from '../../records/references.js';
import { namesDevice, type DeviceReferenceCleaner } from '../devices/device-references.js';
import type { DeviceRecord } from '../devices/service.js';
import type { RuleTrigger } from './general/schemas.js';
import { toGeneralRule, toRule } from './general/service.js';
import * as generalStore from './general/store.js';
import { BUTTON_RULE_ENTITY, toButtonRule, toStoredRule } from './rules.service.js';
import type { RuleAction } from './schemas.js';
import * as store from './store.js';

const DROP = Symbol('drop');

/**
 * A value with every mention of the device taken out: a list loses the entries that name it, and a part of
 * an action that names it in a field of its own (an audio device, a relay) or whose list of targets it
 * emptied goes as a whole, since it would now act on nothing.
 */
function withoutDevice(value: unknown, uuid: string): unknown {
  if (typeof value === 'string') return namesDevice(value, uuid) ? DROP : value;
  if (Array.isArray(value)) {
    const kept = value.map((v) => withoutDevice(v, uuid)).filter((v) => v !== DROP);
    return kept.length === 0 && value.length > 0 ? DROP : kept;
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const kept = withoutDevice(v, uuid);
      if (kept === DROP) return DROP;
      out[k] = kept;
    }
    return out;
  }
  return value;
}

/** The action without the device: each member that named it goes; null when nothing is left to do. */
function actionWithout(action: RuleAction, uuid: string): RuleAction | null {
  const kept = Object.fromEntries(
    Object.entries(action)
      .map(([k, v]) => [k, withoutDevice(v, uuid)] as const)
      .filter(([, v]) => v !== DROP && v !== null && v !== undefined),
  );
  return Object.keys(kept).length > 0 ? (kept as RuleAction) : null;
}

/** The triggers without the device (or door): a trigger whose list named only it goes (an empty list would mean any). */
function triggersWithout(triggers: readonly RuleTrigger[], uuid: string): RuleTrigger[] {
  return triggers.flatMap((t) => {
    const lists = { deviceUuids: t.deviceUuids, componentUuids: t.componentUuids, componentCompositeUuids: t.componentCompositeUuids };
    const next: RuleTrigger = { ...t };
    for (const [field, list] of Object.entries(lists) as Array<[keyof typeof lists, string[] | null | undefined]>) {
      if (!list?.some((u) => namesDevice(u, uuid))) continue;
      const kept = list.filter((u) => !namesDevice(u, uuid));
      if (kept.length === 0) return [];
      next[field] = kept;
    }
    return [next];
  });
}

/** A record that a rule may name: a device, or a record its actions name (a prompt, a lockdown plan). */
type Named = Pick<DeviceRecord, 'uuid' | 'orgUuid'>;

async function buttonRulesForget(deps: Pick<Deps, 'secrets'>, w: WriteScope, device: Named): Promise<void> {
  for (const row of await store.listRules(w.tx, device.orgUuid, null)) {
    if (row.sensor_uuid !== device.uuid && !row.action.includes(device.uuid)) continue;
    const action = row.sensor_uuid === device.uuid ? null : actionWithout(fromJson<RuleAction>(row.action) ?? {}, device.uuid);
    if (action === null) {
      await store.deleteRule(w.tx, device.orgUuid, row.uuid);
      w.change({
        entity: BUTTON_RULE_ENTITY,
        entityUuid: row.uuid,
        type: 'DELETE',
        deviceUuid: row.sensor_uuid,
        update: { ruleUuid: row.uuid, sensorUuid: row.sensor_uuid },
      });
      continue;
    }
    const updated = { ...row, action: toJson(action)!, updated_at_ms: w.nowMs };
    await store.updateRuleAction(w.tx, device.orgUuid, row.uuid, updated.action, w.nowMs);
    w.change({
      entity: BUTTON_RULE_ENTITY,
      entityUuid: row.uuid,
      type: 'UPDATE',
      deviceUuid: row.sensor_uuid,
      update: toButtonRule(deps, toStoredRule(updated)),
    });
  }
}

async function generalRulesForget(deps: Pick<Deps, 'secrets'>, w: WriteScope, device: Named): Promise<void> {
  for (const row of await generalStore.listRules(w.tx, device.orgUuid)) {
    if (!row.triggers.includes(device.uuid) && !row.action.includes(device.uuid)) continue;
    const rule = toGeneralRule(row);
    const triggers = triggersWithout(rule.triggers, device.uuid);
    const action = actionWithout(rule.sealedAction, device.uuid);
    if (triggers.length === 0 || action === null) {
      await generalStore.deleteRule(w.tx, device.orgUuid, row.uuid);
      w.change({ entity: 'RULE', entityUuid: row.uuid, type: 'DELETE', update: toRule(deps, rule) });
      continue;
    }
    const changes = { triggers: toJson(triggers)!, action: toJson(action)!, updated_at_ms: w.nowMs };
    await generalStore.updateRule(w.tx, device.orgUuid, row.uuid, changes);
    w.change({ entity: 'RULE', entityUuid: row.uuid, type: 'UPDATE', update: toRule(deps, toGeneralRule({ ...row, ...changes })) });
  }
}

/**
 * A deleted device leaves the rules: a button's own rules (and a doorbell camera's) go with it; a trigger or an
 * action that named it loses it, and a rule left with no trigger or nothing to do is deleted. Each rule
 * changed or deleted is announced.
 */
export const rulesForgetDevice =
  (deps: Pick<Deps, 'secrets'>): DeviceReferenceCleaner =>
  async (w, device) => {
    await buttonRulesForget(deps, w, device);
    await generalRulesForget(deps, w, device);
  };

/**
 * A deleted prompt, lockdown plan, component or door leaves the rules as a device does: the part of an action or
 * the trigger's entry that names it goes, and a rule left with nothing to do is deleted, each announced.
 */
export const rulesForgetRecord =
  (deps: Pick<Deps, 'secrets'>): RecordCleaner =>
  async (w, uuid) => {
    await buttonRulesForget(deps, w, { uuid, orgUuid: w.actor.orgUuid });
    await generalRulesForget(deps, w, { uuid, orgUuid: w.actor.orgUuid });
  };

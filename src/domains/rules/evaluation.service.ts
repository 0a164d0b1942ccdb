import type { CallerContext } from '../../context.js';
import { systemActor } from '../../deps.js';
import { fail } from '../../errors.js';
import { newRuuid } from '../../ids.js';
import { fromJson, toJson } from '../../store/columns.js';
import type { ReadSource } from '../../store/reader.js';
import { write } from '../../bus/write.js';
import { appendDeviceHistory } from '../devices/device-reads/device-events.service.js';
import { findDevice, findDeviceOfAnyOrg, findLocation } from '../devices/service.js';
import { findSchedule } from '../schedules/service.js';
import { scheduleCovers } from '../schedules/strategies.js';
import type { ActionFamily, ActionRun, EngineDeps, RuleEvent } from './actions/action.js';
import { alertActions } from './actions/alert.js';
import { deviceCommandActions } from './actions/device-commands.js';
import { doorActions } from './actions/doors.js';
import { integrationActions } from './actions/integrations.js';
import { liveNotificationActions } from './actions/live-notification.js';
import { relayActions } from './actions/relays.js';
import { webhookActions } from './actions/webhook.js';
import { openActionSecrets } from './rule-secrets.js';
import { listButtonRules, type StoredRule } from './rules.service.js';
import type { ActionOutcome, ButtonEvent, ButtonPress, GetButtonPressEventsForSensorRequest, RuleAction, RuleFiring } from './schemas.js';
import type { RulesEventRecord } from './general/schemas.js';
import { closeEventRecord, openEventRecord } from './rule-records.service.js';
import type { Activity } from '../../schemas/activities.js';
import { BUTTON_EVENT_PAGE } from './schemas.js';
import * as store from './store.js';
import type { ButtonPressesTable, RuleFiringsTable } from './tables.js';

export const BUTTON_EVENT_ENTITY = 'BUTTON_EVENT';
export const RULE_FIRING_ENTITY = 'BUTTON_RULE_FIRING';

/** Every action family, each in its own module; a firing runs all of their runs independently. */
const ACTION_FAMILIES: readonly ActionFamily[] = [
  webhookActions,
  alertActions,
  liveNotificationActions,
  doorActions,
  deviceCommandActions,
  relayActions,
  integrationActions,
];

function toButtonEvent(row: ButtonPressesTable): ButtonEvent {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    locationUuid: row.location_uuid,
    componentUuid: row.sensor_uuid,
    ownerDeviceUuid: row.sensor_uuid,
    type: 'ButtonEvent',
    buttonPress: row.press as ButtonPress,
    pressDurationMillis: row.press_duration_ms,
    timestampMs: row.timestamp_ms,
    createdAtMs: row.created_at_ms,
  };
}

function toFiring(row: RuleFiringsTable): RuleFiring {
  return {
    uuid: row.uuid,
    ruleUuid: row.rule_uuid,
    sensorUuid: row.sensor_uuid,
    pressUuid: row.press_uuid,
    firedAtMs: row.fired_at_ms,
    outcomes: fromJson<ActionOutcome[]>(row.outcomes) ?? [],
  };
}

/** The activity a press is, in the platform's names (what a button rule's record says it fired on). */
const PRESS_ACTIVITIES: Partial<Record<ButtonPress, Activity>> = {
  SINGLE: 'BUTTON_SINGLE_PRESSED',
  INITIAL_PRESS: 'BUTTON_SINGLE_PRESSED',
  DOUBLE: 'BUTTON_DOUBLE_PRESSED',
  LONG: 'BUTTON_LONG_PRESSED',
  LONG_RELEASE: 'BUTTON_LONG_PRESSED',
};

/** Whether the press lies inside one of the rule's schedules (none: always), in the location's time zone. */
export async function insideSchedules(w: ReadSource, rule: Pick<StoredRule, 'orgUuid' | 'scheduleUuids'>, atMs: number, timeZone: string): Promise<boolean> {
  if (rule.scheduleUuids.length === 0) return true;
  for (const uuid of rule.scheduleUuids) {
    const schedule = await findSchedule(w, rule.orgUuid, uuid);
    if (schedule && scheduleCovers(schedule, atMs, timeZone)) return true;
  }
  return false;
}

export interface PressInput {
  sensorUuid: string;
  press: ButtonPress;
  pressDurationMs?: number | null;
  timestampMs?: number | null;
}

export interface PressResult {
  event: ButtonEvent;
  firings: RuleFiring[];
}

/**
 * Records a press of a button (of any organization: what the device reports) and evaluates the button's
 * rules. A rule fires when the press type is its triggerPress, the press lies inside one of its schedules,
 * and its back-off has passed; the back-off is claimed in the press's transaction, so a rule fires once
 * however many instances evaluate presses at the same time. The firings are committed with the press; their
 * actions then run, each on its own, and each outcome is recorded on the firing.
 */
export async function recordPress(deps: EngineDeps, input: PressInput): Promise<PressResult> {
  const button = await findDeviceOfAnyOrg(deps, input.sensorUuid);
  if (!button || button.deviceType !== 'BUTTON') throw fail('NOT_FOUND', 'Button');
  const actor = systemActor(button.orgUuid, 'button.press');
  const { event, fired } = await write(deps, actor, async (w) => {
    const location = button.locationUuid ? await findLocation(w, button.orgUuid, button.locationUuid) : null;
    const row: ButtonPressesTable = {
      uuid: newRuuid(),
      org_uuid: button.orgUuid,
      sensor_uuid: button.uuid,
      location_uuid: button.locationUuid,
      press: input.press,
      press_duration_ms: input.pressDurationMs ?? null,
      timestamp_ms: input.timestampMs ?? w.nowMs,
      created_at_ms: w.nowMs,
    };
    await store.insertPress(w.tx, row);
    const event = toButtonEvent(row);
    // The press also joins the button's device history, where the sensors' timeline reads find it.
    await appendDeviceHistory(w, { deviceUuid: button.uuid, family: 'button', atMs: row.timestamp_ms, state: row.press, record: event });
    w.change({ entity: BUTTON_EVENT_ENTITY, entityUuid: row.uuid, type: 'CREATE', deviceUuid: button.uuid, update: event });
    const fired: Array<{ rule: StoredRule; firing: RuleFiringsTable; eventRecord: RulesEventRecord | null }> = [];
    // A button in test mode (button/updateConfig) reports its presses and fires no rule.
    const testMode = (button.attributes.config as { button_test_mode_enabled?: unknown } | undefined)?.button_test_mode_enabled === true;
    for (const rule of testMode ? [] : await listButtonRules(w, button.orgUuid, button.uuid)) {
      if (rule.triggerPress !== input.press) continue;
      if (!(await insideSchedules(w, rule, row.timestamp_ms, location?.tz ?? 'UTC'))) continue;
      if (!(await store.claimFiring(w.tx, 'button_rules', rule.orgUuid, rule.uuid, w.nowMs, rule.backoffSecs))) continue;
      const firing: RuleFiringsTable = {
        uuid: newRuuid(),
        org_uuid: rule.orgUuid,
        rule_uuid: rule.uuid,
        sensor_uuid: button.uuid,
        press_uuid: row.uuid,
        fired_at_ms: w.nowMs,
        outcomes: '[]',
      };
      await store.insertFiring(w.tx, firing);
      const eventRecord = await openEventRecord(w, {
        ruleUuid: rule.uuid,
        sourceUuid: row.uuid,
        deviceUuid: button.uuid,
        deviceEvent: {
          activities: [PRESS_ACTIVITIES[input.press] ?? 'CUSTOM'],
          deviceUuid: button.uuid,
          eventUuid: row.uuid,
          locationUuid: button.locationUuid,
          timestampMs: row.timestamp_ms,
        },
      });
      fired.push({ rule, firing, eventRecord });
    }
    return { event, fired };
  });
  const firings: RuleFiring[] = [];
  for (const { rule, firing, eventRecord } of fired) firings.push(await runFiring(deps, rule, firing, event, eventRecord));
  return { event, firings };
}

/**
 * Runs every action of a rule's firing independently (the rule's secrets opened) and answers each outcome,
 * with the action as opened: what button firings and the general rule runner both call. The actions' writes name
 * the rule after the rules that caused its activity (`causes`), so that their changes fire none of them.
 */
export async function runRuleActions(
  deps: EngineDeps,
  rule: StoredRule,
  event: RuleEvent,
  causes: readonly string[] = [],
): Promise<{ action: RuleAction; outcomes: ActionOutcome[] }> {
  const { action, runs } = planRuleActions(deps, rule, event, causes);
  return { action, outcomes: await settleRuns(deps, rule, event, runs) };
}

/** The runs of a rule's firing, its secrets opened; a rule whose secrets do not open has one run, which fails. */
export function planRuleActions(
  deps: EngineDeps,
  rule: StoredRule,
  event: RuleEvent,
  causes: readonly string[] = [],
): { action: RuleAction; runs: ActionRun[] } {
  const actor = {
    ...systemActor(rule.orgUuid, `${event.type === 'RULE_FIRED' ? 'rule' : 'button.rule'}.${rule.uuid}`),
    causedByRules: [...causes, rule.uuid],
  };
  try {
    const action = openActionSecrets(deps.secrets, rule.uuid, rule.sealedAction);
    return { action, runs: ACTION_FAMILIES.flatMap((family) => family({ deps, actor, rule, action, event })) };
  } catch (e) {
    return {
      action: {},
      runs: [{ action: 'action', run: async () => ({ status: 'FAILED', detail: `the rule's secrets do not open: ${(e as Error).message}` }) }],
    };
  }
}

/** Runs the runs independently and answers each outcome, in their order; a failed one is logged. */
export async function settleRuns(deps: EngineDeps, rule: StoredRule, event: RuleEvent, runs: readonly ActionRun[]): Promise<ActionOutcome[]> {
  const settled = await Promise.allSettled(runs.map((r) => r.run()));
  const outcomes: ActionOutcome[] = settled.map((s, i) =>
    s.status === 'fulfilled'
      ? { action: runs[i].action, ...s.value }
      : { action: runs[i].action, status: 'FAILED', detail: (s.reason as Error)?.message ?? String(s.reason) },
  );
  for (const o of outcomes.filter((o) => o.status === 'FAILED'))
    deps.log.warn({ rule: rule.uuid, firing: event.firingUuid, action: o.action, detail: o.detail }, 'rule action failed');
  return outcomes;
}

/** Runs a button rule's firing, then records each outcome on the firing and its rules event record (and raises them on the stream). */
async function runFiring(
  deps: EngineDeps,
  rule: StoredRule,
  firing: RuleFiringsTable,
  press: ButtonEvent,
  eventRecord: RulesEventRecord | null,
): Promise<RuleFiring> {
  const actor = systemActor(rule.orgUuid, `button.rule.${rule.uuid}`);
  const event: RuleEvent = {
    type: 'BUTTON_RULE_FIRED',
    firingUuid: firing.uuid,
    orgUuid: rule.orgUuid,
    ruleUuid: rule.uuid,
    ruleName: rule.name,
    sensorUuid: rule.sensorUuid,
    locationUuid: press.locationUuid ?? null,
    buttonPress: press.buttonPress,
    pressUuid: press.uuid!,
    timestampMs: press.timestampMs!,
  };
  const { action, outcomes } = await runRuleActions(deps, rule, event);
  const record = toFiring({ ...firing, outcomes: toJson(outcomes)! });
  await write(deps, actor, async (w) => {
    await store.setFiringOutcomes(w.tx, rule.orgUuid, firing.uuid, toJson(outcomes)!);
    w.change({ entity: RULE_FIRING_ENTITY, entityUuid: firing.uuid, type: 'UPDATE', deviceUuid: rule.sensorUuid, update: record });
  });
  if (eventRecord) await closeEventRecord(deps, actor, eventRecord, action, outcomes, rule.sensorUuid);
  return record;
}

export async function getButtonPressEvents(
  deps: Pick<EngineDeps, 'store'>,
  ctx: CallerContext,
  input: GetButtonPressEventsForSensorRequest,
): Promise<ButtonEvent[]> {
  if (!(await findDevice(deps, ctx.orgUuid, input.sensorUuid, ['BUTTON']))) throw fail('NOT_FOUND', 'Button');
  const rows = await store.listPresses(deps.store.db, ctx.orgUuid, input.sensorUuid, {
    afterMs: input.createdAfterMs ?? null,
    beforeMs: input.createdBeforeMs ?? null,
    limit: input.limit ?? BUTTON_EVENT_PAGE.default,
  });
  return rows.map(toButtonEvent);
}

export async function getRuleFiringsForButton(
  deps: Pick<EngineDeps, 'store'>,
  ctx: CallerContext,
  input: { sensorUuid: string; limit?: number },
): Promise<RuleFiring[]> {
  if (!(await findDevice(deps, ctx.orgUuid, input.sensorUuid, ['BUTTON']))) throw fail('NOT_FOUND', 'Button');
  return (await store.listFirings(deps.store.db, ctx.orgUuid, input.sensorUuid, input.limit ?? BUTTON_EVENT_PAGE.default)).map(toFiring);
}

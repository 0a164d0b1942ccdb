import { runOnChanges } from '../../../bus/change-runner.js';
import type { ChangeEvent } from '../../../store/change-event.js';
import { systemActor } from '../../../deps.js';
import { newRuuid } from '../../../ids.js';
import type { Activity } from '../../../schemas/activities.js';
import { write } from '../../../bus/write.js';
import { findDevice, findLocation } from '../../devices/service.js';
import type { EngineDeps, RuleEvent } from '../actions/action.js';
import { insideSchedules, planRuleActions, settleRuns } from '../evaluation.service.js';
import type { RulesEventRecord } from './schemas.js';
import { asStoredRule, isRulePaused, listGeneralRules, type GeneralRule } from './service.js';
import { claimFiring } from '../store.js';
import { DOORBELL_ACTIVITIES } from '../doorbell/service.js';
import { closeEventRecord, completeEventRecord, openEventRecord } from '../rule-records.service.js';
import type { ActionOutcome } from '../schemas.js';

/** A device activity that general rules may fire on: a policy alert's triggers, a door's event, or a component's change of state. */
export interface FiredActivity {
  sourceUuid: string;
  orgUuid: string;
  deviceUuid: string | null;
  doorUuid: string | null;
  /** The hardware component whose state changed (its device is `deviceUuid`); null for a device's own activity. */
  componentUuid: string | null;
  /** Null when the event does not say: the device's location is then the one. */
  locationUuid: string | null;
  activities: Activity[];
  atMs: number;
  /** The rules whose actions caused the activity (ChangeEvent.causedByRules): none of them fires on it. */
  causedByRules?: readonly string[];
}

const DOOR_POSITIONS: Record<string, Activity> = {
  OPEN: 'AC_DPI_DOOR_OPEN',
  CLOSED: 'AC_DPI_DOOR_CLOSED',
  AJAR: 'AC_DPI_DOOR_AJAR',
  FORCED_OPEN: 'AC_DPI_DOOR_FORCED_OPEN',
};

/**
 * The activity each component shadow's state raises (the platform's AC_ activities). A door position indicator
 * is left out: its position reaches the rules through its door's event (AC_DPI_*), which would fire them twice.
 */
const COMPONENT_ACTIVITIES: Record<string, Record<string, Activity>> = {
  GenericInputShadow: { ACTIVE: 'AC_GI_ACTIVE', INACTIVE: 'AC_GI_INACTIVE' },
  RequestToExitShadow: { ACTIVE: 'AC_REX_ACTIVE', INACTIVE: 'AC_REX_INACTIVE' },
  GenericRelayShadow: { ACTIVE: 'AC_GR_ACTIVE', INACTIVE: 'AC_GR_INACTIVE' },
  DoorRelayShadow: { UNLOCKED: 'AC_DSR_UNLOCKED', LOCKED: 'AC_DSR_LOCKED' },
  DoorReaderShadow: { CONNECTED: 'AC_DR_CONNECTED', DISCONNECTED: 'AC_DR_DISCONNECTED' },
};

/**
 * The activity a change raises, if any: a new policy alert (except the CUSTOM ones rules raise), a door's
 * position, a badge read, a doorbell press, or a hardware component's new state (its shadow's UPDATE, whether
 * the component reported it or a rule or an operation drove it).
 */
export function activityOf(event: ChangeEvent): FiredActivity | null {
  const fired = deviceActivityOf(event);
  return fired && event.causedByRules?.length ? { ...fired, causedByRules: event.causedByRules } : fired;
}

function deviceActivityOf(event: ChangeEvent): FiredActivity | null {
  if (event.entity === 'COMPONENT_SHADOW') {
    const shadow = event.update as { componentUuid: string; ownerDeviceUuid: string; type: string; state: string; stateUpdateEventTimestampMs: number | null };
    const activity = COMPONENT_ACTIVITIES[shadow.type]?.[shadow.state];
    if (!activity) return null;
    return {
      // One source per change: a component reporting the same state twice fires twice, as two reports.
      sourceUuid: `${shadow.componentUuid}.${event.position}`,
      orgUuid: event.orgUuid,
      deviceUuid: shadow.ownerDeviceUuid,
      doorUuid: null,
      componentUuid: shadow.componentUuid,
      locationUuid: null,
      activities: [activity],
      atMs: shadow.stateUpdateEventTimestampMs ?? event.timestampMs,
    };
  }
  if (event.entity === 'COMPONENT_SEEKPOINT') {
    // A doorbell camera's press (sensors.service.ts pressDoorbell, announced as the camera's state UPDATE): what doorbell camera rules fire on.
    const e = event.update as { uuid?: string; type?: string; ownerDeviceUuid?: string; locationUuid?: string | null; timestampMs: number };
    if (e.type !== 'DoorbellEvent' || !e.uuid || !e.ownerDeviceUuid) return null;
    return {
      sourceUuid: e.uuid,
      orgUuid: event.orgUuid,
      deviceUuid: e.ownerDeviceUuid,
      doorUuid: null,
      componentUuid: null,
      locationUuid: e.locationUuid ?? null,
      activities: [...DOORBELL_ACTIVITIES],
      atMs: e.timestampMs,
    };
  }
  if (event.type !== 'CREATE') return null;
  if (event.entity === 'POLICY_ALERT') {
    const a = event.update as { uuid: string; deviceUuid: string; locationUuid?: string | null; policyAlertTriggers?: Activity[]; timestampMs: number };
    const activities = (a.policyAlertTriggers ?? []).filter((t) => t !== 'CUSTOM');
    if (activities.length === 0) return null;
    return {
      sourceUuid: a.uuid,
      orgUuid: event.orgUuid,
      deviceUuid: a.deviceUuid,
      doorUuid: null,
      componentUuid: null,
      locationUuid: a.locationUuid ?? null,
      activities,
      atMs: a.timestampMs,
    };
  }
  if (event.entity === 'COMPONENT_EVENT') {
    const e = event.update as Record<string, unknown> & {
      uuid: string;
      componentCompositeUuid: string;
      ownerDeviceUuid: string | null;
      locationUuid: string | null;
      timestampMs: number;
    };
    const refused = e.authenticationResult === 'REJECTED' || e.authorizationResult === 'DENIED';
    const activity =
      e.type === 'DoorPositionIndicatorStateChangeEvent'
        ? DOOR_POSITIONS[String(e.newState)]
        : e.type === 'CredentialReceivedEvent'
          ? refused
            ? 'AC_BADGE_UNAUTHORIZED'
            : 'AC_BADGE_AUTHORIZED'
          : undefined;
    if (!activity) return null;
    return {
      sourceUuid: e.uuid,
      orgUuid: event.orgUuid,
      deviceUuid: e.ownerDeviceUuid,
      doorUuid: e.componentCompositeUuid,
      componentUuid: null,
      locationUuid: e.locationUuid,
      activities: [activity],
      atMs: e.timestampMs,
    };
  }
  return null;
}

/**
 * Whether one trigger matches the activity: its activity, and each of its device, door, component and location
 * lists (empty: any). The component list narrows components' changes only: a device's own activity (a doorbell
 * camera's press, whose rule may name the camera's button) is its device's.
 */
function triggerMatches(trigger: GeneralRule['triggers'][number], fired: FiredActivity): boolean {
  const within = (list: readonly string[] | null | undefined, uuid: string | null) => !list?.length || (uuid !== null && list.includes(uuid));
  return (
    fired.activities.includes(trigger.activityEvent!.activityEvent) &&
    within(trigger.deviceUuids, fired.deviceUuid) &&
    within(trigger.componentCompositeUuids, fired.doorUuid) &&
    (fired.componentUuid === null || within(trigger.componentUuids, fired.componentUuid)) &&
    within(trigger.locationUuids, fired.locationUuid)
  );
}

const matches = (rule: GeneralRule, fired: FiredActivity) =>
  rule.conjunction === 'AND' ? rule.triggers.every((t) => triggerMatches(t, fired)) : rule.triggers.some((t) => triggerMatches(t, fired));

/** Rolls a firing's write back: its rule fired within its back-off, after the firing began. */
class BackoffNotPassed extends Error {}

/**
 * Fires the organization's general rules an activity matches: inside one of the rule's schedules (none: always)
 * on the location's wall clock, not paused now, and past its back-off. A rule whose own action caused the activity
 * (a relay it drives, whose new state is its trigger), directly or through the actions of other rules, does not
 * fire on it: a rule never loops on itself, whatever its back-off, while the other rules it matches still fire. The firing is claimed once per rule and
 * source event (whichever instances hear of it); its actions then run, and their outcomes complete its record.
 */
export async function fireGeneralRules(deps: EngineDeps, activity: FiredActivity): Promise<RulesEventRecord[]> {
  const all = await listGeneralRules(deps, activity.orgUuid);
  if (all.length === 0) return [];
  const device = activity.locationUuid === null && activity.deviceUuid ? await findDevice(deps, activity.orgUuid, activity.deviceUuid) : null;
  const fired = { ...activity, locationUuid: activity.locationUuid ?? device?.locationUuid ?? null };
  const causes = fired.causedByRules ?? [];
  const rules = all.filter((r) => !causes.includes(r.uuid) && matches(r, fired));
  if (rules.length === 0) return [];
  const timeZone = fired.locationUuid ? ((await findLocation(deps, fired.orgUuid, fired.locationUuid))?.tz ?? 'UTC') : 'UTC';
  const records: RulesEventRecord[] = [];
  for (const rule of rules) {
    if (rule.backoffSecs > 0 && rule.lastFiredAtMs !== null && rule.lastFiredAtMs > deps.clock.now() - rule.backoffSecs * 1000) continue;
    if (!(await insideSchedules(deps, rule, fired.atMs, timeZone))) continue;
    const actor = systemActor(rule.orgUuid, `rule.${rule.uuid}`);
    const deviceUuid = fired.deviceUuid ?? fired.doorUuid ?? '';
    const recordDevice = fired.doorUuid ?? fired.deviceUuid;
    const stored = asStoredRule(rule, deviceUuid);
    // The firing's claim, its record and the actions that are writes of the store only (webhook enqueues) make one
    // transaction; when no other action is left the record is completed in it too. The rest run after the commit.
    const firing = await write(deps, actor, async (w) => {
      if (await isRulePaused(w, rule.orgUuid, rule.uuid, w.nowMs)) return null;
      const record = await openEventRecord(w, {
        ruleUuid: rule.uuid,
        sourceUuid: fired.sourceUuid,
        // A door event's record is found by the door (getRulesEventRecords' associatedUuids), not its controller.
        deviceUuid: recordDevice,
        deviceEvent: {
          activities: fired.activities,
          deviceUuid: fired.deviceUuid,
          componentCompositeUuid: fired.doorUuid,
          eventUuid: fired.sourceUuid,
          locationUuid: fired.locationUuid,
          timestampMs: fired.atMs,
        },
      });
      if (!record) return null;
      const event: RuleEvent = {
        type: 'RULE_FIRED',
        firingUuid: record.uuid ?? newRuuid(),
        orgUuid: rule.orgUuid,
        ruleUuid: rule.uuid,
        ruleName: rule.name,
        sensorUuid: deviceUuid,
        locationUuid: fired.locationUuid,
        buttonPress: null,
        pressUuid: fired.sourceUuid,
        timestampMs: fired.atMs,
        activities: fired.activities,
        componentCompositeUuid: fired.doorUuid,
      };
      const { action, runs } = planRuleActions(deps, stored, event, causes);
      const outcomes: Array<ActionOutcome | null> = [];
      for (const run of runs) outcomes.push(run.inWrite ? { action: run.action, ...(await run.inWrite(w)) } : null);
      const done = outcomes.every((o) => o !== null) ? await completeEventRecord(w, record, action, outcomes as ActionOutcome[], recordDevice) : null;
      // The back-off claim locks the rule's row until the commit, and every firing of the rule waits for it: made
      // last, it is held over the change log's statement and the commit, not over the whole firing. A firing that
      // loses it rolls back whole.
      if (!(await claimFiring(w.tx, 'rules', rule.orgUuid, rule.uuid, w.nowMs, rule.backoffSecs))) throw new BackoffNotPassed();
      return done ? ({ done } as const) : { done, record, event, action, runs, outcomes };
    }).catch((e: unknown) => {
      if (e instanceof BackoffNotPassed) return null;
      throw e;
    });
    if (!firing) continue;
    if (firing.done) {
      records.push(firing.done);
      continue;
    }
    const { record, event, action, runs, outcomes } = firing;
    const rest = runs.filter((_, i) => outcomes[i] === null);
    const settled = await settleRuns(deps, stored, event, rest);
    const all = outcomes.map((o) => o ?? settled.shift()!);
    records.push(await closeEventRecord(deps, actor, record, action, all, recordDevice));
  }
  return records;
}

/** Runs the general rules on this instance: every change that is a device activity is evaluated. */
export function startGeneralRuleRunner(deps: EngineDeps): { stop(): Promise<void> } {
  const log = deps.log.child({ domain: 'rules', job: 'general-rules' });
  return runOnChanges(
    deps.bus,
    activityOf,
    (fired) => fireGeneralRules(deps, fired),
    (err, fired) => log.error({ err, source: fired.sourceUuid }, 'rule failed'),
  );
}

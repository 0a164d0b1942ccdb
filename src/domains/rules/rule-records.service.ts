import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { newRuuid } from '../../ids.js';
import { fromJson, toJson } from '../../store/columns.js';
import { write, type Actor, type WriteScope } from '../../bus/write.js';
import { EVENT_RECORD_PAGE, type RulesEventRecord } from './general/schemas.js';
import * as store from './general/store.js';
import type { RuleEventRecordsTable } from './general/tables.js';
import type { ActionOutcome, RuleAction } from './schemas.js';

/**
 * The record of every rule firing (button rules and general rules): opened in the firing's transaction, where
 * it is also the claim that one instance fires the rule once for a source event, then completed with each
 * action's outcome once the actions have run.
 */

type DeviceEvent = NonNullable<RulesEventRecord['deviceEventRecords']>[number];

const toRecord = (row: RuleEventRecordsTable): RulesEventRecord => fromJson<RulesEventRecord>(row.record)!;

/** Opens a firing's record, claiming the firing: null when the rule already fired on this source event. */
export async function openEventRecord(
  w: WriteScope,
  input: { ruleUuid: string; sourceUuid: string; deviceUuid: string | null; deviceEvent: DeviceEvent },
): Promise<RulesEventRecord | null> {
  const record: RulesEventRecord = {
    uuid: newRuuid(),
    orgUuid: w.actor.orgUuid,
    ruleUuid: input.ruleUuid,
    triggeredTimestampMs: w.nowMs,
    deviceEventRecords: [input.deviceEvent],
    webhookActionStatuses: {},
    actionOutcomes: [],
  };
  const claimed = await store.claimEventRecord(w.tx, {
    uuid: record.uuid!,
    org_uuid: w.actor.orgUuid,
    rule_uuid: input.ruleUuid,
    source_uuid: input.sourceUuid,
    device_uuid: input.deviceUuid,
    triggered_at_ms: w.nowMs,
    record: toJson(record)!,
  });
  if (!claimed) return null;
  w.change({ entity: 'RULES_EVENT_RECORD', entityUuid: record.uuid!, type: 'CREATE', deviceUuid: input.deviceUuid, update: record });
  return record;
}

/**
 * The platform's per-action fields of a record, read from the outcomes (the action gives the webhook URLs). The
 * alert and notification records are not nullable in the catalogue: a firing without that action has none.
 */
function statuses(action: RuleAction, outcomes: readonly ActionOutcome[]): Partial<RulesEventRecord> {
  const found: Partial<RulesEventRecord> = { webhookActionStatuses: {} };
  for (const o of outcomes) {
    const ok = o.status !== 'FAILED';
    const webhook = /^webhookActions\[(\d+)\]$/.exec(o.action);
    if (webhook) found.webhookActionStatuses![action.webhookActions?.[Number(webhook[1])]?.webhookUrl ?? o.action] = ok;
    if (o.action === 'alertAction')
      found.alertActionRecord = { policyAlertUuid: /policy alert (\S+)/.exec(o.detail ?? '')?.[1] ?? null, status: ok ? 'SUCCESS' : 'ERROR' };
    if (o.action === 'liveNotificationAction') found.liveNotificationActionRecord = { status: ok ? 'SUCCESS' : 'ERROR' };
  }
  return found;
}

/** Completes a firing's record with its actions' outcomes, and announces it. */
export async function closeEventRecord(
  deps: Pick<Deps, 'store' | 'bus' | 'clock'>,
  actor: Actor,
  record: RulesEventRecord,
  action: RuleAction,
  outcomes: ActionOutcome[],
  deviceUuid: string | null,
): Promise<RulesEventRecord> {
  return write(deps, actor, (w) => completeEventRecord(w, record, action, outcomes, deviceUuid));
}

/** Completes a firing's record inside a write already open (the firing's own, when every action ran in it). */
export async function completeEventRecord(
  w: WriteScope,
  record: RulesEventRecord,
  action: RuleAction,
  outcomes: ActionOutcome[],
  deviceUuid: string | null,
): Promise<RulesEventRecord> {
  const done: RulesEventRecord = { ...record, ...statuses(action, outcomes), actionOutcomes: outcomes };
  await store.setEventRecord(w.tx, record.orgUuid!, record.uuid!, toJson(done)!);
  w.change({ entity: 'RULES_EVENT_RECORD', entityUuid: record.uuid!, type: 'UPDATE', deviceUuid, update: done });
  return done;
}

/** `getRulesEventRecords`: records newest first, of the rules or devices named (none: all), in [startTime, endTime). */
export async function getRulesEventRecords(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  input: { associatedUuids?: string[] | null; startTime?: number | null; endTime?: number | null },
): Promise<RulesEventRecord[]> {
  const rows = await store.listEventRecords(deps.store.db, ctx.orgUuid, {
    associated: input.associatedUuids?.length ? input.associatedUuids : null,
    ruleUuid: null,
    startMs: input.startTime ?? null,
    endMs: input.endTime ?? null,
    limit: EVENT_RECORD_PAGE.maximum,
  });
  return rows.map(toRecord);
}

/** `getLatestRulesEventRecords`: the n newest records (default 100) of a rule, or of the rules or devices named. */
export async function getLatestRulesEventRecords(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  input: { associatedUuids?: string[] | null; ruleUuid?: string | null; n?: number | null },
): Promise<RulesEventRecord[]> {
  const rows = await store.listEventRecords(deps.store.db, ctx.orgUuid, {
    associated: input.associatedUuids?.length ? input.associatedUuids : null,
    ruleUuid: input.ruleUuid ?? null,
    startMs: null,
    endMs: null,
    limit: input.n ?? EVENT_RECORD_PAGE.default,
  });
  return rows.map(toRecord);
}

/** `deleteRulesEventRecord`. */
export async function deleteRulesEventRecord(deps: Pick<Deps, 'store' | 'bus' | 'clock'>, ctx: CallerContext, uuid: string): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await store.findEventRecord(w.tx, ctx.orgUuid, uuid);
    if (!row) throw fail('NOT_FOUND', 'Rules event record');
    await store.deleteEventRecord(w.tx, ctx.orgUuid, uuid);
    w.change({ entity: 'RULES_EVENT_RECORD', entityUuid: uuid, type: 'DELETE', deviceUuid: row.device_uuid, update: toRecord(row) });
  });
}

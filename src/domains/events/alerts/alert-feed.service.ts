import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { systemActor } from '../../../deps.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { findDevice, listDevices } from '../../devices/service.js';
import { pageOfGroups, rowsToRead, type Group } from './alert-groups.js';
import {
  ALERT_COUNT_CAP,
  EXPIRING_PAGE,
  type GetExpiringPolicyAlertsRequest,
  type GetPolicyAlertGroupsForLocationRequest,
  type GetPolicyAlertGroupsV2Request,
  type GetPolicyAlertsRequest,
  type UnhealthyDeviceAlert,
} from './alert-feed.schemas.js';
import { ALERT_GROUP_PAGE, type PolicyAlertRecord } from './schemas.js';
import { cursorOf, getPolicyAlerts, POLICY_ALERT_ENTITY, toRecord, type AlertDeps } from './service.js';
import * as store from './store.js';
import type { PolicyAlertsTable } from '../tables.js';

/**
 * The organization's alert feed beyond one device: groups of the whole organization or of a location, the
 * V1 list, the feed's count, dismissal (an alert leaves every feed but stays readable by uuid), expiry (an
 * unsaved alert is deleted a retention period after it was recorded) and the device-health alerts.
 */

type ReadDeps = Pick<Deps, 'store'>;

async function groupsPage(
  deps: ReadDeps,
  orgUuid: string,
  input: GetPolicyAlertGroupsV2Request,
  filter: Pick<store.AlertListFilter, 'locationUuids'>,
): Promise<Group<PolicyAlertRecord>[]> {
  const after = cursorOf(input);
  const maxResults = input.maxResults ?? ALERT_GROUP_PAGE.default;
  const rows = await store.listOrgAlerts(deps.store.db, orgUuid, { ...filter, after, limit: rowsToRead(maxResults) });
  return pageOfGroups(rows.map(toRecord), maxResults);
}

/** The organization's alerts newest first, in groups (see alert-groups.ts), a page of whole groups at a time. */
export async function getOrgAlertGroups(deps: ReadDeps, ctx: CallerContext, input: GetPolicyAlertGroupsV2Request): Promise<Group<PolicyAlertRecord>[]> {
  return groupsPage(deps, ctx.orgUuid, input, {});
}

/** A location's alerts newest first, in groups. */
export async function getLocationAlertGroups(
  deps: ReadDeps,
  ctx: CallerContext,
  input: GetPolicyAlertGroupsForLocationRequest,
): Promise<Group<PolicyAlertRecord>[]> {
  cursorOf(input);
  return groupsPage(deps, ctx.orgUuid, input, { locationUuids: [input.locationUuid] });
}

/**
 * getPolicyAlerts (V1): the V2 list. Gatehouse raises no ACCESS_CONTROLLED_DOOR_POLICY_ALERT, so a door
 * filter matches only such alerts and answers none.
 */
export async function getPolicyAlertsV1(deps: ReadDeps, ctx: CallerContext, input: GetPolicyAlertsRequest): Promise<PolicyAlertRecord[]> {
  const { accessControlledDoorFilter, ...rest } = input;
  const alerts = await getPolicyAlerts(deps, ctx, rest);
  return accessControlledDoorFilter && accessControlledDoorFilter.length > 0 ? alerts.filter((a) => a.type === 'ACCESS_CONTROLLED_DOOR_POLICY_ALERT') : alerts;
}

export async function countPolicyAlerts(deps: ReadDeps, ctx: CallerContext, cap: number | null | undefined): Promise<number> {
  return store.countFeedAlerts(deps.store.db, ctx.orgUuid, cap ?? ALERT_COUNT_CAP.default);
}

/** Dismisses the rows' alerts that are not dismissed yet, each an UPDATE on the stream; answers how many. */
async function dismiss(deps: AlertDeps, ctx: CallerContext, pick: (w: WriteScope) => Promise<string[]>): Promise<number> {
  return write(deps, ctx, async (w) => {
    const dismissed = await store.dismissAlerts(w.tx, ctx.orgUuid, await pick(w), w.nowMs);
    for (const row of dismissed) {
      w.change({ entity: POLICY_ALERT_ENTITY, entityUuid: row.uuid, type: 'UPDATE', deviceUuid: row.device_uuid, update: toRecord(row) });
    }
    return dismissed.length;
  });
}

/** Dismisses alerts named by uuid, all or none: an unknown one (or another organization's) refuses the call. Dismissing twice is harmless. */
export async function dismissPolicyAlerts(deps: AlertDeps, ctx: CallerContext, uuids: readonly string[]): Promise<number> {
  return dismiss(deps, ctx, async (w) => {
    const found = new Set((await store.findPolicyAlerts(w.tx, ctx.orgUuid, uuids)).map((r) => r.uuid));
    const missing = uuids.find((u) => !found.has(u));
    if (missing) throw fail('NOT_FOUND', `Policy alert ${missing}`);
    return [...uuids];
  });
}

/** The most alerts one "dismiss all" call dismisses; a larger feed takes more calls. */
export const DISMISS_ALL_MAX = 10_000;

/** Dismisses every alert in the feed, of the given devices when given (each must be the organization's). */
export async function dismissAllPolicyAlerts(deps: AlertDeps, ctx: CallerContext, deviceUuids: readonly string[] | null): Promise<number> {
  return dismiss(deps, ctx, async (w) => {
    for (const uuid of deviceUuids ?? []) if (!(await findDevice(w, ctx.orgUuid, uuid))) throw fail('NOT_FOUND', `Device ${uuid}`);
    return store.listFeedAlertUuids(w.tx, ctx.orgUuid, deviceUuids, DISMISS_ALL_MAX);
  });
}

const DAY_MS = 86_400_000;

/** Alerts that expire within `withinMs` from now (unsaved ones: saving keeps an alert), soonest first. */
export async function getExpiringPolicyAlerts(
  deps: ReadDeps & Pick<Deps, 'clock'>,
  ctx: CallerContext,
  input: GetExpiringPolicyAlertsRequest,
): Promise<PolicyAlertRecord[]> {
  const hasTime = input.lastExpiresAtMs != null;
  if (hasTime !== (input.lastUuid != null))
    throw fail('INVALID_VALUE', 'lastExpiresAtMs and lastUuid form the pagination cursor: give both (the last alert of the previous page) or neither');
  const after = hasTime ? { expiresAtMs: input.lastExpiresAtMs!, uuid: input.lastUuid! } : null;
  const beforeMs = deps.clock.now() + (input.withinMs ?? DAY_MS);
  const rows = await store.listExpiringAlerts(deps.store.db, ctx.orgUuid, beforeMs, after, input.maxResults ?? EXPIRING_PAGE.default);
  return rows.map(toRecord);
}

/** The most alerts one sweep deletes (a backlog takes several sweeps). */
const SWEEP_BATCH = 1000;

/**
 * Deletes the alerts (of every organization) that have expired by `nowMs`, each a DELETE on the stream
 * in its organization's write; answers how many. Runs from the expiry timer (alert-expiry.ts).
 */
export async function expirePolicyAlerts(deps: AlertDeps, nowMs: number): Promise<number> {
  const expired = await store.listExpiredAlerts(deps.store.db, nowMs, SWEEP_BATCH);
  const byOrg = new Map<string, PolicyAlertsTable[]>();
  for (const row of expired) byOrg.set(row.org_uuid, [...(byOrg.get(row.org_uuid) ?? []), row]);
  let deleted = 0;
  for (const [orgUuid, rows] of byOrg) {
    deleted += await write(deps, systemActor(orgUuid, 'events.alert-expiry'), async (w) => {
      // Read again inside the write: another instance's sweep may have deleted some already.
      const present = await store.findPolicyAlerts(
        w.tx,
        orgUuid,
        rows.map((r) => r.uuid),
      );
      const count = await store.deletePolicyAlerts(
        w.tx,
        orgUuid,
        present.map((r) => r.uuid),
      );
      for (const row of present) {
        w.change({
          entity: POLICY_ALERT_ENTITY,
          entityUuid: row.uuid,
          type: 'DELETE',
          deviceUuid: row.device_uuid,
          update: { ...toRecord(row), deleted: true },
        });
      }
      return count;
    });
  }
  return deleted;
}

/**
 * Devices whose health needs attention, from their recorded status: a connection or health RED is DOWN,
 * a connection ORANGE or YELLOW is SLOW_INTERNET. Each device answers at most one alert, DOWN first.
 */
export async function getUnhealthyDeviceAlerts(deps: ReadDeps, ctx: CallerContext): Promise<UnhealthyDeviceAlert[]> {
  const alerts: UnhealthyDeviceAlert[] = [];
  for (const device of await listDevices(deps, ctx.orgUuid)) {
    const symptom =
      device.connectionStatus === 'RED' || device.healthStatus === 'RED'
        ? 'DOWN'
        : device.connectionStatus === 'ORANGE' || device.connectionStatus === 'YELLOW'
          ? 'SLOW_INTERNET'
          : null;
    if (symptom) alerts.push({ uuid: `${device.uuid}.${symptom}`, deviceUuid: device.uuid, orgUuid: ctx.orgUuid, symptom, timestamp: device.updatedAtMillis });
  }
  return alerts;
}

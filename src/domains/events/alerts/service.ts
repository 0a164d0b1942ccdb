import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import { fromJson, toDbBool, toJson } from '../../../store/columns.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type Actor, type WriteScope } from '../../../bus/write.js';
import { findDevice, findLocation, type DeviceRecord } from '../../devices/service.js';
import { climatePolicyThresholds, policyFamilyOf, policyTriggers } from '../../policies/service.js';
import { addendumActivitiesAt, policiesPausedAt } from '../../policies/windows.service.js';
import type { DeviceKind } from '../../devices/tables.js';
import type { Activity } from '../../../schemas/activities.js';
import { pageOfGroups, rowsToRead, type Group } from './alert-groups.js';
import {
  ALERT_GROUP_PAGE,
  ALERT_LIST_PAGE,
  type AlertDeviceType,
  type GetPolicyAlertGroupsForDeviceRequest,
  type GetPolicyAlertsV2Request,
  type PolicyAlertRecord,
} from './schemas.js';
import * as store from './store.js';
import { mutedUntil } from './notification-mutes.service.js';
import { openThreatCase } from '../threat-cases/service.js';
import { crossedThresholds, crossingFields, thresholdsByReading, type Crossing } from '../readings.js';
import type { PolicyAlertsTable } from '../tables.js';

export type AlertDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** The stream's entity name of a policy alert change. */
export const POLICY_ALERT_ENTITY = 'POLICY_ALERT';

export const DEVICE_TYPES: Record<DeviceKind, AlertDeviceType> = {
  CAMERA: 'CAMERA',
  BUTTON: 'BLE_BUTTON',
  ENVIRONMENTAL_SENSOR: 'ENVIRONMENTAL_SENSOR',
  AUDIO_GATEWAY: 'AUDIO_GATEWAY',
  DOOR_CONTROLLER: 'DOOR_CONTROLLER',
  RELAY: 'IO_BOARD',
  NVR: 'NVR',
  ELEVATOR_LANDING: 'UNKNOWN',
  ENVIRONMENTAL_GATEWAY: 'ENVIRONMENTAL_GATEWAY',
  DOOR_SENSOR: 'DOOR_SENSOR',
  OCCUPANCY_SENSOR: 'OCCUPANCY_SENSOR',
  BLE_TRACKER: 'BLE_TRACKER',
  BADGE_READER: 'BADGE_READER',
  KEYPAD: 'UNKNOWN',
  DOORBELL_CAMERA: 'CAMERA',
};

/** Fields kept as columns; everything else of the record is the `details` JSON. */
const COLUMN_FIELDS = new Set([
  'uuid',
  'orgUuid',
  'deviceUuid',
  'locationUuid',
  'type',
  'deviceType',
  'timestampMs',
  'durationSec',
  'policyAlertTriggers',
  'textDescription',
  'saved',
  'dismissedAtMs',
  'expiresAtMs',
]);

/**
 * An alert is kept this long after it was recorded, or after its time when that is later (the simulator and
 * device back-fills record past alerts), unless it is saved as a clip: then it is kept with the clip.
 */
export const ALERT_RETENTION_MS = 30 * 86_400_000;

/**
 * The record of a row: its details with the column fields set over them. Set one by one on the parsed details
 * rather than spread into a literal: on Node.js 20, `{ ...object, field }` in optimized code makes a new hidden
 * class for every object it builds, and a page of such records then costs the serializer (and every other
 * reader) a slow, megamorphic property lookup per field (docs/performance.md).
 */
export function toRecord(row: PolicyAlertsTable): PolicyAlertRecord {
  const record = fromJson<Record<string, unknown>>(row.details) ?? {};
  record.uuid = row.uuid;
  record.orgUuid = row.org_uuid;
  record.deviceUuid = row.device_uuid;
  record.locationUuid = row.location_uuid;
  record.type = row.type;
  record.deviceType = row.device_type;
  record.timestampMs = row.timestamp_ms;
  record.durationSec = row.duration_sec;
  record.policyAlertTriggers = fromJson<Activity[]>(row.triggers) ?? [];
  record.textDescription = row.text_description;
  record.saved = row.saved === 1;
  record.dismissedAtMs = row.dismissed_at_ms === null ? null : Number(row.dismissed_at_ms);
  record.expiresAtMs = row.expires_at_ms === null ? null : Number(row.expires_at_ms);
  if (row.device_type === 'CAMERA') withCameraMedia(record, row.uuid, row.device_uuid);
  return record as PolicyAlertRecord;
}

/**
 * Where a camera alert's media is on the media host, as the platform's clients build the paths from these fields
 * (client-calls.md M8 to M10): its thumbnail `/media/metadata/<region>/<alert>.jpeg` and its footage as DASH
 * `/media/metadata/<device>/<region>/<alert>/clip.mpd`. The media host finds an alert's media by its uuid, so the
 * region is a name only: the platform's default, which the CLI also assumes when none is answered. Fields an alert
 * was raised with (a badge event's linked clip) stay; the REST edge makes the paths absolute (src/edge/media-uris.ts).
 */
export const ALERT_MEDIA_REGION = 'us-west-2';
function withCameraMedia(record: Record<string, unknown>, uuid: string, deviceUuid: string): void {
  const region = (record.clipLocation as { region?: string } | undefined)?.region ?? ALERT_MEDIA_REGION;
  record.clipLocation ??= { region };
  record.thumbnailLocation ??= { region };
  record.thumbnailLocationV2 ??= `/media/metadata/${region}/${uuid}.jpeg`;
  record.clipLocationMap ??= { [deviceUuid]: { region } };
  record.clipLocationMapV2 ??= { [deviceUuid]: `/media/metadata/${deviceUuid}/${region}/${uuid}/clip.mpd` };
}

export function detailsOf(record: PolicyAlertRecord): string {
  const details = Object.fromEntries(Object.entries(record).filter(([k, v]) => !COLUMN_FIELDS.has(k) && v !== null && v !== undefined));
  return toJson(details)!;
}

function toRow(record: PolicyAlertRecord): PolicyAlertsTable {
  return {
    uuid: record.uuid,
    org_uuid: record.orgUuid,
    device_uuid: record.deviceUuid,
    location_uuid: record.locationUuid ?? null,
    type: record.type ?? 'POLICY_ALERT_V2',
    device_type: record.deviceType ?? 'UNKNOWN',
    timestamp_ms: record.timestampMs,
    duration_sec: record.durationSec ?? null,
    triggers: toJson(record.policyAlertTriggers)!,
    text_description: record.textDescription ?? null,
    saved: toDbBool(record.saved ?? false)!,
    details: detailsOf(record),
    dismissed_at_ms: record.dismissedAtMs ?? null,
    expires_at_ms: record.saved ? null : (record.expiresAtMs ?? null),
  };
}

/** What raising an alert takes: the device and its triggers, and any other field of the record. */
export type PolicyAlertInput = Partial<Omit<PolicyAlertRecord, 'uuid' | 'orgUuid' | 'locationUuid' | 'deviceType' | 'type'>> & {
  deviceUuid: string;
  policyAlertTriggers: Activity[];
};

/** Creates a policy alert inside a write of the device's organization (for callers already in one). */
export async function createPolicyAlert(w: WriteScope, input: PolicyAlertInput): Promise<PolicyAlertRecord> {
  const device = await findDevice(w, w.actor.orgUuid, input.deviceUuid);
  if (!device) throw fail('NOT_FOUND', 'Device');
  if (input.policyAlertTriggers.length === 0) throw fail('INVALID_VALUE', 'policyAlertTriggers: an alert needs at least one trigger');
  const triggers = [...new Set(input.policyAlertTriggers)];
  const timestampMs = input.timestampMs ?? w.nowMs;
  if (!Number.isSafeInteger(timestampMs) || timestampMs < 0) throw fail('INVALID_VALUE', 'timestampMs: must be epoch milliseconds');
  const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));
  // A muted device's alert is recorded as any other, marked so that nothing notifies of it.
  const mutedUntilMs = await mutedUntil(w, w.actor.orgUuid, device.uuid);
  const record = {
    delayedProcessing: false,
    finalized: true,
    notificationSent: false,
    shared: false,
    tampered: false,
    alertMonitoringVerified: false,
    ...given,
    uuid: newRuuid(),
    orgUuid: w.actor.orgUuid,
    deviceUuid: device.uuid,
    locationUuid: device.locationUuid,
    type: 'POLICY_ALERT_V2',
    deviceType: DEVICE_TYPES[device.deviceType],
    timestampMs,
    durationSec: input.durationSec ?? 0,
    policyAlertTriggers: triggers,
    textDescription: input.textDescription ?? `${triggers.join(', ')} on ${device.name}`,
    saved: false,
    deleted: false,
    dismissedAtMs: null,
    expiresAtMs: Math.max(timestampMs, w.nowMs) + ALERT_RETENTION_MS,
    ...(mutedUntilMs !== null ? { notificationsMutedUntilMs: mutedUntilMs, notificationSent: false } : {}),
  } as PolicyAlertRecord;
  if (record.deviceType === 'CAMERA') withCameraMedia(record, record.uuid, record.deviceUuid);
  await store.insertPolicyAlerts(w.tx, [toRow(record)]);
  w.change({ entity: POLICY_ALERT_ENTITY, entityUuid: record.uuid, type: 'CREATE', deviceUuid: record.deviceUuid, update: record });
  await openThreatCase(w, record);
  return record;
}

/** Raises a policy alert: what devices, the simulator and other domains (integrations, rules) call. */
export async function raisePolicyAlert(deps: AlertDeps, actor: Actor, input: PolicyAlertInput): Promise<PolicyAlertRecord> {
  return write(deps, actor, (w) => createPolicyAlert(w, input));
}

/**
 * Raises the policy alert a device reports, as its policy decides: a device following a policy of its family
 * (camera, audio, occupancy, proximity, video intercom) alerts only on the activities that policy names for a
 * schedule covering the moment (policies/service.ts); answers null when none is left. Devices that follow no
 * policy alert on every activity.
 */
export async function raiseDeviceAlert(deps: AlertDeps, actor: Actor, input: PolicyAlertInput): Promise<PolicyAlertRecord | null> {
  return write(deps, actor, async (w) => {
    const device = await findDevice(w, actor.orgUuid, input.deviceUuid);
    if (!device) throw fail('NOT_FOUND', 'Device');
    const atMs = input.timestampMs ?? w.nowMs;
    if (await policiesPausedAt(w, actor.orgUuid, device, atMs)) return null;
    const policyUuid = policyFamilyOf(device.deviceType) && typeof device.attributes.policyUuid === 'string' ? device.attributes.policyUuid : null;
    if (!policyUuid) return createPolicyAlert(w, input);
    const location = device.locationUuid ? await findLocation(w, actor.orgUuid, device.locationUuid) : null;
    const byPolicy = await policyTriggers(w, actor.orgUuid, {
      policyUuid,
      deviceKind: device.deviceType,
      locationUuid: device.locationUuid,
      activities: input.policyAlertTriggers,
      atMs,
      timeZone: location?.tz ?? 'UTC',
      numHumans: input.numHumans,
    });
    // An addendum's activities alert during its window whatever the policy's schedules say.
    const added = await addendumActivitiesAt(w, actor.orgUuid, device, atMs);
    const triggers = input.policyAlertTriggers.filter((a) => byPolicy.includes(a) || added.has(a));
    if (triggers.length === 0) return null;
    return createPolicyAlert(w, { ...input, policyAlertTriggers: triggers, policyUuid });
  });
}

async function sensorThresholds(source: ReadSource, sensor: DeviceRecord, atMs: number): Promise<Record<string, unknown>> {
  const policyUuid = typeof sensor.attributes.policyUuid === 'string' ? sensor.attributes.policyUuid : null;
  const timeZone = sensor.locationUuid ? ((await findLocation(source, sensor.orgUuid, sensor.locationUuid))?.tz ?? 'UTC') : 'UTC';
  const byPolicy = policyUuid ? await climatePolicyThresholds(source, sensor.orgUuid, policyUuid, atMs, timeZone) : null;
  return byPolicy ? thresholdsByReading(byPolicy) : ((sensor.attributes.thresholds ?? {}) as Record<string, unknown>);
}

export interface ReadingResult {
  /** The alert raised, or null when no reading went above its threshold. */
  policyAlert: PolicyAlertRecord | null;
  crossings: Array<{ reading: string; value: number; threshold: number }>;
}

const describeCrossings = (crossings: readonly Crossing[]) =>
  crossings.map((c) => `${c.spec.reading} ${c.value} above its threshold ${c.threshold}`).join(', ');

/**
 * Takes an environmental sensor's readings: every reading above its threshold goes into one alert, beside the
 * threshold it crossed. The thresholds are the sensor's climate policy's, of the triggers whose schedules cover
 * the moment (a reading whose activity no covering trigger names raises nothing); a sensor that follows no
 * policy has its own (`attributes.thresholds`, by reading name).
 */
export async function takeSensorReadings(
  deps: AlertDeps,
  actor: Actor,
  input: { sensorUuid: string; readings: Record<string, number>; timestampMs?: number },
): Promise<ReadingResult> {
  return write(deps, actor, async (w) => {
    const sensor = await findDevice(w, actor.orgUuid, input.sensorUuid, ['ENVIRONMENTAL_SENSOR']);
    if (!sensor) throw fail('NOT_FOUND', 'Environmental sensor');
    const atMs = input.timestampMs ?? w.nowMs;
    if (await policiesPausedAt(w, actor.orgUuid, sensor, atMs)) return { policyAlert: null, crossings: [] };
    const thresholds = await sensorThresholds(w, sensor, atMs);
    const crossings = crossedThresholds(input.readings, thresholds);
    const summary = crossings.map((c) => ({ reading: c.spec.reading, value: c.value, threshold: c.threshold }));
    if (crossings.length === 0) return { policyAlert: null, crossings: summary };
    const policyAlert = await createPolicyAlert(w, {
      ...crossingFields(crossings),
      deviceUuid: sensor.uuid,
      policyAlertTriggers: crossings.map((c) => c.spec.trigger),
      timestampMs: input.timestampMs,
      textDescription: `${describeCrossings(crossings)} on ${sensor.name}`,
    });
    return { policyAlert, crossings: summary };
  });
}

export function cursorOf(input: { lastTimestampMs?: number | null; lastUuid?: string | null }): store.AlertCursor | null {
  const hasTime = input.lastTimestampMs != null;
  const hasUuid = input.lastUuid != null;
  if (hasUuid && !hasTime) {
    throw fail('INVALID_VALUE', 'lastTimestampMs and lastUuid form the pagination cursor: give both (the last alert of the previous page) or neither');
  }
  // lastTimestampMs alone (as the platform's examples send it) is the older bound: alerts strictly before it.
  return hasTime ? { timestampMs: input.lastTimestampMs!, uuid: input.lastUuid ?? '' } : null;
}

/** A device's alerts newest first, in groups (see alert-groups.ts), a page of whole groups at a time. */
export async function getPolicyAlertGroupsForDevice(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  input: GetPolicyAlertGroupsForDeviceRequest,
): Promise<Group<PolicyAlertRecord>[]> {
  const cursor = cursorOf(input);
  const maxResults = input.maxResults ?? ALERT_GROUP_PAGE.default;
  const rows = await store.listDeviceAlerts(deps.store.db, ctx.orgUuid, input.deviceUuid, cursor, rowsToRead(maxResults));
  return pageOfGroups(rows.map(toRecord), maxResults);
}

const nonEmpty = <T>(list: readonly T[] | null | undefined): readonly T[] | null => (list && list.length > 0 ? list : null);

/** An organization's alerts newest first, filtered by time range, devices and locations. */
export async function getPolicyAlerts(deps: Pick<Deps, 'store'>, ctx: CallerContext, input: GetPolicyAlertsV2Request): Promise<PolicyAlertRecord[]> {
  const cursor = cursorOf(input);
  const fromMs = input.afterTimestampMs ?? null;
  const beforeMs = input.beforeTimestampMs ?? null;
  if (fromMs !== null && beforeMs !== null && fromMs >= beforeMs) throw fail('INVALID_VALUE', 'afterTimestampMs must be before beforeTimestampMs');
  const rows = await store.listOrgAlerts(deps.store.db, ctx.orgUuid, {
    fromMs,
    beforeMs,
    deviceUuids: nonEmpty(input.deviceFilter),
    locationUuids: nonEmpty(input.locationFilter),
    after: cursor,
    limit: input.maxResults ?? ALERT_LIST_PAGE.default,
  });
  return rows.map(toRecord);
}

/** An alert of the organization; null for a missing one or another organization's. */
export async function findPolicyAlert(source: ReadSource, orgUuid: string, uuid: string): Promise<PolicyAlertRecord | null> {
  const row = await store.findPolicyAlert(dbOf(source), orgUuid, uuid);
  return row ? toRecord(row) : null;
}

/** Marks an alert saved (a clip was made of it), inside the write that makes the clip. */
export async function markPolicyAlertSaved(w: WriteScope, alert: PolicyAlertRecord): Promise<PolicyAlertRecord> {
  const saved = { ...alert, saved: true, expiresAtMs: null };
  await store.markPolicyAlertSaved(w.tx, alert.orgUuid, alert.uuid, detailsOf(saved));
  w.change({ entity: POLICY_ALERT_ENTITY, entityUuid: alert.uuid, type: 'UPDATE', deviceUuid: alert.deviceUuid, update: saved });
  return saved;
}

/** Marks an alert no longer saved (its clip was deleted): it expires a retention period from now, as a new one would. */
export async function markPolicyAlertUnsaved(w: WriteScope, alert: PolicyAlertRecord): Promise<PolicyAlertRecord> {
  const unsaved = { ...alert, saved: false, expiresAtMs: Math.max(alert.timestampMs, w.nowMs) + ALERT_RETENTION_MS };
  await store.markPolicyAlertUnsaved(w.tx, alert.orgUuid, alert.uuid, detailsOf(unsaved), unsaved.expiresAtMs);
  w.change({ entity: POLICY_ALERT_ENTITY, entityUuid: alert.uuid, type: 'UPDATE', deviceUuid: alert.deviceUuid, update: unsaved });
  return unsaved;
}

/** Deletes alerts of the organization, all or none: an unknown uuid (or another organization's) refuses the whole call. */
export async function deletePolicyAlerts(deps: AlertDeps, ctx: CallerContext, uuids: readonly string[]): Promise<number> {
  return write(deps, ctx, async (w) => {
    const rows = await store.findPolicyAlerts(w.tx, ctx.orgUuid, uuids);
    const found = new Set(rows.map((r) => r.uuid));
    const missing = uuids.find((u) => !found.has(u));
    if (missing) throw fail('NOT_FOUND', `Policy alert ${missing}`);
    const deleted = await store.deletePolicyAlerts(w.tx, ctx.orgUuid, uuids);
    for (const row of rows) {
      w.change({ entity: POLICY_ALERT_ENTITY, entityUuid: row.uuid, type: 'DELETE', deviceUuid: row.device_uuid, update: { ...toRecord(row), deleted: true } });
    }
    return deleted;
  });
}

/** An alert of the caller's organization by uuid, dismissed ones included (getPolicyAlert). */
export async function getPolicyAlert(deps: Pick<Deps, 'store'>, ctx: CallerContext, uuid: string): Promise<PolicyAlertRecord> {
  const alert = await findPolicyAlert(deps, ctx.orgUuid, uuid);
  if (!alert) throw fail('NOT_FOUND', 'Policy alert');
  return alert;
}

/**
 * reportBadPolicyAlert: the alert is a false positive. The first report is kept on the alert (badAlertReport:
 * when, by whom) and announced as a POLICY_ALERT UPDATE; reporting it again changes nothing.
 */
export async function reportBadPolicyAlert(deps: AlertDeps, ctx: CallerContext, uuid: string): Promise<PolicyAlertRecord> {
  return write(deps, ctx, async (w) => {
    const alert = await findPolicyAlert(w, ctx.orgUuid, uuid);
    if (!alert) throw fail('NOT_FOUND', 'Policy alert');
    if (alert.badAlertReport) return alert;
    const reported = { ...alert, badAlertReport: { reportedAtMs: w.nowMs, userUuid: ctx.userUuid } };
    await store.updatePolicyAlertDetails(w.tx, ctx.orgUuid, uuid, detailsOf(reported));
    w.change({ entity: POLICY_ALERT_ENTITY, entityUuid: uuid, type: 'UPDATE', deviceUuid: alert.deviceUuid, update: reported });
    return reported;
  });
}

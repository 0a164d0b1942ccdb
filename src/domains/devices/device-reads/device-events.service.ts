import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { fromJson, toJson } from '../../../store/columns.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type Actor, type WriteScope } from '../../../bus/write.js';
import * as events from './device-events.store.js';
import { findDevice, findDevices, type DeviceRecord } from '../service.js';
import type { DeviceKind, DeviceStatus } from '../tables.js';
import type { RecordKind } from '../../../schemas/record-kinds.js';

type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** What a device last reported (readings, position, status), kept in its attributes under `state`. */
export function stateOf(device: DeviceRecord): Record<string, unknown> {
  return (device.attributes.state ?? {}) as Record<string, unknown>;
}

/** The device kinds a history belongs to, and how a missing device is named in the error. */
export interface DeviceClass {
  kinds: readonly DeviceKind[];
  what: string;
  /** The kind of policy its devices may follow (their `policyUuid`), when they follow one. */
  policy?: RecordKind;
}

/** A device's state as the stream carries it (a minimal state list's entry, a config): the REST answer's shape. */
export type DeviceStateRecord = object;

/** The entities a device report or config change is announced as. */
export type DeviceStateEntity =
  | 'AUDIO_STATE'
  | 'CAMERA_STATE'
  | 'CAMERA_USER_CONFIG'
  | 'CLIMATE_STATE'
  | 'COMPONENT_SEEKPOINT'
  | 'DEVICE'
  | 'DOOR_STATE'
  | 'KEYPAD'
  | 'OCCUPANCY_STATE'
  | 'PROXIMITY_STATE';

export interface DeviceReport<E extends object> {
  deviceUuid: string;
  device: DeviceClass;
  /** The history the event joins (climate, door, occupancy, connection, ...). */
  family: string;
  timestampMs?: number;
  /** The state the event reports, kept for the histories' filters. */
  state?: string | null;
  /** Merged into the device's state (the minimal state lists show it). */
  stateUpdate?: Record<string, unknown>;
  connectionStatus?: DeviceStatus;
  /** The event as the REST API answers it, from the device as it was and the instant of the event. */
  event: (device: DeviceRecord, atMs: number) => E;
  /** The stream's entity, and the record it carries (from the device as the report leaves it). */
  entity: DeviceStateEntity;
  announce: (device: DeviceRecord, event: E) => DeviceStateRecord;
}

/**
 * A device's report, in the writer's transaction: records the event in its history, updates what the device
 * last reported (and its connection), and announces the change. The device must be of the writer's
 * organization; another organization's is missing.
 */
export async function recordDeviceReport<E extends object>(w: WriteScope, report: DeviceReport<E>): Promise<{ device: DeviceRecord; event: E }> {
  const device = await findDevice(w, w.actor.orgUuid, report.deviceUuid, report.device.kinds);
  if (!device) throw fail('NOT_FOUND', report.device.what);
  const atMs = report.timestampMs ?? w.nowMs;
  const event = report.event(device, atMs);
  await events.insertDeviceEvent(w.tx, {
    org_uuid: device.orgUuid,
    device_uuid: device.uuid,
    family: report.family,
    ts: atMs,
    state: report.state ?? null,
    record: toJson(event)!,
  });
  const previous = stateOf(device);
  // An event older than the last one reported joins the history but does not overwrite the newer state.
  const newest = typeof previous.lastSeenMs !== 'number' || atMs >= previous.lastSeenMs;
  const state = newest ? { ...previous, ...report.stateUpdate, lastSeenMs: atMs } : previous;
  const updated: DeviceRecord = {
    ...device,
    attributes: { ...device.attributes, state },
    connectionStatus: newest && report.connectionStatus ? report.connectionStatus : device.connectionStatus,
    updatedAtMillis: w.nowMs,
  };
  await events.updateDeviceReport(w.tx, device.uuid, { attributes: toJson(updated.attributes)!, connectionStatus: updated.connectionStatus, nowMs: w.nowMs });
  w.change({
    entity: report.entity,
    entityUuid: device.uuid,
    deviceUuid: device.uuid,
    type: 'UPDATE',
    update: report.announce(updated, event),
    timestampMs: atMs,
  });
  return { device: updated, event };
}

/** `recordDeviceReport` in its own write, as the device's organization. */
export async function reportDevice<E extends object>(deps: WriteDeps, actor: Actor, report: DeviceReport<E>) {
  return write(deps, actor, (w) => recordDeviceReport(w, report));
}

/**
 * Adds an event to a device's history in the writer's transaction, without touching the device's state or
 * announcing anything: for a report another domain records and announces itself (a button press, which the
 * rules domain keeps and announces as a BUTTON_EVENT, joins the button's history under `button`).
 */
export async function appendDeviceHistory(
  w: WriteScope,
  entry: { deviceUuid: string; family: string; atMs: number; state: string | null; record: object },
): Promise<void> {
  await events.insertDeviceEvent(w.tx, {
    org_uuid: w.actor.orgUuid,
    device_uuid: entry.deviceUuid,
    family: entry.family,
    ts: entry.atMs,
    state: entry.state,
    record: toJson(entry.record)!,
  });
}

/** Some devices' events of some families in a span (at most `limit`), each with its record: what the timeline reads take. */
export async function deviceEventsInSpan(
  source: ReadSource,
  q: { orgUuid: string; deviceUuids: readonly string[]; families: readonly string[]; fromMs: number; toMs: number; limit: number },
): Promise<Array<{ id: number; deviceUuid: string; family: string; ts: number; state: string | null; record: Record<string, unknown> }>> {
  const rows = await events.listDeviceEventsInSpan(dbOf(source), q);
  return rows.map((r) => ({
    id: r.id,
    deviceUuid: r.device_uuid,
    family: r.family,
    ts: r.ts,
    state: r.state,
    record: fromJson<Record<string, unknown>>(r.record) ?? {},
  }));
}

/** Replaces a device's attributes (its configuration), announcing the change. */
export async function updateDeviceAttributes(
  w: WriteScope,
  device: DeviceRecord,
  attributes: Record<string, unknown>,
  announce: { entity: DeviceStateEntity; update: (device: DeviceRecord) => DeviceStateRecord },
): Promise<DeviceRecord> {
  const updated: DeviceRecord = { ...device, attributes, updatedAtMillis: w.nowMs };
  await events.updateDeviceReport(w.tx, device.uuid, { attributes: toJson(attributes)!, nowMs: w.nowMs });
  w.change({ entity: announce.entity, entityUuid: device.uuid, deviceUuid: device.uuid, type: 'UPDATE', update: announce.update(updated) });
  return updated;
}

export const HISTORY_PAGE = { default: 100, max: 1000 };

export interface HistoryQuery {
  deviceUuid: string;
  createdAfterMs?: number | null;
  createdBeforeMs?: number | null;
  limit?: number | null;
  states?: readonly string[] | null;
}

/**
 * A device's history, newest first: events at or after `createdAfterMs` and before `createdBeforeMs`, at
 * most `limit` (default 100, at most 1000). The next page is the one before the last event's timestamp.
 */
export async function deviceHistory<E>(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  device: DeviceClass,
  families: readonly string[],
  q: HistoryQuery,
): Promise<E[]> {
  if (!(await findDevice(deps, ctx.orgUuid, q.deviceUuid, device.kinds))) throw fail('NOT_FOUND', device.what);
  if (q.createdAfterMs != null && q.createdBeforeMs != null && q.createdAfterMs >= q.createdBeforeMs) {
    throw fail('INVALID_VALUE', 'createdAfterMs must be before createdBeforeMs');
  }
  const rows = await events.listDeviceEvents(deps.store.db, {
    deviceUuid: q.deviceUuid,
    families,
    fromMs: q.createdAfterMs ?? undefined,
    beforeMs: q.createdBeforeMs ?? undefined,
    states: q.states ?? undefined,
    limit: Math.min(q.limit ?? HISTORY_PAGE.default, HISTORY_PAGE.max),
  });
  return rows.map((r) => fromJson<E>(r.record)!);
}

/** A keyset page of a device's history (lastEvaluatedKey paging): the events and the key of the next page, if any. */
export async function deviceHistoryPage<E>(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  device: DeviceClass,
  families: readonly string[],
  q: HistoryQuery & { lastEvaluatedKey?: string | null },
): Promise<{ events: E[]; lastEvaluatedKey: string | null }> {
  if (!(await findDevice(deps, ctx.orgUuid, q.deviceUuid, device.kinds))) throw fail('NOT_FOUND', device.what);
  const olderThan = q.lastEvaluatedKey ? parsePageKey(q.lastEvaluatedKey) : undefined;
  const limit = Math.min(q.limit ?? HISTORY_PAGE.default, HISTORY_PAGE.max);
  const rows = await events.listDeviceEvents(deps.store.db, {
    deviceUuid: q.deviceUuid,
    families,
    fromMs: q.createdAfterMs ?? undefined,
    beforeMs: q.createdBeforeMs ?? undefined,
    olderThan,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { events: page.map((r) => fromJson<E>(r.record)!), lastEvaluatedKey: rows.length > limit && last ? `${last.ts}.${last.id}` : null };
}

function parsePageKey(key: string): { ts: number; id: number } {
  const m = /^(\d{1,16})\.(\d{1,16})$/.exec(key);
  if (!m) throw fail('INVALID_VALUE', 'lastEvaluatedKey: not a key this operation answered');
  return { ts: Number(m[1]), id: Number(m[2]) };
}

export interface OrgDeviceEvent {
  id: number;
  ts: number;
  family: string;
  device: DeviceRecord;
  record: Record<string, unknown>;
}

/**
 * A page of an organization's device events of some families, newest first, strictly older than the cursor
 * (the last event of the previous page), each with its device (read in one query).
 */
export async function orgDeviceEventsPage(
  deps: Pick<Deps, 'store'>,
  orgUuid: string,
  q: { families: readonly string[]; fromMs: number | null; toMs: number | null; olderThan: { ts: number; id: number } | null; limit: number },
): Promise<OrgDeviceEvent[]> {
  const rows = await events.listOrgEvents(deps.store.db, { orgUuid, ...q });
  const devices = await findDevices(deps, orgUuid, [...new Set(rows.map((r) => r.device_uuid))]);
  return rows.flatMap((r) => {
    const device = devices.get(r.device_uuid);
    return device ? [{ id: r.id, ts: r.ts, family: r.family, device, record: fromJson<Record<string, unknown>>(r.record) ?? {} }] : [];
  });
}

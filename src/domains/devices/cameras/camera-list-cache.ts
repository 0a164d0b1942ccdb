import type { Deps } from '../../../deps.js';
import { SizedLru } from '../../../sized-lru.js';
import { entitiesChangedSince, lastChangePosition } from '../../../store/change-log.js';
import * as liveShareStore from '../live-shares/store.js';
import { connectionHistory, windowsOfHistory, type ConnectionHistory, type UptimeWindow } from '../lifecycle/device-connection.service.js';
import { CAMERA_FACETS } from './service.js';
import * as cameraStore from './store.js';

/**
 * The camera list (getMinimalCameraStateList) of each organization as last read, answered again while nothing of
 * the organization changed: its states as JSON (minimalCameraStatesJson: 44 ms of SQLite's time at 10,000
 * cameras, 74 ms of PostgreSQL's) and its cameras' connection history from a day before the read on, from which
 * each call works out the last day's uptime windows at its own time (the windows move with the clock; the
 * history moves only with a write).
 *
 * "Nothing changed" is its change position (store/change-log.ts), read before the list: every write of a camera,
 * a connection event, a share or anything else of the organization logs a change in its own transaction, so a
 * list read after the position is at least as new as it, and the next write makes it stale. The one thing that
 * changes without a write is a share's expiry (liveStreamShared), so a list is kept only until the first one.
 * The position is the store's, so every instance on one store keeps its lists current; each holds its own.
 *
 * Most of a busy organization's writes are doors opening, badges, schedules and alerts, none of which touches what
 * the list reads (cameras' device rows, their shares, their connection events): when every change since a kept
 * list's position is of such an entity, the list is kept at the new position instead of read again.
 */
interface Held {
  position: number;
  validUntilMs: number;
  states: string | Buffer;
  history: ConnectionHistory;
  /** Each camera's uuid as a JSON object key (`"uuid":`), in the history's order. */
  keys: string[];
  /** About the bytes it holds: what the cache's bound counts. */
  length: number;
}

/** The most bytes of lists one store's cache holds: the least recently used go first. */
const MAX_BYTES = 64 * 1024 * 1024;
/** The uptime windows' span: the last day. */
export const UPTIME_SPAN_MS = 86_400_000;
/** What one camera's part of a history holds, about: for the cache's bound. */
const HISTORY_BYTES_PER_DEVICE = 160;

/** Entities whose writes never touch a device row, a live share or a connection event (their domains read none of them). */
const UNRELATED_ENTITIES = new Set([
  'SCHEDULE',
  'DOOR',
  'DOOR_LABELS',
  'DOOR_SCHEDULE_EXCEPTION',
  'COMPONENT_EVENT',
  'ACCESS_CONTROL_CREDENTIAL',
  'POLICY_ALERT',
  'RULES_EVENT_RECORD',
]);
/** The most changes read to tell whether a kept list is still current: past it, the list is read again. */
const MAX_CHANGES_LOOKED_AT = 256;

const caches = new WeakMap<object, SizedLru<Held>>();

export interface CameraList {
  /** The organization's cameras' MinimalCameraState array as JSON text (or its bytes). */
  states: string | Buffer;
  /** Every camera's online windows of the last day, as a JSON object by uuid. */
  uptimeWindows: string;
}

/** The organization's camera list for a caller who sees every location, from the cache when current. */
export async function cameraList(deps: Pick<Deps, 'store' | 'clock'>, orgUuid: string): Promise<CameraList> {
  const db = deps.store.db;
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new SizedLru<Held>(MAX_BYTES)));
  const position = await lastChangePosition(db, orgUuid);
  const nowMs = deps.clock.now();
  let held = cache.get(orgUuid);
  if (held && held.position !== position && (await onlyUnrelatedSince(db, orgUuid, held.position))) held.position = position;
  // A history read a day before an earlier call reaches back far enough for any later one.
  if (!held || held.position !== position || nowMs >= held.validUntilMs) {
    const states = await cameraStore.minimalCameraStatesJson(db, deps.store.dialect, orgUuid, ['CAMERA'], CAMERA_FACETS, nowMs);
    const cameras = await cameraStore.uptimeDevices(db, orgUuid, ['CAMERA']);
    const history = await connectionHistory(deps, orgUuid, cameras, nowMs - UPTIME_SPAN_MS, Number.MAX_SAFE_INTEGER);
    const validUntilMs = (await liveShareStore.nextShareExpiry(db, orgUuid, nowMs)) ?? Infinity;
    const keys = cameras.map((c) => `${JSON.stringify(c.uuid)}:`);
    held = { position, validUntilMs, states, history, keys, length: states.length + cameras.length * HISTORY_BYTES_PER_DEVICE };
    // A history cut at its bound would answer differently from a day read at the next call's time.
    if (history.complete) cache.set(orgUuid, held);
  }
  return { states: held.states, uptimeWindows: windowsJson(held, windowsOfHistory(held.history, nowMs - UPTIME_SPAN_MS, nowMs)) };
}

async function onlyUnrelatedSince(db: Deps['store']['db'], orgUuid: string, position: number): Promise<boolean> {
  const entities = await entitiesChangedSince(db, orgUuid, position, MAX_CHANGES_LOOKED_AT);
  return entities !== null && entities.every((entity) => UNRELATED_ENTITIES.has(entity));
}

/**
 * The windows as one JSON object, written out directly; a list shared with the camera before (most cameras share
 * one: windowsOfHistory) is not written again. JSON.stringify of an object made by Object.fromEntries (a
 * dictionary of a thousand keys and up) was most of the list's own time once the list was kept, and a template
 * writes a list in a third of JSON.stringify's time.
 */
function windowsJson(held: Held, windows: readonly UptimeWindow[][]): string {
  let json = '{';
  let last: UptimeWindow[] | undefined;
  let lastJson = '';
  windows.forEach((list, i) => {
    if (list !== last) lastJson = listJson((last = list));
    json += (i > 0 ? ',' : '') + held.keys[i]! + lastJson;
  });
  return json + '}';
}

const listJson = (list: UptimeWindow[]) => `[${list.map((w) => `{"startSeconds":${w.startSeconds},"durationSeconds":${w.durationSeconds}}`).join(',')}]`;

import type { Actor } from '../../../bus/write.js';
import type { Deps } from '../../../deps.js';
import * as events from '../device-reads/device-events.store.js';
import { OFFLINE, ONLINE, reportConnection } from '../sensors/service.js';
import type { DeviceRecord } from '../service.js';

/** How long a rebooting simulated device stays offline. */
export const REBOOT_OFFLINE_MS = 3000;

/**
 * A reboot of any device (camera, environmental gateway, badge reader): an online device goes offline at once
 * and comes back `offlineMs` later, both as connection events, so both show on the stream and in its uptime
 * windows. Answers false, sending nothing, for a device already offline. The return is a timer in this
 * process: a server stopped meanwhile leaves the device offline until the simulator reports it
 * (`gatehouse simulate connection --device UUID --online`).
 */
export async function rebootDevice(
  deps: Pick<Deps, 'store' | 'bus' | 'clock' | 'log'>,
  actor: Actor,
  device: DeviceRecord,
  offlineMs = REBOOT_OFFLINE_MS,
): Promise<boolean> {
  if (device.connectionStatus === 'RED') return false;
  await reportConnection(deps, { ...actor, operation: 'reboot' }, { deviceUuid: device.uuid, online: false });
  const timer = setTimeout(() => {
    reportConnection(deps, { ...actor, operation: 'reboot.back' }, { deviceUuid: device.uuid, online: true }).catch((e: unknown) =>
      deps.log.warn({ err: e, device: device.uuid }, 'a rebooted device could not come back online'),
    );
  }, offlineMs);
  timer.unref();
  return true;
}

/** At most this many connection changes are read for one uptime answer (over all its devices). */
const MAX_WINDOW_EVENTS = 100_000;

/** What a device's uptime is worked out from, besides its connection history. */
export type UptimeDevice = Pick<DeviceRecord, 'uuid' | 'createdAtMillis' | 'connectionStatus'>;

export interface UptimeWindow {
  startSeconds: number;
  durationSeconds: number;
}

/**
 * Windows of time a device was online between `startMs` and `endMs`, from its connection history: before its
 * first recorded change a device counts as online since its creation (unless it was created offline and never
 * reported), and never beyond now. Windows are in whole seconds.
 */
export async function uptimeWindows(deps: Pick<Deps, 'store' | 'clock'>, device: DeviceRecord, startMs: number, endMs: number): Promise<UptimeWindow[]> {
  return (await uptimeWindowsOfDevices(deps, device.orgUuid, [device], startMs, endMs)).get(device.uuid) ?? [];
}

/**
 * `uptimeWindows` of several devices of one organization, in two queries whatever their number: what held at
 * `startMs` and the changes after it. A device's own window starts no earlier than its creation, so the changes
 * before that fold into what held then. uuid -> windows, for every device given.
 */
export async function uptimeWindowsOfDevices(
  deps: Pick<Deps, 'store' | 'clock'>,
  orgUuid: string,
  devices: readonly UptimeDevice[],
  startMs: number,
  endMs: number,
): Promise<Map<string, UptimeWindow[]>> {
  const toMs = Math.min(endMs, deps.clock.now());
  const live = devices.filter((d) => toMs > Math.max(startMs, d.createdAtMillis));
  const history = await connectionHistory(deps, orgUuid, live, startMs, toMs);
  const windows = windowsOfHistory(history, startMs, toMs);
  const result = new Map<string, UptimeWindow[]>(devices.map((d) => [d.uuid, []]));
  history.devices.forEach((d, i) => result.set(d.uuid, windows[i]!));
  return result;
}

/**
 * Some devices' connection history from `startMs` until before `toMs`: what their uptime windows over any span
 * within it are worked out from (windowsOfHistory). `complete` is false when it holds only the first
 * MAX_WINDOW_EVENTS changes.
 */
export interface ConnectionHistory {
  devices: readonly UptimeDevice[];
  /** Each device's last change at or before `startMs`. */
  atStart: ReadonlyMap<string, ConnectionChange>;
  /** Each device's changes after `startMs`, oldest first; only the devices with changes have a list. */
  changesOf: ReadonlyMap<string, readonly ConnectionChange[]>;
  complete: boolean;
}

export async function connectionHistory(
  deps: Pick<Deps, 'store'>,
  orgUuid: string,
  devices: readonly UptimeDevice[],
  startMs: number,
  toMs: number,
): Promise<ConnectionHistory> {
  if (devices.length === 0) return { devices, atStart: new Map(), changesOf: new Map(), complete: true };
  const db = deps.store.db;
  const uuids = devices.map((d) => d.uuid);
  const atStart = await events.lastEventsBefore(db, uuids, 'connection', startMs);
  const changes = await events.listEventsOfDevices(db, {
    orgUuid,
    deviceUuids: uuids,
    families: ['connection'],
    fromMs: startMs + 1,
    toMs,
    limit: MAX_WINDOW_EVENTS,
  });
  // Only the devices with changes get a list: an organization of 10,000 cameras mostly has none in a day.
  const changesOf = new Map<string, ConnectionChange[]>();
  for (const change of changes) {
    const list = changesOf.get(change.device_uuid);
    if (list) list.push(change);
    else changesOf.set(change.device_uuid, [change]);
  }
  return { devices, atStart, changesOf, complete: changes.length < MAX_WINDOW_EVENTS };
}

/**
 * The online windows in [startMs, toMs) of each device of a history that starts at or before `startMs` and reaches
 * `toMs`, in the order of its devices. Devices may share one list: read them, never change them.
 */
export function windowsOfHistory(history: ConnectionHistory, startMs: number, toMs: number): UptimeWindow[][] {
  // The devices with no change in the span since before it share one answer (most of a large organization's:
  // online, or offline, all of it), so that a caller can write each distinct one once.
  const throughout = new Map<boolean, UptimeWindow[]>();
  return history.devices.map((device) => {
    const fromMs = Math.max(startMs, device.createdAtMillis);
    if (toMs <= fromMs) return [];
    const all = history.changesOf.get(device.uuid);
    // What held at fromMs: the last change at or before it, else the last before the history.
    const before = all?.filter((c) => c.ts <= fromMs).at(-1) ?? history.atStart.get(device.uuid);
    const after = all?.filter((c) => c.ts > fromMs && c.ts < toMs) ?? [];
    if (after.length > 0 || fromMs !== startMs) return windowsOf(device, before, after, fromMs, toMs);
    const online = onlineAtStart(device, before, after);
    let windows = throughout.get(online);
    if (!windows) throughout.set(online, (windows = windowsOf(device, before, after, fromMs, toMs)));
    return windows;
  });
}

/** Whether the device was online at the start of a span, given the change that held then (if any) and the changes after. */
function onlineAtStart(device: UptimeDevice, before: ConnectionChange | undefined, changes: readonly ConnectionChange[]): boolean {
  if (before) return before.state === ONLINE;
  if (changes.length > 0) return changes[0]!.state === OFFLINE;
  return device.connectionStatus !== 'RED';
}

export interface ConnectionChange {
  ts: number;
  state: string | null;
}

/** The online windows in [fromMs, toMs) given the change that held at `fromMs` (if any) and the changes after it. */
function windowsOf(device: UptimeDevice, before: ConnectionChange | undefined, changes: readonly ConnectionChange[], fromMs: number, toMs: number) {
  let online = onlineAtStart(device, before, changes);
  const windows: UptimeWindow[] = [];
  let since = fromMs;
  const close = (atMs: number) => {
    if (atMs > since) windows.push({ startSeconds: Math.floor(since / 1000), durationSeconds: Math.round((atMs - since) / 1000) });
  };
  for (const change of changes) {
    const nowOnline = change.state === ONLINE;
    if (online && !nowOnline) close(change.ts);
    if (!online && nowOnline) since = change.ts;
    online = nowOnline;
  }
  if (online) close(toMs);
  return windows;
}

import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { deviceEventsInSpan } from '../devices/device-reads/device-events.service.js';
import { uptimeWindows } from '../devices/lifecycle/device-connection.service.js';
import { OFFLINE, ONLINE } from '../devices/sensors/service.js';
import { findDevice, type DeviceRecord } from '../devices/service.js';
import { DEVICE_TYPES } from '../events/alerts/service.js';

/** How far back a triage looks when the caller names no start. */
export const TRIAGE_DEFAULT_SPAN_MS = 24 * 3600_000;
/** The most connection changes one triage reads. */
const MAX_CHANGES = 1000;

const iso = (ms: number) => new Date(ms).toISOString();

/** A loss of connection of the device, as the catalogue's DiagnosticEventType. */
function disconnection(device: DeviceRecord, ts: number) {
  const type = DEVICE_TYPES[device.deviceType];
  const noun = type === 'CAMERA' ? 'CAMERA' : type === 'DOOR_CONTROLLER' ? 'DOOR_CONTROLLER' : 'GATEWAY';
  return {
    activity: `${noun}_DISCONNECTED`,
    deviceUuid: device.uuid,
    deviceName: device.name,
    deviceType: type,
    firmwareVersion: device.firmwareVersion,
    orgUuid: device.orgUuid,
    timestamp: iso(ts),
  };
}

/**
 * help/triageDevice: a diagnosis of one of the organization's devices since `startDateSec` (default: the last
 * day), from what Gatehouse knows of it: whether it is online and since when, how often it dropped off, its
 * health and its firmware. The message says what is wrong and what to try; the windows and events are the
 * evidence (uptime windows and the disconnections, as the platform's diagnostic events).
 */
export async function triageDevice(deps: Pick<Deps, 'store' | 'clock'>, ctx: CallerContext, input: { deviceUuid: string; startDateSec?: number | null }) {
  const device = await findDevice(deps, ctx.orgUuid, input.deviceUuid);
  if (!device) throw fail('NOT_FOUND', 'Device');
  const nowMs = deps.clock.now();
  const startMs = input.startDateSec != null ? input.startDateSec * 1000 : nowMs - TRIAGE_DEFAULT_SPAN_MS;
  if (startMs >= nowMs) throw fail('INVALID_VALUE', 'startDateSec: must be in the past');
  const changes = (
    await deviceEventsInSpan(deps, {
      orgUuid: ctx.orgUuid,
      deviceUuids: [device.uuid],
      families: ['connection'],
      fromMs: startMs,
      toMs: nowMs + 1,
      limit: MAX_CHANGES,
    })
  ).filter((c) => c.state === ONLINE || c.state === OFFLINE);
  const drops = changes.filter((c) => c.state === OFFLINE);
  const lastChange = changes.at(-1);
  const online = device.connectionStatus !== 'RED';
  const what = `${DEVICE_TYPES[device.deviceType].toLowerCase().replace(/_/g, ' ')} "${device.name}"`;

  const findings: string[] = [];
  const articles: string[] = [];
  if (!online) {
    findings.push(`The ${what} is offline${lastChange?.state === OFFLINE ? ` since ${iso(lastChange.ts)}` : ''}.`);
    articles.push('Bringing an offline device back online: power, network cable or Wi-Fi, and firewall rules');
  } else {
    findings.push(`The ${what} is online${lastChange?.state === ONLINE ? ` since ${iso(lastChange.ts)}` : ''}.`);
  }
  if (drops.length > 0) {
    findings.push(`It lost its connection ${drops.length} time${drops.length > 1 ? 's' : ''} since ${iso(startMs)}.`);
    if (drops.length >= 3) articles.push('Diagnosing an unstable network connection');
  }
  if (device.healthStatus !== 'GREEN') {
    findings.push(`Its health is ${device.healthStatus}: it reports a problem of its own (storage, sensor or recording).`);
    articles.push('What a device health warning means and when to ask for an RMA');
  }
  if (!device.firmwareVersion) {
    findings.push('It has reported no firmware version.');
    articles.push('Checking and updating device firmware');
  } else findings.push(`It runs firmware ${device.firmwareVersion}.`);
  if (online && drops.length === 0 && device.healthStatus === 'GREEN')
    findings.push('No problem found: if footage is missing, check its recording schedule and policy.');

  return {
    message: findings.join(' '),
    suggestedArticles: articles,
    uptimeWindows: await uptimeWindows(deps, device, startMs, nowMs),
    hardwareFailureEvents: drops.map((c) => disconnection(device, c.ts)),
    firmwareUpdates: [],
  };
}

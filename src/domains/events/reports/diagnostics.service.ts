import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { orgDeviceEventsPage, type OrgDeviceEvent } from '../../devices/device-reads/device-events.service.js';
import type { DeviceKind } from '../../devices/tables.js';
import { checkExportRange } from '../exports/csv-export.js';
import { rowUuid } from '../row-uuid.js';

/**
 * Device diagnostics, from the device events already recorded: a device going online or offline (its
 * connection reports) and a battery-powered sensor reporting a low battery (at or below LOW_BATTERY_PERCENT).
 */

export const LOW_BATTERY_PERCENT = 20;
/** The most diagnostic events one answer holds (the newest). */
export const DIAGNOSTIC_MAX = 1000;
const READ_PAGE = 500;
/** Event rows read at most per diagnostic answered: diagnostics are a fraction of sensor reports, and reading is bounded. */
const ROWS_READ_PER_DIAGNOSTIC = 50;

const CONNECTION_ACTIVITY: Partial<Record<DeviceKind, [online: string, offline: string]>> = {
  CAMERA: ['CAMERA_CONNECTED', 'CAMERA_DISCONNECTED'],
  DOORBELL_CAMERA: ['CAMERA_CONNECTED', 'CAMERA_DISCONNECTED'],
  ENVIRONMENTAL_SENSOR: ['CLIMATE_ONLINE', 'CLIMATE_OFFLINE'],
  DOOR_SENSOR: ['DOOR_ONLINE', 'DOOR_OFFLINE'],
  OCCUPANCY_SENSOR: ['OCCUPANCY_SENSOR_ONLINE', 'OCCUPANCY_SENSOR_OFFLINE'],
  BUTTON: ['BUTTON_ONLINE', 'BUTTON_OFFLINE'],
  KEYPAD: ['KEYPAD_ONLINE', 'KEYPAD_OFFLINE'],
  DOOR_CONTROLLER: ['DOOR_CONTROLLER_CONNECTED', 'DOOR_CONTROLLER_DISCONNECTED'],
  BADGE_READER: ['BADGE_READER_CONNECTED', 'BADGE_READER_DISCONNECTED'],
  ENVIRONMENTAL_GATEWAY: ['GATEWAY_CONNECTED', 'GATEWAY_DISCONNECTED'],
  AUDIO_GATEWAY: ['GATEWAY_CONNECTED', 'GATEWAY_DISCONNECTED'],
};

const LOW_BATTERY_ACTIVITY: Partial<Record<DeviceKind, string>> = {
  ENVIRONMENTAL_SENSOR: 'CLIMATE_LOW_BATTERY',
  DOOR_SENSOR: 'DOOR_LOW_BATTERY',
  OCCUPANCY_SENSOR: 'OCCUPANCY_SENSOR_LOW_BATTERY',
  BLE_TRACKER: 'PROXIMITY_LOW_BATTERY',
  BUTTON: 'BUTTON_LOW_BATTERY',
};

/** The families whose events may be diagnostics: connection reports, and the sensor reports that carry a battery level. */
const FAMILIES = ['connection', 'climate', 'door', 'occupancy', 'proximity'];

export interface DiagnosticEventRecord {
  uuid: string;
  orgUuid: string;
  deviceUuid: string;
  deviceName: string;
  deviceType: DeviceKind;
  firmwareVersion: string | null;
  activity: string;
  timestamp: string;
}

function activityOf(event: OrgDeviceEvent): string | null {
  const kind = event.device.deviceType;
  if (event.family === 'connection') {
    const pair = CONNECTION_ACTIVITY[kind];
    return pair ? pair[event.record.connectionStatus === 'GREEN' ? 0 : 1] : null;
  }
  const battery = event.record.batteryPercentage;
  return typeof battery === 'number' && battery <= LOW_BATTERY_PERCENT ? (LOW_BATTERY_ACTIVITY[kind] ?? null) : null;
}

/** The organization's diagnostic events in [afterMs, beforeMs), newest first, at most `max` (default DIAGNOSTIC_MAX). */
export async function diagnosticEvents(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  range: { afterMs?: number | null; beforeMs?: number | null },
  max = DIAGNOSTIC_MAX,
): Promise<DiagnosticEventRecord[]> {
  checkExportRange(range.afterMs, range.beforeMs);
  const out: DiagnosticEventRecord[] = [];
  let olderThan: { ts: number; id: number } | null = null;
  for (let read = 0; read < max * ROWS_READ_PER_DIAGNOSTIC && out.length < max; read += READ_PAGE) {
    const page: OrgDeviceEvent[] = await orgDeviceEventsPage(deps, ctx.orgUuid, {
      families: FAMILIES,
      fromMs: range.afterMs ?? null,
      toMs: range.beforeMs ?? null,
      olderThan,
      limit: READ_PAGE,
    });
    for (const event of page) {
      const activity = activityOf(event);
      if (!activity || out.length === max) continue;
      out.push({
        uuid: rowUuid('diag', event.id),
        orgUuid: ctx.orgUuid,
        deviceUuid: event.device.uuid,
        deviceName: event.device.name,
        deviceType: event.device.deviceType,
        firmwareVersion: event.device.firmwareVersion,
        activity,
        timestamp: new Date(event.ts).toISOString(),
      });
    }
    if (page.length < READ_PAGE) break;
    const last = page.at(-1)!;
    olderThan = { ts: last.ts, id: last.id };
  }
  return out;
}

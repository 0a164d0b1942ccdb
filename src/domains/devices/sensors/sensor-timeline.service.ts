import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceUuidOf, facetId } from '../../../ids.js';
import type { Activity } from '../../../schemas/activities.js';
import type { FootageSeekPoint, PresenceWindowsRequest, SensorSeekPoint, TimeWindow } from '../../timeline/seekpoints.schemas.js';
import { inTimeOrder, SOURCE_LIMIT, SPAN_SEC, spanOf, type Span } from '../../timeline/span.js';
import { presenceWindows, PRESENCE } from '../../timeline/windows.js';
import { deviceEventsInSpan } from '../device-reads/device-events.service.js';
import * as events from '../device-reads/device-events.store.js';
import { CLIMATE_ALERT_STATE } from './service.js';
import { findDevice, findLocation, listDevicesAt, type DeviceRecord } from '../service.js';
import type { DeviceKind } from '../tables.js';

/**
 * The sensors' timeline reads: seekpoints of what sensors reported (doors opening, rooms occupied, climate
 * alerts, tags arriving, buttons pressed) and presence windows of a sensor's active states, from the device
 * histories (device_events). One query per read over the (device, family, ts) index, whatever the span.
 */

type ReadDeps = Pick<Deps, 'store'>;

/** Each history a sensor seekpoint comes from, its sensors, and the activity of each reported state. */
const SEEKPOINT_FAMILIES: Record<string, { kinds: readonly DeviceKind[]; activities: Record<string, Activity> }> = {
  door: { kinds: ['DOOR_SENSOR'], activities: { OPEN: 'DOOR_OPENED', CLOSED: 'DOOR_CLOSED', AJAR: 'DOOR_AJAR' } },
  occupancy: { kinds: ['OCCUPANCY_SENSOR'], activities: { OCCUPIED: 'PIR_OCCUPIED', MOVEMENT: 'PIR_MOVEMENT', VACANT: 'PIR_VACANT' } },
  locomotion: { kinds: ['BLE_TRACKER'], activities: { ARRIVAL: 'TAG_ARRIVED', DEPARTURE: 'TAG_DEPARTED', MOVED_SIGNIFICANTLY: 'TAG_MOVED' } },
  button: { kinds: ['BUTTON'], activities: { SINGLE: 'BUTTON_SINGLE_PRESSED', DOUBLE: 'BUTTON_DOUBLE_PRESSED', LONG: 'BUTTON_LONG_PRESSED' } },
  // A climate reading is a seekpoint only when it raised an alert: one per activity alerted on.
  climate: { kinds: ['ENVIRONMENTAL_SENSOR'], activities: {} },
};
const FAMILIES = Object.keys(SEEKPOINT_FAMILIES);
export const SENSOR_KINDS: readonly DeviceKind[] = [...new Set(Object.values(SEEKPOINT_FAMILIES).flatMap((f) => f.kinds))];

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const round = (v: number | null) => (v === null ? null : Math.round(v));

type SensorEvent = Awaited<ReturnType<typeof deviceEventsInSpan>>[number];

/** The activities of one reported event (none for a door report that changed nothing, or a reading without alert). */
function activitiesOf(e: SensorEvent): Array<{ activity: Activity; alert: boolean }> {
  if (e.family === 'climate') return ((e.record.alertActivities as Activity[] | undefined) ?? []).map((activity) => ({ activity, alert: true }));
  if (e.record.stateChanged === false) return [];
  const activity = e.state ? SEEKPOINT_FAMILIES[e.family]?.activities[e.state] : undefined;
  return activity ? [{ activity, alert: false }] : [];
}

function seekpointOf(device: DeviceRecord, e: SensorEvent, activity: Activity, alert: boolean): SensorSeekPoint {
  const r = e.record;
  const tempC = num(r.temp);
  const cameras = Array.isArray(device.attributes.cameras) ? (device.attributes.cameras as string[]) : [];
  return {
    a: activity,
    ts: e.ts,
    al: alert,
    su: device.uuid,
    sn: device.name,
    lu: device.locationUuid,
    subLocationsHierarchyKey: device.locationUuid ? { locationUuids: [device.locationUuid] } : null,
    cu: cameras.map((c) => facetId(c)),
    tc: round(tempC),
    t: round(tempC === null ? null : (tempC * 9) / 5 + 32),
    h: round(num(r.humidity)),
    co2: num(r.co2),
    pm25: num(r.pm25),
    tvoc: num(r.tvoc),
    iaq: num(r.iaq),
    ethanol: num(r.ethanol),
    heatIndexDegF: num(r.heatIndexDegF),
    probeTempC: num(r.probeTempC),
    thcPercent: num(r.thcPercent),
    vapeSmokePercent: num(r.vapeSmokePercent),
  };
}

/** The sensors' seekpoints over the span, oldest first (equal times by sensor, then in the order reported). */
async function sensorSeekpoints(deps: ReadDeps, orgUuid: string, sensors: readonly DeviceRecord[], span: Span): Promise<SensorSeekPoint[]> {
  const byUuid = new Map(sensors.map((s) => [s.uuid, s]));
  const reported = await deviceEventsInSpan(deps, { orgUuid, deviceUuids: [...byUuid.keys()], families: FAMILIES, ...span, limit: SOURCE_LIMIT });
  const points = reported.flatMap((e) => activitiesOf(e).map(({ activity, alert }) => seekpointOf(byUuid.get(e.deviceUuid)!, e, activity, alert)));
  return inTimeOrder([points], (p) => p.ts);
}

const required = (value: string | null | undefined, field: string): string => {
  if (!value) throw fail('INVALID_VALUE', `${field} is required`);
  return value;
};

/** getFootageSensorSeekpointsForSensor: one sensor's seekpoints, in both of the catalogue's shapes. */
export async function getSensorSeekpoints(deps: ReadDeps, ctx: CallerContext, input: { sensorUuid?: string | null } & SpanInput) {
  const span = spanOf(input.startTimeSec, input.durationSec, SPAN_SEC);
  const sensor = await findDevice(deps, ctx.orgUuid, required(input.sensorUuid, 'sensorUuid'), SENSOR_KINDS);
  if (!sensor) throw fail('NOT_FOUND', 'Sensor');
  const seekPoints = await sensorSeekpoints(deps, ctx.orgUuid, [sensor], span);
  const footageSeekPoints: FootageSeekPoint[] = seekPoints.map((p) => ({ a: p.a, ts: p.ts, al: p.al }));
  return { seekPoints, footageSeekPoints };
}

interface SpanInput {
  startTimeSec?: number | null;
  durationSec?: number | null;
}

/** getFootageSensorSeekpointsForLocation: the seekpoints of every sensor at the location. */
export async function getLocationSensorSeekpoints(deps: ReadDeps, ctx: CallerContext, input: { locationUuid?: string | null } & SpanInput) {
  const span = spanOf(input.startTimeSec, input.durationSec, SPAN_SEC);
  const location = await findLocation(deps, ctx.orgUuid, required(input.locationUuid, 'locationUuid'));
  if (!location) throw fail('NOT_FOUND', 'Location');
  return sensorSeekpoints(deps, ctx.orgUuid, await listDevicesAt(deps, ctx.orgUuid, location.uuid, SENSOR_KINDS), span);
}

/**
 * getFootageSensorSeekpointsForCamera: the seekpoints of the sensors near the camera. Nothing associates a
 * sensor with a camera yet, so those are the sensors at the camera's location.
 */
export async function getCameraSensorSeekpoints(deps: ReadDeps, ctx: CallerContext, input: { cameraUuid?: string | null } & SpanInput) {
  const span = spanOf(input.startTimeSec, input.durationSec, SPAN_SEC);
  const uuid = deviceUuidOf(required(input.cameraUuid, 'cameraUuid'));
  const camera = uuid ? await findDevice(deps, ctx.orgUuid, uuid, ['CAMERA', 'DOORBELL_CAMERA']) : null;
  if (!camera) throw fail('NOT_FOUND', 'Camera');
  const sensors = camera.locationUuid ? await listDevicesAt(deps, ctx.orgUuid, camera.locationUuid, SENSOR_KINDS) : [];
  return sensorSeekpoints(deps, ctx.orgUuid, sensors, span);
}

/** The sensors with presence windows: the history their states are in, and the states that are activity. */
export const PRESENCE_SENSORS = {
  door: { kinds: ['DOOR_SENSOR'], what: 'Door sensor', family: 'door', active: ['OPEN', 'AJAR'] },
  occupancy: { kinds: ['OCCUPANCY_SENSOR'], what: 'Occupancy sensor', family: 'occupancy', active: ['OCCUPIED', 'MOVEMENT'] },
  climate: { kinds: ['ENVIRONMENTAL_SENSOR'], what: 'Climate sensor', family: 'climate', active: [CLIMATE_ALERT_STATE] },
} as const satisfies Record<string, { kinds: readonly DeviceKind[]; what: string; family: string; active: readonly string[] }>;

/**
 * The presence windows of a door, occupancy or climate sensor: the spans it was open, occupied or in alert
 * (each report holds until the next), merged as src/domains/timeline/windows.ts says, in one query.
 */
export async function getSensorPresenceWindows(
  deps: ReadDeps,
  ctx: CallerContext,
  sensor: keyof typeof PRESENCE_SENSORS,
  input: PresenceWindowsRequest,
): Promise<TimeWindow[]> {
  const span = spanOf(input.startTimeSec, input.durationSec, SPAN_SEC);
  const kind = PRESENCE_SENSORS[sensor];
  const device = await findDevice(deps, ctx.orgUuid, required(input.deviceUuid, 'deviceUuid'), kind.kinds);
  if (!device) throw fail('NOT_FOUND', kind.what);
  const buckets = await events.activeStateBuckets(deps.store.db, {
    deviceUuid: device.uuid,
    family: kind.family,
    activeStates: kind.active,
    ...span,
    widthMs: PRESENCE.gapMs,
  });
  return presenceWindows(buckets, span, 0);
}

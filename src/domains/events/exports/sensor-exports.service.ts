import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { CLIMATE_READINGS, GATEWAY_READINGS, sensorHistoryPage, type SensorName } from '../../devices/sensors/service.js';
import { checkExportRange, drain, EXPORT_PAGE, utcDate, utcTime, type Cell, type CsvColumn } from './csv-export.js';
import type { ExportGatewayEventsRequest, ExportProximityEventsRequest, ExportSensorEventsRequest } from './schemas.js';

/** The CSV exports of one sensor's history (through the devices domain's service), newest first. */

type ReadDeps = Pick<Deps, 'store'>;
const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());

type SensorEvent = Record<string, unknown>;
const num = (v: unknown) => (typeof v === 'number' ? v : null);

function readSensorEvents(sensor: SensorName, deps: ReadDeps, ctx: CallerContext, q: { deviceUuid: string; fromMs?: number | null; beforeMs?: number | null }) {
  checkExportRange(q.fromMs, q.beforeMs);
  return drain<SensorEvent, string>(async (key) => {
    const page = await sensorHistoryPage<SensorEvent>(deps, ctx, sensor, {
      deviceUuid: q.deviceUuid,
      createdAfterMs: q.fromMs,
      createdBeforeMs: q.beforeMs,
      limit: EXPORT_PAGE,
      lastEvaluatedKey: key,
    });
    return { records: page.events, next: page.lastEvaluatedKey };
  });
}

const timeColumns: ReadonlyArray<CsvColumn<SensorEvent>> = [
  { header: 'timestampMs', value: (e) => num(e.timestampMs) },
  { header: 'dateUtc', value: (e) => iso(num(e.timestampMs)) },
];

/** The platform's first columns, which its example scripts read by name (client-calls.md, section 3): Date and Time, UTC. */
const dateTimeColumns: ReadonlyArray<CsvColumn<SensorEvent>> = [
  { header: 'Date', value: (e) => utcDate(num(e.timestampMs)) },
  { header: 'Time', value: (e) => utcTime(num(e.timestampMs)) },
];

export const DOOR_SENSOR_COLUMNS: ReadonlyArray<CsvColumn<SensorEvent>> = [
  ...dateTimeColumns,
  { header: 'State', value: (e) => e.state as Cell },
  { header: 'stateChanged', value: (e) => e.stateChanged as Cell },
  { header: 'batteryPercentage', value: (e) => num(e.batteryPercentage) },
  { header: 'timestampMs', value: (e) => num(e.timestampMs) },
];
export const readDoorSensorEvents = (deps: ReadDeps, ctx: CallerContext, input: ExportSensorEventsRequest) =>
  readSensorEvents('door', deps, ctx, { deviceUuid: input.sensorUuid, fromMs: input.createdAfterMs, beforeMs: input.createdBeforeMs });

/** Temperature in °C and humidity in %, named as the platform names them; the other readings keep their names. */
export const CLIMATE_COLUMNS: ReadonlyArray<CsvColumn<SensorEvent>> = [
  ...dateTimeColumns,
  { header: 'Temperature', value: (e) => num(e.temp) },
  { header: 'Humidity', value: (e) => num(e.humidity) },
  { header: 'Tampered', value: (e) => (e.tampered ?? false) as Cell },
  ...CLIMATE_READINGS.filter((r) => r !== 'temp' && r !== 'humidity').map((reading) => ({ header: reading, value: (e: SensorEvent) => num(e[reading]) })),
  { header: 'batteryPercentage', value: (e) => num(e.batteryPercentage) },
  { header: 'timestampMs', value: (e) => num(e.timestampMs) },
];
export const readClimateEvents = (deps: ReadDeps, ctx: CallerContext, input: ExportSensorEventsRequest) =>
  readSensorEvents('climate', deps, ctx, { deviceUuid: input.sensorUuid, fromMs: input.createdAfterMs, beforeMs: input.createdBeforeMs });

/** A gateway event keeps its readings in groups (co2Sense, pmSense, ...): a reading's cell is found in whichever holds it. */
const gatewayReading = (e: SensorEvent, reading: string) => {
  for (const group of Object.values(e)) {
    if (group && typeof group === 'object' && !Array.isArray(group) && reading in group) return (group as Record<string, Cell>)[reading];
  }
  return null;
};
export const GATEWAY_COLUMNS: ReadonlyArray<CsvColumn<SensorEvent>> = [
  ...timeColumns,
  { header: 'uuid', value: (e) => e.uuid as Cell },
  ...[...GATEWAY_READINGS, 'vapeDetected'].map((reading) => ({ header: reading, value: (e: SensorEvent) => gatewayReading(e, reading) })),
];
export const readGatewayEvents = (deps: ReadDeps, ctx: CallerContext, input: ExportGatewayEventsRequest) =>
  readSensorEvents('gateway', deps, ctx, { deviceUuid: input.deviceUuid, fromMs: input.createdAfterMs, beforeMs: input.createdBeforeMs });

const gps = (e: SensorEvent) => (e.gpsLocation && typeof e.gpsLocation === 'object' ? (e.gpsLocation as Record<string, unknown>) : {});
export const PROXIMITY_COLUMNS: ReadonlyArray<CsvColumn<SensorEvent>> = [
  ...timeColumns,
  { header: 'status', value: (e) => e.status as Cell },
  { header: 'lat', value: (e) => num(gps(e).lat) },
  { header: 'lon', value: (e) => num(gps(e).lon) },
  { header: 'batteryPercentage', value: (e) => num(e.batteryPercentage) },
];
export const readProximityEvents = (deps: ReadDeps, ctx: CallerContext, input: ExportProximityEventsRequest) =>
  readSensorEvents('proximity', deps, ctx, {
    deviceUuid: input.tagUuid,
    fromMs: input.createdAfterMs,
    beforeMs: input.createdBeforeMs ?? input.createBeforeMs,
  });

export const LOCOMOTION_COLUMNS: ReadonlyArray<CsvColumn<SensorEvent>> = [
  ...timeColumns,
  { header: 'movement', value: (e) => e.movement as Cell },
  { header: 'lat', value: (e) => num(gps(e).lat) },
  { header: 'lon', value: (e) => num(gps(e).lon) },
];
export const readLocomotionEvents = (deps: ReadDeps, ctx: CallerContext, input: ExportProximityEventsRequest) =>
  readSensorEvents('locomotion', deps, ctx, {
    deviceUuid: input.tagUuid,
    fromMs: input.createdAfterMs,
    beforeMs: input.createdBeforeMs ?? input.createBeforeMs,
  });

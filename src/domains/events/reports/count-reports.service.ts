import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet, facetId, isRuuid } from '../../../ids.js';
import { findDevice, findLocation, listDevices, type DeviceRecord } from '../../devices/service.js';
import { boundsOf, containsPoint } from '../../devices/cameras/region-polygons.js';
import { findRegion, type CameraRegion } from '../../devices/cameras/regions.service.js';
import { isValidTimeZone } from '../../schedules/week-minutes.js';
import { fieldColumn, utcDateTimeZone, type CsvColumn } from '../exports/csv-export.js';
import { bucketIndex, cutBuckets, localIso, type BucketUnit } from './report-buckets.js';
import {
  COUNTED_TYPES,
  type CountDataPoint,
  type ExportCountReportsRequest,
  type GetCountReportsForDevicesAtLocationRequest,
  type GetCountReportV2Request,
  type ReportType,
} from './schemas.js';
import { INTERVAL_UNITS } from './service.js';
import * as store from './store.js';
import type { CrossingObject } from '../tables.js';

/**
 * Count reports (getCountReportV2, getCountReportsForDevicesAtLocation, export/countReports): PEOPLE,
 * FACES and VEHICLES count the line crossings in of humans, faces and vehicles, ALERTS the policy alerts,
 * per bucket on the wall clock of a time zone. The database adds up per device and per slot (a minute
 * for MINUTELY, a quarter hour otherwise); every time zone's offset is a whole number of quarter hours,
 * so a slot never straddles two buckets. Scope REGION counts the crossings of a region's camera whose position
 * lies in the region's polygon (regionSeries).
 */

type ReadDeps = Pick<Deps, 'store'>;
export type CountedType = (typeof COUNTED_TYPES)[number];
/** The activity of the alerts a CROWD report counts. */
const CROWD_ACTIVITY = 'PEOPLECOUNT_HIGH';

const OBJECT_OF: Record<Exclude<CountedType, 'ALERTS' | 'CROWD'>, CrossingObject> = { PEOPLE: 'HUMAN', FACES: 'FACE', VEHICLES: 'VEHICLE' };

export function countedType(type: ReportType): CountedType {
  if (!(COUNTED_TYPES as readonly string[]).includes(type))
    throw fail('INVALID_VALUE', `type ${type}: Gatehouse counts ${COUNTED_TYPES.join(', ')} from what it records`);
  return type as CountedType;
}

export interface Range {
  startTimeMs: number;
  endTimeMs: number;
  unit: BucketUnit;
  timeZone: string;
}

export function rangeOf(input: { startTimeMs: number; endTimeMs: number; interval: keyof typeof INTERVAL_UNITS }, timeZone: string): Range {
  if (input.startTimeMs > input.endTimeMs) throw fail('INVALID_VALUE', 'startTimeMs must not be after endTimeMs');
  if (!isValidTimeZone(timeZone)) throw fail('INVALID_VALUE', `timeZone: "${timeZone}" is not a known IANA time zone`);
  return { startTimeMs: input.startTimeMs, endTimeMs: input.endTimeMs, unit: INTERVAL_UNITS[input.interval], timeZone };
}

/** Per device, the count of each bucket of the range (bucket starts in `starts`). */
export interface Series {
  starts: number[];
  byDevice: Map<string, number[]>;
}

export async function countSeries(
  deps: ReadDeps,
  orgUuid: string,
  type: CountedType,
  deviceUuids: readonly string[] | null,
  range: Range,
  region: CameraRegion | null = null,
): Promise<Series> {
  if (region) return (await regionSeries(deps, orgUuid, type, [region], range)).get(region.uuid)!;
  const starts = cutBuckets(range.startTimeMs, range.endTimeMs, range.unit, range.timeZone);
  const byDevice = new Map<string, number[]>();
  if (starts.length === 0) return { starts, byDevice };
  const slotMs = range.unit === 'MINUTE' ? 60_000 : 900_000;
  const { startTimeMs: from, endTimeMs: to } = range;
  const rows =
    type === 'ALERTS' || type === 'CROWD'
      ? await store.countAlertsBySlot(deps.store.db, orgUuid, deviceUuids, from, to, slotMs, type === 'CROWD' ? CROWD_ACTIVITY : null)
      : await store.sumCrossingsBySlot(deps.store.db, orgUuid, OBJECT_OF[type], deviceUuids, from, to, slotMs);
  for (const row of rows) {
    let counts = byDevice.get(row.device_uuid);
    if (!counts) byDevice.set(row.device_uuid, (counts = starts.map(() => 0)));
    counts[bucketIndex(starts, Math.max(row.slot * slotMs, from))] += row.ingress;
  }
  return { starts, byDevice };
}

/** The types a region counts: what a camera saw at a place in its image (an alert has no place). */
function positionedObject(type: CountedType): CrossingObject {
  if (type === 'ALERTS' || type === 'CROWD')
    throw fail('INVALID_VALUE', `type ${type}: scope REGION counts PEOPLE, FACES and VEHICLES, which a camera sees at a place; an alert has none`);
  return OBJECT_OF[type];
}

/**
 * One series per region (by region uuid), each keyed by the region's camera: the crossings of that camera whose
 * position lies in the region's polygon, edges included. One query for every region; the database adds up per
 * camera, slot and position inside the regions' bounds, and each region keeps the points its polygon holds.
 */
export async function regionSeries(
  deps: ReadDeps,
  orgUuid: string,
  type: CountedType,
  regions: readonly CameraRegion[],
  range: Range,
): Promise<Map<string, Series>> {
  const object = positionedObject(type);
  const starts = cutBuckets(range.startTimeMs, range.endTimeMs, range.unit, range.timeZone);
  const answer = new Map<string, Series>(regions.map((r) => [r.uuid, { starts, byDevice: new Map() }]));
  const box = boundsOf(regions.map((r) => r.polygon));
  if (starts.length === 0 || !box) return answer;
  const slotMs = range.unit === 'MINUTE' ? 60_000 : 900_000;
  const { startTimeMs: from, endTimeMs: to } = range;
  const cameras = [...new Set(regions.map((r) => r.deviceUuid))];
  const rows = await store.sumCrossingsBySlotAndPosition(deps.store.db, orgUuid, object, cameras, from, to, slotMs, box);
  for (const region of regions) {
    const counts = starts.map(() => 0);
    for (const row of rows) {
      if (row.device_uuid === region.deviceUuid && containsPoint(region.polygon, row))
        counts[bucketIndex(starts, Math.max(row.slot * slotMs, from))] += row.ingress;
    }
    if (counts.some((n) => n > 0)) answer.get(region.uuid)!.byDevice.set(region.deviceUuid, counts);
  }
  return answer;
}

/** Data points adding up the series of several types (each over the same range). */
export function dataPoints(range: Range, series: Array<{ type: ReportType; series: Series }>): CountDataPoint[] {
  const starts = series[0]?.series.starts ?? [];
  return starts.map((start, i) => {
    const eventCountMap: Record<string, number> = {};
    const reportingDevicesMap: Record<string, string[]> = {};
    for (const { type, series: s } of series) {
      let total = 0;
      const reporting: string[] = [];
      for (const [device, counts] of s.byDevice) {
        total += counts[i];
        if (counts[i] > 0) reporting.push(facetId(device));
      }
      eventCountMap[type] = total;
      reportingDevicesMap[type] = reporting.sort();
    }
    return { dateUtc: new Date(start).toISOString(), dateLocal: localIso(start, range.timeZone), eventCountMap, reportingDevicesMap };
  });
}

/** A device of the organization named by a facet id or its plain RUUID. */
async function deviceByRef(deps: ReadDeps, orgUuid: string, ref: string): Promise<DeviceRecord> {
  const uuid = isRuuid(ref) ? ref : deviceOfFacet(ref);
  const device = uuid ? await findDevice(deps, orgUuid, uuid) : null;
  if (!device) throw fail('NOT_FOUND', `Device ${ref}`);
  return device;
}

async function locationTimeZone(deps: ReadDeps, orgUuid: string, locationUuid: string | null): Promise<string | null> {
  return locationUuid ? ((await findLocation(deps, orgUuid, locationUuid))?.tz ?? null) : null;
}

/** What a scope counts: the devices (null: the whole organization), or one region of a camera, and the time zone it defaults to. */
export interface ScopeCount {
  devices: string[] | null;
  region: CameraRegion | null;
  timeZone: string | null;
}

const SCOPE_SUBJECT: Record<string, string> = { DEVICE: 'device', LOCATION: 'location', REGION: 'region' };

/** A region of one of the organization's cameras, by uuid; the time zone is its camera's location's. */
async function scopeRegion(deps: ReadDeps, orgUuid: string, uuid: string): Promise<ScopeCount> {
  const region = await findRegion(deps, orgUuid, uuid);
  if (!region) throw fail('NOT_FOUND', `Region ${uuid}`);
  const camera = await findDevice(deps, orgUuid, region.deviceUuid);
  return { devices: [region.deviceUuid], region, timeZone: await locationTimeZone(deps, orgUuid, camera?.locationUuid ?? null) };
}

export async function scopeDevices(deps: ReadDeps, orgUuid: string, scope: string, uuid: string | null | undefined): Promise<ScopeCount> {
  if (scope === 'ORG') return { devices: null, region: null, timeZone: null };
  if (!uuid) throw fail('INVALID_VALUE', `uuid: scope ${scope} needs the ${SCOPE_SUBJECT[scope]}'s uuid`);
  if (scope === 'REGION') return scopeRegion(deps, orgUuid, uuid);
  if (scope === 'DEVICE') {
    const device = await deviceByRef(deps, orgUuid, uuid);
    return { devices: [device.uuid], region: null, timeZone: await locationTimeZone(deps, orgUuid, device.locationUuid) };
  }
  const location = await findLocation(deps, orgUuid, uuid);
  if (!location) throw fail('NOT_FOUND', 'Location');
  const devices = (await listDevices(deps, orgUuid)).filter((d) => d.locationUuid === location.uuid).map((d) => d.uuid);
  return { devices, region: null, timeZone: location.tz };
}

/** The range getCountReportV2 counts when it is given none (or only its end). */
const DEFAULT_SPAN_MS = 86_400_000;

export async function getCountReport(deps: ReadDeps & Pick<Deps, 'clock'>, ctx: CallerContext, input: GetCountReportV2Request): Promise<CountDataPoint[]> {
  const types = input.types.map(countedType);
  const { devices, region, timeZone } = await scopeDevices(deps, ctx.orgUuid, input.scope, input.uuid);
  const endTimeMs = input.endTimeMs ?? deps.clock.now();
  const range = rangeOf({ ...input, endTimeMs, startTimeMs: input.startTimeMs ?? endTimeMs - DEFAULT_SPAN_MS }, input.timeZone ?? timeZone ?? 'UTC');
  const series = [];
  for (const type of types) series.push({ type, series: await countSeries(deps, ctx.orgUuid, type, devices, range, region) });
  return dataPoints(range, series);
}

/** One series per device of the location (every device for ALERTS, its cameras for the crossing types), keyed by facet id. */
export async function getCountReportsForDevicesAtLocation(
  deps: ReadDeps,
  ctx: CallerContext,
  input: GetCountReportsForDevicesAtLocationRequest,
): Promise<Record<string, CountDataPoint[]>> {
  const type = countedType(input.type);
  const location = await findLocation(deps, ctx.orgUuid, input.locationUuid);
  if (!location) throw fail('NOT_FOUND', 'Location');
  const range = rangeOf(input, location.tz);
  const devices = (await listDevices(deps, ctx.orgUuid, type === 'ALERTS' ? [] : ['CAMERA'])).filter((d) => d.locationUuid === location.uuid);
  const all = await countSeries(
    deps,
    ctx.orgUuid,
    type,
    devices.map((d) => d.uuid),
    range,
  );
  const answer: Record<string, CountDataPoint[]> = {};
  for (const device of devices) {
    const counts = all.byDevice.get(device.uuid) ?? all.starts.map(() => 0);
    answer[facetId(device.uuid)] = dataPoints(range, [{ type, series: { starts: all.starts, byDevice: new Map([[device.uuid, counts]]) } }]);
  }
  return answer;
}

/** One row of export/countReports: a bucket of one uuid of the list. */
export interface CountReportRow {
  dateUtc: string;
  dateLocal: string;
  scope: string;
  uuid: string;
  type: string;
  count: number;
}

/** Date first, in the form the platform's example parses (`%Y-%m-%dT%H:%M:%S %Z`, UTC); then the bucket's local start. */
export const COUNT_REPORT_COLUMNS: ReadonlyArray<CsvColumn<CountReportRow>> = [
  { header: 'Date', value: (r) => utcDateTimeZone(Date.parse(r.dateUtc)) },
  ...(['dateLocal', 'scope', 'uuid', 'type', 'count'] as const).map((h) => fieldColumn<CountReportRow>(h)),
];

/** export/countReports: one row per bucket and per uuid of the list (the organization for ORG). */
export async function exportCountReports(deps: ReadDeps, ctx: CallerContext, input: ExportCountReportsRequest): Promise<CountReportRow[]> {
  const type = countedType(input.type);
  const refs = input.scope === 'ORG' ? [ctx.orgUuid] : (input.uuidList ?? []);
  if (refs.length === 0) throw fail('INVALID_VALUE', `uuidList: scope ${input.scope} needs at least one uuid`);
  const rows: CountReportRow[] = [];
  for (const ref of refs) {
    const { devices, region, timeZone } = await scopeDevices(deps, ctx.orgUuid, input.scope, input.scope === 'ORG' ? null : ref);
    const range = rangeOf(input, input.timeZone ?? timeZone ?? 'UTC');
    for (const point of dataPoints(range, [{ type, series: await countSeries(deps, ctx.orgUuid, type, devices, range, region) }])) {
      rows.push({ dateUtc: point.dateUtc!, dateLocal: point.dateLocal!, scope: input.scope, uuid: ref, type, count: point.eventCountMap![type] });
    }
  }
  return rows;
}

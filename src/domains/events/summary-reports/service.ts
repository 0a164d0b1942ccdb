import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet, facetId, isRuuid } from '../../../ids.js';
import { findDevice, findDevices, findLocation, listDevices } from '../../devices/service.js';
import {
  countedType,
  countSeries,
  dataPoints,
  rangeOf,
  regionSeries,
  scopeDevices,
  type CountedType,
  type Range,
  type Series,
} from '../reports/count-reports.service.js';
import { bucketStart, cutBuckets, localIso, nextBucket } from '../reports/report-buckets.js';
import { listOrgRegions } from '../../devices/cameras/regions.service.js';
import { INTERVAL_UNITS } from '../reports/service.js';
import type { CountDataPoint, ReportType } from '../reports/schemas.js';
import * as store from '../reports/store.js';
import { rowUuid } from '../row-uuid.js';
import type {
  GetCountReportRequest,
  GetCountReportsRequest,
  GetLicensePlatesByDeviceRequest,
  GetMostRecentPeopleCountRequest,
  GetThresholdCrossingCountsRequest,
  PeopleCountEvent,
  SummaryCountDataPoint,
} from './schemas.js';
import { CROSSING_OBJECTS, type CrossingObject } from '../tables.js';
import type { VehicleEventRecord } from '../vehicles/schemas.js';
import { getVehicleEvents } from '../vehicles/service.js';

/**
 * The report operations over the count series of count-reports.service.ts: the V1 count report, the series
 * of every member of a scope (getCountReports), their minimum, maximum and mean (getSummaryCountReport),
 * the running crossing count (getThresholdCrossingCounts) and a camera's latest counts.
 */

type ReadDeps = Pick<Deps, 'store'>;

/** The range of a request whose start and end are nullable in the catalogue, but required here. */
export function requiredRange(input: { startTimeMs?: number | null; endTimeMs?: number | null }): { startTimeMs: number; endTimeMs: number } {
  if (input.startTimeMs == null || input.endTimeMs == null) throw fail('INVALID_VALUE', 'startTimeMs and endTimeMs are required');
  if (input.startTimeMs > input.endTimeMs) throw fail('INVALID_VALUE', 'startTimeMs must not be after endTimeMs');
  return { startTimeMs: input.startTimeMs, endTimeMs: input.endTimeMs };
}

function parseDate(name: string, value: string | null | undefined): number {
  const ms = value ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms) || ms < 0) throw fail('INVALID_VALUE', `${name}: an ISO 8601 date or instant is required`);
  return ms;
}

/** getCountReport (V1): one type over a range given as ISO dates, cut in the location's time zone (or UTC). */
export async function getCountReportV1(deps: ReadDeps, ctx: CallerContext, input: GetCountReportRequest): Promise<CountDataPoint[]> {
  const type = countedType(input.type);
  const startTimeMs = parseDate('startDate', input.startDate);
  const endTimeMs = parseDate('endDate', input.endDate);
  const { devices, region, timeZone } = await scopeDevices(deps, ctx.orgUuid, input.scope, input.uuid);
  const range = rangeOf({ startTimeMs, endTimeMs, interval: input.interval }, timeZone ?? 'UTC');
  return dataPoints(range, [{ type, series: await countSeries(deps, ctx.orgUuid, type, devices, range, region) }]);
}

/** One count series per member of a scope: every device (facet id), every location, every region of a camera, or the organization. */
interface ScopeMembers {
  type: CountedType;
  range: Range;
  starts: number[];
  /** By member key: the member's uuid and its series. */
  members: Map<string, { uuid: string; series: Series }>;
}

async function scopeMembers(deps: ReadDeps, orgUuid: string, input: GetCountReportsRequest): Promise<ScopeMembers> {
  const type = countedType(input.type);
  const range = rangeOf({ ...requiredRange(input), interval: input.interval }, input.timeZone ?? 'UTC');
  if (input.scope === 'REGION') {
    // Every region of the organization's cameras, by region uuid.
    const regions = await listOrgRegions(deps, orgUuid);
    const byRegion = await regionSeries(deps, orgUuid, type, regions, range);
    const starts = cutBuckets(range.startTimeMs, range.endTimeMs, range.unit, range.timeZone);
    return { type, range, starts, members: new Map(regions.map((r) => [r.uuid, { uuid: r.uuid, series: byRegion.get(r.uuid)! }])) };
  }
  const all = await countSeries(deps, orgUuid, type, null, range);
  const zero = () => all.starts.map(() => 0);
  const members = new Map<string, { uuid: string; series: Series }>();
  const devices = await listDevices(deps, orgUuid, type === 'ALERTS' ? [] : ['CAMERA']);
  if (input.scope === 'DEVICE') {
    for (const device of devices) {
      const counts = all.byDevice.get(device.uuid);
      members.set(facetId(device.uuid), { uuid: device.uuid, series: { starts: all.starts, byDevice: new Map(counts ? [[device.uuid, counts]] : []) } });
    }
  } else if (input.scope === 'LOCATION') {
    for (const device of devices) {
      if (!device.locationUuid) continue;
      let member = members.get(device.locationUuid);
      if (!member) members.set(device.locationUuid, (member = { uuid: device.locationUuid, series: { starts: all.starts, byDevice: new Map() } }));
      member.series.byDevice.set(device.uuid, all.byDevice.get(device.uuid) ?? zero());
    }
  } else {
    members.set(orgUuid, { uuid: orgUuid, series: all });
  }
  return { type, range, starts: all.starts, members };
}

export async function getCountReports(deps: ReadDeps, ctx: CallerContext, input: GetCountReportsRequest): Promise<Record<string, CountDataPoint[]>> {
  const { type, range, members } = await scopeMembers(deps, ctx.orgUuid, input);
  const answer: Record<string, CountDataPoint[]> = {};
  for (const [key, member] of members) answer[key] = dataPoints(range, [{ type, series: member.series }]);
  return answer;
}

const total = (series: Series, i: number) => {
  let sum = 0;
  for (const counts of series.byDevice.values()) sum += counts[i];
  return sum;
};

/** Per bucket, the lowest, highest and mean count over the members of the scope (the first member wins a tie). */
export async function getSummaryCountReport(deps: ReadDeps, ctx: CallerContext, input: GetCountReportsRequest): Promise<SummaryCountDataPoint[]> {
  const { type, range, starts, members } = await scopeMembers(deps, ctx.orgUuid, input);
  const ordered = [...members.values()].sort((a, b) => (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0));
  return starts.map((start, i) => {
    let min: { count: number; uuid: string | null } = { count: 0, uuid: null };
    let max: { count: number; uuid: string | null } = { count: 0, uuid: null };
    let sum = 0;
    const reporting: string[] = [];
    for (const [k, member] of ordered.entries()) {
      const count = total(member.series, i);
      sum += count;
      if (k === 0 || count < min.count) min = { count, uuid: member.uuid };
      if (k === 0 || count > max.count) max = { count, uuid: member.uuid };
      for (const [device, counts] of member.series.byDevice) if (counts[i] > 0) reporting.push(facetId(device));
    }
    const avg = { count: ordered.length > 0 ? sum / ordered.length : 0, uuid: null };
    return {
      dateUtc: new Date(start).toISOString(),
      dateLocal: localIso(start, range.timeZone),
      avgEventCountMap: { [type]: avg },
      maxEventCountMap: { [type]: max },
      minEventCountMap: { [type]: min },
      reportingDevicesMap: { [type as ReportType]: [...new Set(reporting)].sort() },
    };
  });
}

const DAY_MS = 86_400_000;

/**
 * getThresholdCrossingCounts: the running count of the cameras' crossings (in minus out, never below zero),
 * one point per recorded crossing in the range. It starts from zero at the daily reset minute (UTC), so
 * the crossings since the last reset before the range set the count the range starts with.
 */
export async function getThresholdCrossingCounts(
  deps: ReadDeps,
  ctx: CallerContext,
  input: GetThresholdCrossingCountsRequest,
): Promise<Array<{ timestampMs: number; count: number }>> {
  const { startTimeMs, endTimeMs } = requiredRange(input);
  const object = input.crossingObject ?? 'HUMAN';
  let cameras: string[] | null = null;
  if (input.devices && input.devices.length > 0) {
    const found = await findDevices(deps, ctx.orgUuid, input.devices, ['CAMERA']);
    for (const uuid of input.devices) if (!found.has(uuid)) throw fail('NOT_FOUND', `Camera ${uuid}`);
    cameras = [...new Set(input.devices)];
  }
  if (!(CROSSING_OBJECTS as readonly string[]).includes(object) || startTimeMs === endTimeMs) return [];
  const resetOffset = (input.dailyResetTimeMinute ?? 0) * 60_000;
  const resetAtOrBefore = (ms: number) => Math.floor((ms - resetOffset) / DAY_MS) * DAY_MS + resetOffset;
  const rows = await store.listCrossings(deps.store.db, ctx.orgUuid, object as CrossingObject, cameras, resetAtOrBefore(startTimeMs), endTimeMs);
  const counts: Array<{ timestampMs: number; count: number }> = [];
  let count = 0;
  let resetAt = -Infinity;
  for (const row of rows) {
    const at = Number(row.timestamp_ms);
    const lastReset = resetAtOrBefore(at);
    if (lastReset > resetAt) {
      resetAt = lastReset;
      count = 0;
    }
    count = Math.max(0, count + row.ingress - row.egress);
    if (at >= startTimeMs) counts.push({ timestampMs: at, count });
  }
  return counts;
}

/** A camera's latest people counts (its HUMAN crossings), newest first. */
export async function getMostRecentPeopleCountEvents(deps: ReadDeps, ctx: CallerContext, input: GetMostRecentPeopleCountRequest): Promise<PeopleCountEvent[]> {
  const uuid = isRuuid(input.deviceUuid) ? input.deviceUuid : deviceOfFacet(input.deviceUuid);
  const camera = uuid ? await findDevice(deps, ctx.orgUuid, uuid, ['CAMERA']) : null;
  if (!camera) throw fail('NOT_FOUND', `Camera ${input.deviceUuid}`);
  const rows = await store.latestCrossings(deps.store.db, ctx.orgUuid, camera.uuid, 'HUMAN', input.numMostRecent ?? 10);
  return rows.map((row) => ({
    uuid: rowUuid('crossing', row.id),
    orgUuid: ctx.orgUuid,
    deviceUuid: facetId(camera.uuid),
    locationUuid: camera.locationUuid,
    eventTimestamp: row.timestamp_ms,
    peopleCount: row.ingress + row.egress,
  }));
}

/** The most plate reads getLicensePlatesByDevice answers (a busier interval: a shorter one). */
export const PLATES_BY_DEVICE_MAX = 1000;

/** getLicensePlatesByDevice: a camera's plate reads, newest first, in the interval (local to its location) that holds timestampMs. */
export async function getLicensePlatesByDevice(deps: ReadDeps, ctx: CallerContext, input: GetLicensePlatesByDeviceRequest): Promise<VehicleEventRecord[]> {
  if (input.timestampMs == null) throw fail('INVALID_VALUE', 'timestampMs is required');
  const uuid = isRuuid(input.deviceUuid) ? input.deviceUuid : deviceOfFacet(input.deviceUuid);
  const camera = uuid ? await findDevice(deps, ctx.orgUuid, uuid, ['CAMERA']) : null;
  if (!camera) throw fail('NOT_FOUND', `Camera ${input.deviceUuid}`);
  const timeZone = (camera.locationUuid ? (await findLocation(deps, ctx.orgUuid, camera.locationUuid))?.tz : null) ?? 'UTC';
  const unit = INTERVAL_UNITS[input.interval];
  const startTimeMs = bucketStart(input.timestampMs, unit, timeZone);
  return getVehicleEvents(deps, ctx, {
    deviceUuidFilter: [camera.uuid],
    startTimeMs,
    endTimeMs: nextBucket(startTimeMs, unit, timeZone),
    maxResults: PLATES_BY_DEVICE_MAX,
  });
}

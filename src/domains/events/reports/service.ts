import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet, facetId, isRuuid } from '../../../ids.js';
import { write, type Actor } from '../../../bus/write.js';
import { findDevice, findDevices, findLocation } from '../../devices/service.js';
import { isValidTimeZone } from '../../schedules/week-minutes.js';
import { bucketIndex, bucketStart, cutBuckets, localIso, type BucketUnit } from './report-buckets.js';
import type {
  GetThresholdCrossingCountReportRequest,
  GetBatchThresholdCrossingCountReportRequest,
  GetOccupancyCountsV2Request,
  GetThresholdCrossingCountReportForOrgRequest,
  TimeSeriesDataPoint,
} from './schemas.js';
import * as store from './store.js';
import { CROSSING_OBJECTS, type CrossingObject } from '../tables.js';

/** The stream's entity name of a line-crossing count. */
export const CROSSING_ENTITY = 'THRESHOLD_CROSSING';

export interface CrossingInput {
  cameraUuid: string;
  object: CrossingObject;
  ingress: number;
  egress: number;
  timestampMs?: number;
  /** Where in the image the camera saw it (shares of the width and height, from the top left); default the centre. */
  position?: { x: number; y: number };
}

export interface CrossingRecord {
  uuid: string;
  deviceUuid: string;
  crossingObject: CrossingObject;
  timestampMs: number;
  ingressCount: number;
  egressCount: number;
  position: { x: number; y: number };
}

/** Where a crossing is put when its camera gave no position: the centre of the image. */
export const CENTRE = { x: 0.5, y: 0.5 } as const;

/** Records the ingress and egress a camera counted at its line: what the reports add up. */
export async function recordCrossing(deps: Pick<Deps, 'store' | 'bus' | 'clock'>, actor: Actor, input: CrossingInput): Promise<CrossingRecord> {
  return write(deps, actor, async (w) => {
    const camera = await findDevice(w, actor.orgUuid, input.cameraUuid, ['CAMERA']);
    if (!camera) throw fail('NOT_FOUND', 'Camera');
    const timestampMs = input.timestampMs ?? w.nowMs;
    const position = { x: input.position?.x ?? CENTRE.x, y: input.position?.y ?? CENTRE.y };
    if (!(position.x >= 0 && position.x <= 1 && position.y >= 0 && position.y <= 1)) throw fail('INVALID_REQUEST', 'x and y: shares of the image, 0..1');
    const id = await store.insertCrossing(w.tx, {
      org_uuid: actor.orgUuid,
      device_uuid: camera.uuid,
      object: input.object,
      timestamp_ms: timestampMs,
      ingress: input.ingress,
      egress: input.egress,
      position_x: position.x,
      position_y: position.y,
    });
    const record = {
      uuid: String(id),
      deviceUuid: camera.uuid,
      crossingObject: input.object,
      timestampMs,
      ingressCount: input.ingress,
      egressCount: input.egress,
      position,
    };
    w.change({ entity: CROSSING_ENTITY, entityUuid: record.uuid, type: 'CREATE', deviceUuid: camera.uuid, update: record, timestampMs });
    return record;
  });
}

function checkRange(startMs: number, endMs: number): void {
  if (startMs > endMs) throw fail('INVALID_VALUE', 'startTimeMs must not be after endTimeMs');
}

function timeZoneOf(input: { timeZone?: string | null }): string {
  const timeZone = input.timeZone ?? 'UTC';
  if (!isValidTimeZone(timeZone)) throw fail('INVALID_VALUE', `timeZone: "${timeZone}" is not a known IANA time zone`);
  return timeZone;
}

/** A camera of the organization named by a facet id (`<uuid>.v0`) or its plain RUUID. */
async function findCamera(deps: Pick<Deps, 'store'>, orgUuid: string, ref: string) {
  const uuid = isRuuid(ref) ? ref : deviceOfFacet(ref);
  const camera = uuid ? await findDevice(deps, orgUuid, uuid, ['CAMERA']) : null;
  if (!camera) throw fail('NOT_FOUND', `Camera ${ref}`);
  return camera;
}

export interface CrossingCount {
  timestampMs: number;
  ingressCount: number;
  egressCount: number;
}

type CrossingReportInput = GetThresholdCrossingCountReportForOrgRequest;

/**
 * Ingress and egress per bucket over [startTimeMs, endTimeMs), every bucket present (zero when nothing
 * crossed). With `dedupe`, a camera's repeated report of one timestamp counts once (a device retrying).
 */
async function crossingCounts(
  deps: Pick<Deps, 'store'>,
  orgUuid: string,
  input: CrossingReportInput,
  cameras: readonly string[] | null,
): Promise<CrossingCount[]> {
  checkRange(input.startTimeMs, input.endTimeMs);
  const timeZone = timeZoneOf(input);
  const starts = cutBuckets(input.startTimeMs, input.endTimeMs, input.bucketSize ?? 'HOUR', timeZone);
  const counts = starts.map((timestampMs) => ({ timestampMs, ingressCount: 0, egressCount: 0 }));
  if (starts.length === 0) return counts;
  const object = input.crossingObject ?? 'HUMAN';
  // A catalogue object that Gatehouse's cameras never count (LPR, POSE, ...) has no crossings: empty buckets.
  if (!(CROSSING_OBJECTS as readonly string[]).includes(object)) return counts;
  if (!input.dedupe) {
    // The database adds up per camera and quarter hour (every zone's offset is whole quarter hours, so a
    // slot lies in one bucket): the report reads one row per camera and slot, not one per crossing.
    for (const slot of await store.sumCrossingsBySlot(deps.store.db, orgUuid, object as CrossingObject, cameras, input.startTimeMs, input.endTimeMs, SLOT_MS)) {
      const bucket = counts[bucketIndex(starts, Math.max(slot.slot * SLOT_MS, input.startTimeMs))];
      bucket.ingressCount += slot.ingress;
      bucket.egressCount += slot.egress;
    }
    return counts;
  }
  const rows = await store.listCrossings(deps.store.db, orgUuid, object as CrossingObject, cameras, input.startTimeMs, input.endTimeMs);
  const seen = new Set<string>();
  for (const row of rows) {
    const key = `${row.device_uuid}:${row.timestamp_ms}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const bucket = counts[bucketIndex(starts, row.timestamp_ms)];
    bucket.ingressCount += row.ingress;
    bucket.egressCount += row.egress;
  }
  return counts;
}

const SLOT_MS = 900_000;

/** getThresholdCrossingCountReport: one camera's ingress and egress per bucket. */
export async function getDeviceCrossingCounts(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  input: GetThresholdCrossingCountReportRequest,
): Promise<CrossingCount[]> {
  const camera = await findCamera(deps, ctx.orgUuid, input.deviceUuid);
  return crossingCounts(deps, ctx.orgUuid, input, [camera.uuid]);
}

export async function getBatchCrossingCounts(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  input: GetBatchThresholdCrossingCountReportRequest,
): Promise<CrossingCount[]> {
  // Every camera named, by uuid or facet id, in one query; the first unknown (or another organization's) is refused.
  const uuids = input.deviceUuids.map((ref) => (isRuuid(ref) ? ref : deviceOfFacet(ref)));
  const found = await findDevices(
    deps,
    ctx.orgUuid,
    uuids.filter((uuid): uuid is string => !!uuid),
    ['CAMERA'],
  );
  const cameras = new Set<string>();
  for (const [i, ref] of input.deviceUuids.entries()) {
    const camera = uuids[i] ? found.get(uuids[i]) : undefined;
    if (!camera) throw fail('NOT_FOUND', `Camera ${ref}`);
    cameras.add(camera.uuid);
  }
  return crossingCounts(deps, ctx.orgUuid, input, [...cameras]);
}

export async function getOrgCrossingCounts(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  input: GetThresholdCrossingCountReportForOrgRequest,
): Promise<CrossingCount[]> {
  return crossingCounts(deps, ctx.orgUuid, input, null);
}

export const INTERVAL_UNITS: Record<NonNullable<GetOccupancyCountsV2Request['interval']>, BucketUnit> = {
  MINUTELY: 'MINUTE',
  QUARTERHOURLY: 'QUARTER_HOUR',
  HOURLY: 'HOUR',
  DAILY: 'DAY',
  WEEKLY: 'WEEK',
  MONTHLY: 'MONTH',
};

/**
 * Occupancy of a camera's area from its HUMAN crossings: people in minus people out, never below zero,
 * starting from zero at each local midnight (so no query reaches further back than the range's first day).
 * Each interval reports its highest occupancy, when it was reached, and its ingress and egress.
 * The crossings before the range on its first local day only set the occupancy the range starts with.
 */
export async function getOccupancyCounts(deps: Pick<Deps, 'store'>, ctx: CallerContext, input: GetOccupancyCountsV2Request): Promise<TimeSeriesDataPoint[]> {
  checkRange(input.startTimeMs, input.endTimeMs);
  const camera = await findCamera(deps, ctx.orgUuid, input.deviceUuid);
  const location = camera.locationUuid ? await findLocation(deps, ctx.orgUuid, camera.locationUuid) : null;
  const timeZone = location?.tz ?? 'UTC';
  const { startTimeMs: start, endTimeMs: end } = input;
  const starts = input.interval ? cutBuckets(start, end, INTERVAL_UNITS[input.interval], timeZone) : start < end ? [start] : [];
  if (starts.length === 0) return [];
  const firstMidnight = bucketStart(start, 'DAY', timeZone);
  const midnights = cutBuckets(firstMidnight, end, 'DAY', timeZone);
  const events = await store.listCrossings(deps.store.db, ctx.orgUuid, 'HUMAN', [camera.uuid], firstMidnight, end);

  let occupancy = 0;
  let e = 0;
  let m = 0;
  /**
   * Applies, in time order, the crossings before `until` and the midnights up to it (a midnight goes before
   * a crossing at the same instant, so an interval starting at midnight starts from zero).
   */
  const advance = (until: number, onCrossing: (at: number, ingress: number, egress: number) => void) => {
    for (;;) {
      const nextMidnight = m < midnights.length ? midnights[m] : Infinity;
      const nextEvent = e < events.length ? events[e].timestamp_ms : Infinity;
      if (nextMidnight <= until && nextMidnight <= nextEvent) {
        occupancy = 0;
        m++;
      } else if (nextEvent < until) {
        const { ingress, egress, timestamp_ms } = events[e++];
        occupancy = Math.max(0, occupancy + ingress - egress);
        onCrossing(timestamp_ms, ingress, egress);
      } else {
        return;
      }
    }
  };

  const facet = facetId(camera.uuid);
  return starts.map((bucket, i) => {
    // The first interval may start before the range (on its local boundary): it counts from the range's start.
    const from = Math.max(bucket, start);
    advance(from, () => {});
    let peak = occupancy;
    let peakAt = from;
    let ingressCount = 0;
    let egressCount = 0;
    advance(i + 1 < starts.length ? starts[i + 1] : end, (at, ingress, egress) => {
      ingressCount += ingress;
      egressCount += egress;
      if (occupancy > peak) {
        peak = occupancy;
        peakAt = at;
      }
    });
    return {
      timestampMs: bucket,
      dateUtc: new Date(bucket).toISOString(),
      dateLocal: localIso(bucket, timeZone),
      eventCountMap: { OCCUPANCY: peak, INGRESS: ingressCount, EGRESS: egressCount },
      approximateTimestampMsMap: { OCCUPANCY: peakAt },
      reportingDevicesMap: { OCCUPANCY: [facet] },
    };
  });
}

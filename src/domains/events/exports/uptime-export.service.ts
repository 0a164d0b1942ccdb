import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet, isRuuid } from '../../../ids.js';
import { getUptimeWindows } from '../../devices/cameras/camera-details.service.js';
import { findDevices, listDevices } from '../../devices/service.js';
import { csvOf, type CsvColumn } from './csv-export.js';
import type { ExportUptimeRequest } from './schemas.js';
import { MAX_BUCKETS } from '../reports/report-buckets.js';
import { storedZip } from './zip.js';

/**
 * export/uptime: per camera and per UTC interval of the granularity, how long it was online (from its
 * connection history, as getCameraUptime's windows), as `uptime.csv` inside a ZIP archive.
 */

const GRANULARITY_MS: Record<string, number> = { MINUTES: 60_000, HOURS: 3_600_000, DAYS: 86_400_000 };

export interface UptimeRow {
  deviceUuid: string;
  bucketStartMs: number;
  bucketSeconds: number;
  uptimeSeconds: number;
}

export const UPTIME_COLUMNS: ReadonlyArray<CsvColumn<UptimeRow>> = [
  { header: 'deviceUuid', value: (r) => r.deviceUuid },
  { header: 'bucketStartUtc', value: (r) => new Date(r.bucketStartMs).toISOString() },
  { header: 'bucketStartMs', value: (r) => r.bucketStartMs },
  { header: 'bucketSeconds', value: (r) => r.bucketSeconds },
  { header: 'uptimeSeconds', value: (r) => r.uptimeSeconds },
  { header: 'uptimePercent', value: (r) => (r.bucketSeconds > 0 ? Math.round((r.uptimeSeconds / r.bucketSeconds) * 10_000) / 100 : 0) },
];

function instant(name: string, value: string | null | undefined): number {
  const ms = value ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms) || ms < 0) throw fail('INVALID_VALUE', `${name}: an ISO 8601 instant is required`);
  return ms;
}

export async function uptimeRows(deps: Pick<Deps, 'store' | 'clock'>, ctx: CallerContext, input: ExportUptimeRequest): Promise<UptimeRow[]> {
  const startMs = instant('startDateTime', input.startDateTime);
  const endMs = instant('endDateTime', input.endDateTime);
  if (startMs > endMs) throw fail('INVALID_VALUE', 'startDateTime must not be after endDateTime');
  const granularity = input.granularity ?? 'HOURS';
  const stepMs = GRANULARITY_MS[granularity];
  if (!stepMs) throw fail('INVALID_VALUE', `granularity ${granularity}: Gatehouse exports uptime by MINUTES, HOURS or DAYS`);
  const first = Math.floor(startMs / stepMs) * stepMs;
  if ((endMs - first) / stepMs > MAX_BUCKETS) throw fail('INVALID_VALUE', `the range holds more than ${MAX_BUCKETS} intervals: use a larger granularity`);

  const refs = [...(input.deviceUuids ?? []), ...(input.cameraUuids ?? [])];
  let cameras: string[];
  if (refs.length === 0) cameras = (await listDevices(deps, ctx.orgUuid, ['CAMERA'])).map((c) => c.uuid);
  else {
    const uuids = refs.map((ref) => (isRuuid(ref) ? ref : deviceOfFacet(ref)));
    const found = await findDevices(
      deps,
      ctx.orgUuid,
      uuids.filter((u): u is string => !!u),
      ['CAMERA'],
    );
    refs.forEach((ref, i) => {
      if (!uuids[i] || !found.has(uuids[i])) throw fail('NOT_FOUND', `Camera ${ref}`);
    });
    cameras = [...new Set(uuids as string[])];
  }
  const rows: UptimeRow[] = [];
  if (startMs === endMs) return rows;
  for (const camera of cameras) {
    const startSec = Math.floor(startMs / 1000);
    const endSec = Math.max(startSec + 1, Math.ceil(endMs / 1000));
    const windows = await getUptimeWindows(deps, ctx, { cameraUuid: camera, startTime: startSec, endTime: endSec });
    for (let bucket = first; bucket < endMs; bucket += stepMs) {
      const from = Math.max(bucket, startMs);
      const to = Math.min(bucket + stepMs, endMs);
      let online = 0;
      for (const w of windows) {
        const wFrom = w.startSeconds * 1000;
        const wTo = wFrom + w.durationSeconds * 1000;
        online += Math.max(0, Math.min(to, wTo) - Math.max(from, wFrom));
      }
      rows.push({ deviceUuid: camera, bucketStartMs: bucket, bucketSeconds: Math.round((to - from) / 1000), uptimeSeconds: Math.round(online / 1000) });
    }
  }
  return rows;
}

/** The archive export/uptime answers: one file, uptime.csv. */
export async function uptimeZip(deps: Pick<Deps, 'store' | 'clock'>, ctx: CallerContext, input: ExportUptimeRequest): Promise<Buffer> {
  const csv = csvOf(UPTIME_COLUMNS, await uptimeRows(deps, ctx, input));
  return storedZip([{ name: 'uptime.csv', data: Buffer.from(csv, 'utf8') }], new Date(deps.clock.now()));
}

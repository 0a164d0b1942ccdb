import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { facetId } from '../../../ids.js';
import { devicesNamed, findDevice, findLocation } from '../../devices/service.js';
import { isValidTimeZone } from '../../schedules/week-minutes.js';
import type { GetCustomEventsCountsRequest, GetCustomEventsReportRequest } from './custom-event-reports.schemas.js';
import { toCustomEvent } from './service.js';
import { bucketIndex, cutBuckets, localIso } from '../reports/report-buckets.js';
import { INTERVAL_UNITS } from '../reports/service.js';
import type { PromptType, SceneQueryReportEventRecord } from '../scene-queries/schemas.js';
import { findPrompt, listPrompts } from '../scene-queries/service.js';
import * as store from '../scene-queries/store.js';
import type { CustomEventsTable } from '../tables.js';

type ReadDeps = Pick<Deps, 'store'>;

/** The most answers the raw report lists, and the most the counts add up, in one call. */
export const CUSTOM_REPORT_MAX = { events: 10_000, aggregated: 100_000 } as const;

function checkRange(input: { startTimeMs: number; endTimeMs: number }): void {
  if (input.startTimeMs > input.endTimeMs) throw fail('INVALID_VALUE', 'startTimeMs must not be after endTimeMs');
}

async function readEvents(deps: ReadDeps, orgUuid: string, filter: Omit<store.CustomEventFilter, 'limit'>, max: number): Promise<CustomEventsTable[]> {
  const rows = await store.listCustomEvents(deps.store.db, orgUuid, { ...filter, limit: max + 1 });
  if (rows.length > max) throw fail('INVALID_VALUE', `the range holds more than ${max} answers: narrow it`);
  return rows;
}

/**
 * getCustomEventsReport: the recorded answers in [startTimeMs, endTimeMs), oldest first, one series per camera and
 * prompt (by facet id, then prompt uuid), of the prompt, cameras and location given. With extendedResponse each
 * answer also carries its check-condition result, the prompt as asked and its uuid.
 */
export async function getCustomEventsReport(deps: ReadDeps, ctx: CallerContext, input: GetCustomEventsReportRequest) {
  checkRange(input);
  const rows = await readEvents(
    deps,
    ctx.orgUuid,
    {
      promptUuid: input.promptUuid ?? null,
      deviceUuids: await devicesNamed(deps, ctx.orgUuid, input.deviceFacetUuids),
      locationUuid: input.locationUuid ?? null,
      fromMs: input.startTimeMs,
      beforeMs: input.endTimeMs,
    },
    CUSTOM_REPORT_MAX.events,
  );
  const types = new Map((await listPrompts(deps, ctx)).map((p) => [p.uuid, p.promptType]));
  const series = new Map<string, { deviceFacetUuid: string; promptUuid: string; promptType: PromptType; events: SceneQueryReportEventRecord[] }>();
  for (const row of rows) {
    const type = types.get(row.prompt_uuid)!;
    const key = `${facetId(row.device_uuid)} ${row.prompt_uuid}`;
    let s = series.get(key);
    if (!s) series.set(key, (s = { deviceFacetUuid: facetId(row.device_uuid), promptUuid: row.prompt_uuid, promptType: type, events: [] }));
    const e = toCustomEvent(row, type);
    s.events.push(
      input.extendedResponse
        ? e
        : { timestampMs: e.timestampMs, value: e.value, checkCondition: null, prompt: null, image: null, imageOffsets: null, uuid: null },
    );
  }
  return [...series.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, s]) => s);
}

interface Bucket {
  timestampMs: number;
  utcDate: string;
  localDate: string;
  rows: CustomEventsTable[];
}

/** Each camera's answers of the prompt, cut into buckets on the wall clock of its zone (the one given, else its location's, else UTC). */
async function bucketsByCamera(deps: ReadDeps, ctx: CallerContext, input: GetCustomEventsCountsRequest, wanted: PromptType[], what: string) {
  checkRange(input);
  if (input.timeZone && !isValidTimeZone(input.timeZone)) throw fail('INVALID_VALUE', `timeZone: "${input.timeZone}" is not a known IANA time zone`);
  const prompt = await findPrompt(deps, ctx.orgUuid, input.promptUuid);
  if (!prompt) throw fail('NOT_FOUND', 'Prompt configuration');
  if (!wanted.includes(prompt.promptType)) throw fail('INVALID_VALUE', `${what} counts ${wanted.join(' and ')} prompts; this prompt is ${prompt.promptType}`);
  const rows = await readEvents(
    deps,
    ctx.orgUuid,
    { promptUuid: prompt.uuid, deviceUuids: null, locationUuid: null, fromMs: input.startTimeMs, beforeMs: input.endTimeMs },
    CUSTOM_REPORT_MAX.aggregated,
  );
  const byDevice = new Map<string, CustomEventsTable[]>();
  for (const row of rows) {
    const own = byDevice.get(row.device_uuid);
    if (own) own.push(row);
    else byDevice.set(row.device_uuid, [row]);
  }
  const zones = new Map<string | null, string>();
  const answer: Record<string, Bucket[]> = {};
  for (const [deviceUuid, own] of [...byDevice].sort(([a], [b]) => a.localeCompare(b))) {
    let zone = input.timeZone ?? null;
    if (!zone) {
      const locationUuid = (await findDevice(deps, ctx.orgUuid, deviceUuid))?.locationUuid ?? null;
      if (!zones.has(locationUuid)) zones.set(locationUuid, (locationUuid && (await findLocation(deps, ctx.orgUuid, locationUuid))?.tz) || 'UTC');
      zone = zones.get(locationUuid)!;
    }
    const starts = input.interval ? cutBuckets(input.startTimeMs, input.endTimeMs, INTERVAL_UNITS[input.interval], zone) : [input.startTimeMs];
    const buckets: Bucket[] = starts.map((start) => ({
      timestampMs: start,
      utcDate: new Date(start).toISOString(),
      localDate: localIso(start, zone),
      rows: [],
    }));
    for (const row of own) buckets[input.interval ? bucketIndex(starts, Number(row.timestamp_ms)) : 0]?.rows.push(row);
    answer[facetId(deviceUuid)] = buckets;
  }
  return answer;
}

/** When the lowest and the highest answer of a bucket were first given (rows oldest first). */
function extremes(rows: CustomEventsTable[]) {
  let min: CustomEventsTable | null = null;
  let max: CustomEventsTable | null = null;
  for (const r of rows) {
    if (!min || r.numeric_value! < min.numeric_value!) min = r;
    if (!max || r.numeric_value! > max.numeric_value!) max = r;
  }
  return { min, max, minValueTimestampMs: min ? Number(min.timestamp_ms) : null, maxValueTimestampMs: max ? Number(max.timestamp_ms) : null };
}

const mapBuckets = <T>(byCamera: Record<string, Bucket[]>, f: (b: Bucket) => T) =>
  Object.fromEntries(Object.entries(byCamera).map(([camera, buckets]) => [camera, buckets.map(f)]));
const head = ({ timestampMs, utcDate, localDate, rows }: Bucket) => ({ timestampMs, utcDate, localDate, eventCount: rows.length });

/** getCustomEventsBinaryCounts: per camera and bucket, how many answers of a BOOLEAN prompt were true and false. */
export async function getCustomEventsBinaryCounts(deps: ReadDeps, ctx: CallerContext, input: GetCustomEventsCountsRequest) {
  return mapBuckets(await bucketsByCamera(deps, ctx, input, ['BOOLEAN'], 'getCustomEventsBinaryCounts'), (b) => {
    const { minValueTimestampMs, maxValueTimestampMs } = extremes(b.rows);
    const yes = b.rows.filter((r) => r.numeric_value === 1).length;
    return { ...head(b), true: yes, false: b.rows.length - yes, minValueTimestampMs, maxValueTimestampMs };
  });
}

/** getCustomEventsNumericCounts: per camera and bucket, the count, sum, lowest, highest and mean answer of a COUNT or PERCENT prompt. */
export async function getCustomEventsNumericCounts(deps: ReadDeps, ctx: CallerContext, input: GetCustomEventsCountsRequest) {
  return mapBuckets(await bucketsByCamera(deps, ctx, input, ['COUNT', 'PERCENT'], 'getCustomEventsNumericCounts'), (b) => {
    const { min, max, minValueTimestampMs, maxValueTimestampMs } = extremes(b.rows);
    const sum = b.rows.reduce((n, r) => n + r.numeric_value!, 0);
    return {
      ...head(b),
      sum,
      min: min?.numeric_value ?? null,
      max: max?.numeric_value ?? null,
      average: b.rows.length ? sum / b.rows.length : null,
      minValueTimestampMs,
      maxValueTimestampMs,
    };
  });
}

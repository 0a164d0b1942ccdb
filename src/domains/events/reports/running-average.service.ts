import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { write } from '../../../bus/write.js';
import { countSeries, rangeOf, scopeDevices } from './count-reports.service.js';
import { localIso } from './report-buckets.js';
import * as store from './store.js';
import type { GetRunningAverageRequest, ResetRunningAverageRequest, StatsDataPoint } from '../summary-reports/schemas.js';
import { requiredRange } from '../summary-reports/service.js';

/**
 * The running average of the people a scope counts in per interval: each interval of the range reports
 * the mean and standard deviation of its count and those of the intervals before it, back to the last
 * reset (resetRunningAverage) or the range's start. Intervals before the reset are left out.
 */

/** The stream's entity name of a running average's reset. */
export const RUNNING_AVERAGE_ENTITY = 'RUNNING_AVERAGE';

export interface RunningAverageReset {
  scope: string;
  uuid: string;
  resetAtMs: number;
}

const targetOf = (ctx: CallerContext, input: { scope: string; uuid?: string | null }) => (input.scope === 'ORG' ? ctx.orgUuid : input.uuid!);

export async function getRunningAverage(deps: Pick<Deps, 'store'>, ctx: CallerContext, input: GetRunningAverageRequest): Promise<StatsDataPoint[]> {
  const requested = requiredRange(input);
  const { devices, region, timeZone } = await scopeDevices(deps, ctx.orgUuid, input.scope, input.uuid);
  const resetAt = await store.findRunningAverageReset(deps.store.db, ctx.orgUuid, input.scope, targetOf(ctx, input));
  const startTimeMs = Math.min(Math.max(requested.startTimeMs, resetAt ?? 0), requested.endTimeMs);
  const range = rangeOf({ startTimeMs, endTimeMs: requested.endTimeMs, interval: input.interval }, input.timeZone ?? timeZone ?? 'UTC');
  const series = await countSeries(deps, ctx.orgUuid, 'PEOPLE', devices, range, region);
  let n = 0;
  let sum = 0;
  let sumSquares = 0;
  return series.starts.map((start, i) => {
    let count = 0;
    for (const counts of series.byDevice.values()) count += counts[i];
    n++;
    sum += count;
    sumSquares += count * count;
    const avg = sum / n;
    const stddev = Math.sqrt(Math.max(0, sumSquares / n - avg * avg));
    return { date: localIso(start, range.timeZone), stats: { PEOPLE: { avg, stddev } } };
  });
}

/** Starts a scope's running average again from now: the intervals before are no longer averaged. */
export async function resetRunningAverage(deps: Pick<Deps, 'store' | 'bus' | 'clock'>, ctx: CallerContext, input: ResetRunningAverageRequest): Promise<void> {
  await scopeDevices(deps, ctx.orgUuid, input.scope, input.uuid);
  await write(deps, ctx, async (w) => {
    const record: RunningAverageReset = { scope: input.scope, uuid: targetOf(ctx, input), resetAtMs: w.nowMs };
    await store.saveRunningAverageReset(w.tx, { org_uuid: ctx.orgUuid, scope: record.scope, target_uuid: record.uuid, reset_at_ms: record.resetAtMs });
    w.change({ entity: RUNNING_AVERAGE_ENTITY, entityUuid: record.uuid, type: 'UPDATE', update: record });
  });
}

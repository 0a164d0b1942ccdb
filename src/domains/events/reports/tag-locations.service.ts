import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { sensorHistoryPage } from '../../devices/sensors/service.js';
import { findDevice, findLocation } from '../../devices/service.js';
import { drain, EXPORT_PAGE } from '../exports/csv-export.js';
import { localIso } from './report-buckets.js';
import type { GetProximityTagLocationsByDateRequest, ProximityTagDataPoint } from '../summary-reports/schemas.js';
import { requiredRange } from '../summary-reports/service.js';

/**
 * getProximityTagLocationsByDate: per local day of the range (oldest first), each location a proximity tag
 * reported from, from its recorded proximity events. Days are cut in the time zone of the tag's location.
 */
export async function getProximityTagLocationsByDate(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  input: GetProximityTagLocationsByDateRequest,
): Promise<ProximityTagDataPoint[]> {
  const { startTimeMs, endTimeMs } = requiredRange(input);
  const tag = await findDevice(deps, ctx.orgUuid, input.tagUuid, ['BLE_TRACKER']);
  if (!tag) throw fail('NOT_FOUND', 'Proximity tag');
  const timeZone = (tag.locationUuid ? (await findLocation(deps, ctx.orgUuid, tag.locationUuid))?.tz : null) ?? 'UTC';
  if (startTimeMs === endTimeMs) return [];
  const events = await drain<Record<string, unknown>, string>(async (key) => {
    const page = await sensorHistoryPage<Record<string, unknown>>(deps, ctx, 'proximity', {
      deviceUuid: tag.uuid,
      createdAfterMs: startTimeMs,
      createdBeforeMs: endTimeMs,
      limit: EXPORT_PAGE,
      lastEvaluatedKey: key,
    });
    return { records: page.events, next: page.lastEvaluatedKey };
  });
  const seen = new Set<string>();
  const points: ProximityTagDataPoint[] = [];
  for (const event of events.reverse()) {
    const at = event.timestampMs;
    const location = event.locationUuid;
    if (typeof at !== 'number' || typeof location !== 'string') continue;
    const dateLocal = localIso(at, timeZone).slice(0, 10);
    if (seen.has(`${dateLocal}/${location}`)) continue;
    seen.add(`${dateLocal}/${location}`);
    points.push({ dateLocal, tagUuid: tag.uuid, uuid: location });
  }
  return points;
}

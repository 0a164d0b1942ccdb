import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { fromDbBool } from '../../store/columns.js';
import { devicesNamed } from '../devices/service.js';
import { ACCESS_EVENT_PAGE, type IntegrationAccessEventRecord, type SearchIntegrationAccessEventsRequest } from './access-events.schemas.js';
import * as store from './store.js';

type ReadDeps = Pick<Deps, 'store'>;

const LABELS: Record<string, string> = { BADGE_AUTHORIZED: 'Badge Authorized', BADGE_UNAUTHORIZED: 'Badge Unauthorized' };

/**
 * searchIntegrationAccessEvents (eventSearchV2, the platform's newer public spec): the badge integration's events,
 * one per camera that saw each (as the platform's seekpoints), newest first, every filter applied in the query
 * over the index (badge_event_cameras): cameras, locations, time (both ends inclusive), the cardholder's name and
 * the area entered (parts, any case), badge status and type (any case), anomalies, entry made, activities.
 * `limit` per page (default 200, at most 1000); the last event's timestampMs and uuid are the next page's cursor.
 */
export async function searchIntegrationAccessEvents(
  deps: ReadDeps,
  ctx: CallerContext,
  input: SearchIntegrationAccessEventsRequest,
): Promise<IntegrationAccessEventRecord[]> {
  if (input.afterMs != null && input.beforeMs != null && input.afterMs > input.beforeMs) throw fail('INVALID_VALUE', 'afterMs must not be after beforeMs');
  if ((input.lastTimestampMs != null) !== (input.lastUuid != null))
    throw fail('INVALID_VALUE', 'lastTimestampMs and lastUuid form the pagination cursor: give both (the last event of the previous page) or neither');
  const cameraUuids = await devicesNamed(deps, ctx.orgUuid, input.deviceUuids);
  const rows = await store.searchBadgeEvents(deps.store.db, ctx.orgUuid, {
    cameraUuids,
    locationUuids: input.locationUuids?.length ? input.locationUuids : null,
    cardholder: input.cardholderQuery?.trim() || null,
    badgeStatus: input.badgeStatus?.trim() || null,
    badgeType: input.badgeType?.trim() || null,
    area: input.area?.trim() || null,
    anomalyOnly: input.anomalyOnly ?? false,
    entryMade: input.entryMade ?? null,
    activities: input.activityTypes ?? null,
    fromMs: input.afterMs ?? null,
    toMs: input.beforeMs ?? null,
    after: input.lastTimestampMs != null ? { timestampMs: input.lastTimestampMs, uuid: input.lastUuid! } : null,
    limit: input.limit ?? ACCESS_EVENT_PAGE.default,
  });
  return rows.map((r) => ({
    uuid: r.row_uuid,
    orgUuid: r.org_uuid,
    locationUuid: r.location_uuid,
    deviceUuid: r.camera_uuid,
    timestampMs: Number(r.timestamp_ms),
    objectType: r.activity as IntegrationAccessEventRecord['objectType'],
    customDisplayName: `${LABELS[r.activity] ?? r.activity} at ${r.door_name ?? r.door_key}`,
    customDescription: r.holder_name,
    cardholderName: r.holder_name,
    badgeStatus: r.badge_status,
    badgeType: r.badge_type,
    areaEntering: r.area_entering,
    areaExiting: r.area_exiting,
    entryMade: fromDbBool(r.entry_made),
    alert: fromDbBool(r.anomaly),
    badgeEventUuid: r.uuid,
    eventType: r.event_type,
    doorName: r.door_name,
  }));
}

import { sql, type Kysely } from 'kysely';
import { lowerContains } from '../../store/like.js';
import type { DB } from '../../store/schema.js';
import { preparedQuery } from '../../store/prepared-query.js';
import type { BadgeEventCamerasTable, BadgeEventsTable, IntegrationKind, IntegrationsTable, SeekPointsTable } from './tables.js';

type Db = Kysely<DB>;

const integrationOfKind = preparedQuery(2, (db, orgUuid: string, kind: IntegrationKind) =>
  db.selectFrom('integrations').selectAll().where('org_uuid', '=', orgUuid).where('kind', '=', kind),
);

/** A point read: every policy alert looks for its organization's chat integration. */
export async function findIntegration(db: Db, orgUuid: string, kind: IntegrationKind): Promise<IntegrationsTable | undefined> {
  return (await integrationOfKind(db, orgUuid, kind))[0];
}

export async function listIntegrations(db: Db, orgUuid: string): Promise<IntegrationsTable[]> {
  return db.selectFrom('integrations').selectAll().where('org_uuid', '=', orgUuid).orderBy('kind').execute();
}

/** The integration that owns an inbound webhook id, whatever its organization (the id is unique across them). */
export async function findIntegrationByWebhook(db: Db, webhookUuid: string): Promise<IntegrationsTable | undefined> {
  return db.selectFrom('integrations').selectAll().where('webhook_uuid', '=', webhookUuid).executeTakeFirst();
}

/** Inserts the organization's integration of the row's kind, or replaces the one it has (keeping its uuid). */
export async function upsertIntegration(db: Db, row: IntegrationsTable): Promise<void> {
  await db
    .insertInto('integrations')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['org_uuid', 'kind']).doUpdateSet({
        enabled: row.enabled,
        settings: row.settings,
        secrets: row.secrets,
        audit_map: row.audit_map,
        webhook_uuid: row.webhook_uuid,
        api_key_id: row.api_key_id,
        updated_at_ms: row.updated_at_ms,
      }),
    )
    .execute();
}

export async function deleteIntegration(db: Db, orgUuid: string, kind: IntegrationKind): Promise<boolean> {
  const result = await db.deleteFrom('integrations').where('org_uuid', '=', orgUuid).where('kind', '=', kind).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertBadgeEvent(db: Db, row: BadgeEventsTable): Promise<void> {
  await db.insertInto('badge_events').values(row).execute();
}

export async function findBadgeEvent(db: Db, orgUuid: string, uuid: string): Promise<BadgeEventsTable | undefined> {
  return db.selectFrom('badge_events').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

/** Remembers an accepted signature; false when it was seen before (a replay). */
export async function rememberSignature(db: Db, signature: string, orgUuid: string, nowMs: number): Promise<boolean> {
  const result = await db
    .insertInto('badge_webhook_signatures')
    .values({ signature, org_uuid: orgUuid, seen_at_ms: nowMs })
    .onConflict((oc) => oc.column('signature').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Forgets signatures older than the replay window: a post that old is refused by its timestamp anyway. */
export async function forgetSignaturesBefore(db: Db, cutoffMs: number): Promise<void> {
  await db.deleteFrom('badge_webhook_signatures').where('seen_at_ms', '<', cutoffMs).execute();
}

export async function insertSeekPoints(db: Db, rows: SeekPointsTable[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('seek_points').values(rows).execute();
}

export async function listSeekPointsOfSource(db: Db, orgUuid: string, sourceUuid: string): Promise<SeekPointsTable[]> {
  return db.selectFrom('seek_points').selectAll().where('org_uuid', '=', orgUuid).where('source_uuid', '=', sourceUuid).orderBy('camera_uuid').execute();
}

export async function insertBadgeEventCameras(db: Db, rows: BadgeEventCamerasTable[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('badge_event_cameras').values(rows).execute();
}

export interface AccessEventFilter {
  cameraUuids: readonly string[] | null;
  locationUuids: readonly string[] | null;
  cardholder: string | null;
  badgeStatus: string | null;
  badgeType: string | null;
  area: string | null;
  anomalyOnly: boolean;
  entryMade: boolean | null;
  activities: readonly string[] | null;
  /** Both inclusive. */
  fromMs: number | null;
  toMs: number | null;
  after: { timestampMs: number; uuid: string } | null;
  limit: number;
}

/**
 * Badge events of the organization as the access-event search answers them (one per camera that saw the event),
 * newest first by (time, row uuid), strictly after the cursor: the index gives the organization's, a camera's or
 * a location's rows by time; the event's own fields filter them.
 */
export async function searchBadgeEvents(db: Db, orgUuid: string, f: AccessEventFilter) {
  if (f.activities !== null && f.activities.length === 0) return [];
  return db
    .selectFrom('badge_event_cameras as c')
    .innerJoin('badge_events as e', 'e.uuid', 'c.event_uuid')
    .selectAll('e')
    .select(['c.uuid as row_uuid', 'c.camera_uuid'])
    .where('c.org_uuid', '=', orgUuid)
    .$if(f.cameraUuids !== null, (q) => q.where('c.camera_uuid', 'in', f.cameraUuids!))
    .$if(f.locationUuids !== null, (q) => q.where('c.location_uuid', 'in', f.locationUuids!))
    .$if(f.fromMs !== null, (q) => q.where('c.timestamp_ms', '>=', f.fromMs!))
    .$if(f.toMs !== null, (q) => q.where('c.timestamp_ms', '<=', f.toMs!))
    .$if(f.after !== null, (q) => q.where((eb) => eb(eb.refTuple('c.timestamp_ms', 'c.uuid'), '<', eb.tuple(f.after!.timestampMs, f.after!.uuid))))
    .$if(f.cardholder !== null, (q) => q.where(lowerContains('e.holder_name', f.cardholder!)))
    .$if(f.area !== null, (q) => q.where(lowerContains('e.area_entering', f.area!)))
    .$if(f.badgeStatus !== null, (q) => q.where(sql<boolean>`lower(e.badge_status) = ${f.badgeStatus!.toLowerCase()}`))
    .$if(f.badgeType !== null, (q) => q.where(sql<boolean>`lower(e.badge_type) = ${f.badgeType!.toLowerCase()}`))
    .$if(f.anomalyOnly, (q) => q.where('e.anomaly', '=', 1))
    .$if(f.entryMade !== null, (q) => q.where('e.entry_made', '=', f.entryMade ? 1 : 0))
    .$if(f.activities !== null, (q) => q.where('e.activity', 'in', f.activities!))
    .orderBy('c.timestamp_ms', 'desc')
    .orderBy('c.uuid', 'desc')
    .limit(f.limit)
    .execute();
}

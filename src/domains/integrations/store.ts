import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { BadgeEventsTable, IntegrationKind, IntegrationsTable, SeekPointsTable } from './tables.js';

type Db = Kysely<DB>;

export async function findIntegration(db: Db, orgUuid: string, kind: IntegrationKind): Promise<IntegrationsTable | undefined> {
  return db.selectFrom('integrations').selectAll().where('org_uuid', '=', orgUuid).where('kind', '=', kind).executeTakeFirst();
}

export async function listIntegrations(db: Db, orgUuid: string): Promise<IntegrationsTable[]> {
  return db.selectFrom('integrations').selectAll().where('org_uuid', '=', orgUuid).orderBy('kind').execute();
}

/** The badge integration that owns an inbound webhook id, whatever its organization. */
export async function findIntegrationByWebhook(db: Db, webhookUuid: string): Promise<IntegrationsTable | undefined> {
  return db.selectFrom('integrations').selectAll().where('webhook_uuid', '=', webhookUuid).where('kind', '=', 'BADGE').executeTakeFirst();
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

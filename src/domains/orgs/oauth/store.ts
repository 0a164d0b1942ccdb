import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { ApiKeysTable } from '../tables.js';
import type { OAuthApplicationsTable, OAuthCodesTable, OAuthTokensTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertApplication(db: Db, row: OAuthApplicationsTable): Promise<void> {
  await db.insertInto('oauth_applications').values(row).execute();
}

/** An application by its client id, whatever its organization: the token endpoint knows no organization. */
export async function findApplication(db: Db, clientId: string): Promise<OAuthApplicationsTable | undefined> {
  return db.selectFrom('oauth_applications').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

export async function findOrgApplication(db: Db, orgUuid: string, clientId: string): Promise<OAuthApplicationsTable | undefined> {
  return db.selectFrom('oauth_applications').selectAll().where('org_uuid', '=', orgUuid).where('client_id', '=', clientId).executeTakeFirst();
}

export async function listOrgApplications(db: Db, orgUuid: string): Promise<OAuthApplicationsTable[]> {
  return db.selectFrom('oauth_applications').selectAll().where('org_uuid', '=', orgUuid).orderBy('name').orderBy('client_id').execute();
}

export async function updateApplication(
  db: Db,
  clientId: string,
  patch: Partial<Pick<OAuthApplicationsTable, 'name' | 'contact_email' | 'redirect_uri' | 'updated_at_ms'>>,
): Promise<void> {
  await db.updateTable('oauth_applications').set(patch).where('client_id', '=', clientId).execute();
}

/** Deletes an application with its codes and tokens (explicitly: SQLite's foreign keys may be off). */
export async function deleteApplication(db: Db, clientId: string): Promise<void> {
  await db.deleteFrom('oauth_codes').where('client_id', '=', clientId).execute();
  await db.deleteFrom('oauth_tokens').where('client_id', '=', clientId).execute();
  await db.deleteFrom('oauth_applications').where('client_id', '=', clientId).execute();
}

export async function insertCode(db: Db, row: OAuthCodesTable): Promise<void> {
  await db.insertInto('oauth_codes').values(row).execute();
}

/** Takes a code: answers it and deletes it, so that it works once (a failed attempt burns it too). */
export async function takeCode(db: Db, digest: string): Promise<OAuthCodesTable | undefined> {
  const code = await db.selectFrom('oauth_codes').selectAll().where('digest', '=', digest).executeTakeFirst();
  if (code) await db.deleteFrom('oauth_codes').where('digest', '=', digest).execute();
  return code;
}

export async function deleteExpiredCodes(db: Db, nowMs: number): Promise<void> {
  await db.deleteFrom('oauth_codes').where('expires_at_ms', '<=', nowMs).execute();
}

export async function insertToken(db: Db, row: OAuthTokensTable): Promise<void> {
  await db.insertInto('oauth_tokens').values(row).execute();
}

export async function findTokenByRefresh(db: Db, refreshDigest: string): Promise<OAuthTokensTable | undefined> {
  return db.selectFrom('oauth_tokens').selectAll().where('refresh_digest', '=', refreshDigest).executeTakeFirst();
}

export async function revokeToken(db: Db, id: string, nowMs: number): Promise<boolean> {
  const r = await db.updateTable('oauth_tokens').set({ revoked_at_ms: nowMs }).where('id', '=', id).where('revoked_at_ms', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** An access token with the API key it acts as: one read per call of an OAuth scheme. */
export async function findAccessToken(db: Db, accessDigest: string): Promise<{ token: OAuthTokensTable; key: ApiKeysTable } | undefined> {
  const row = await db
    .selectFrom('oauth_tokens as t')
    .innerJoin('api_keys as k', 'k.id', 't.api_key_id')
    .selectAll('k')
    .select([
      't.id as t_id',
      't.client_id',
      't.scope',
      't.access_expires_at_ms',
      't.refresh_expires_at_ms',
      't.revoked_at_ms as t_revoked_at_ms',
      't.refresh_digest',
    ])
    .where('t.access_digest', '=', accessDigest)
    .executeTakeFirst();
  if (!row) return undefined;
  const { t_id, client_id, scope, access_expires_at_ms, refresh_expires_at_ms, t_revoked_at_ms, refresh_digest, ...key } = row;
  return {
    token: {
      id: t_id,
      client_id,
      api_key_id: key.id,
      access_digest: accessDigest,
      refresh_digest,
      scope,
      access_expires_at_ms: Number(access_expires_at_ms),
      refresh_expires_at_ms: Number(refresh_expires_at_ms),
      revoked_at_ms: t_revoked_at_ms === null ? null : Number(t_revoked_at_ms),
    },
    key: {
      ...key,
      created_at_ms: Number(key.created_at_ms),
      revoked_at_ms: key.revoked_at_ms === null ? null : Number(key.revoked_at_ms),
      expires_at_ms: key.expires_at_ms === null ? null : Number(key.expires_at_ms),
    },
  };
}

/** A key by id, whatever its organization: a refresh names its token's key, not an organization. */
export async function findKeyById(db: Db, id: string): Promise<ApiKeysTable | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
}

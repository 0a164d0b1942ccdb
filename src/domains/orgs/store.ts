import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import { insertInChunks } from '../../store/chunks.js';
import type { Tx } from '../../store/reader.js';
import { preparedQuery } from '../../store/prepared-query.js';
import type { ApiKeysTable, OrgsTable, UsersTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertOrg(db: Db, org: OrgsTable): Promise<void> {
  await db.insertInto('orgs').values(org).execute();
}

// Every request reads its organization and (past the key cache) its key: prepared once, not rebuilt per call.
const orgByUuid = preparedQuery(1, (db, uuid: string) => db.selectFrom('orgs').selectAll().where('uuid', '=', uuid));
const apiKeyByDigest = preparedQuery(1, (db, digest: string) => db.selectFrom('api_keys').selectAll().where('digest', '=', digest));

export async function findOrg(db: Db, uuid: string): Promise<OrgsTable | undefined> {
  return (await orgByUuid(db, uuid))[0];
}

export async function findOrgByTeamName(db: Db, teamName: string): Promise<OrgsTable | undefined> {
  return db.selectFrom('orgs').selectAll().where('team_name', '=', teamName).executeTakeFirst();
}

export async function updateOrg(db: Db, uuid: string, patch: Partial<Pick<OrgsTable, 'name' | 'team_name' | 'scim_token_sealed'>>): Promise<void> {
  await db.updateTable('orgs').set(patch).where('uuid', '=', uuid).execute();
}

export async function countOrgs(db: Db): Promise<number> {
  const row = await db
    .selectFrom('orgs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertUser(db: Db, user: UsersTable): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function insertUsers(tx: Tx, rows: readonly UsersTable[]): Promise<void> {
  await insertInChunks(tx, 'users', rows);
}

export async function findUser(db: Db, orgUuid: string, uuid: string): Promise<UsersTable | undefined> {
  return db.selectFrom('users').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

/** The organization's users among the uuids, in one query (the others' and unknown ones are absent). */
export async function findUsers(db: Db, orgUuid: string, uuids: readonly string[]): Promise<UsersTable[]> {
  if (uuids.length === 0) return [];
  return db.selectFrom('users').selectAll().where('org_uuid', '=', orgUuid).where('uuid', 'in', uuids).execute();
}

export async function findFirstUser(db: Db, orgUuid: string): Promise<UsersTable | undefined> {
  return db.selectFrom('users').selectAll().where('org_uuid', '=', orgUuid).orderBy('created_at_ms').orderBy('uuid').limit(1).executeTakeFirst();
}

export async function insertApiKey(db: Db, key: ApiKeysTable): Promise<void> {
  await db.insertInto('api_keys').values(key).execute();
}

export async function findApiKey(db: Db, orgUuid: string, id: string): Promise<ApiKeysTable | undefined> {
  return db.selectFrom('api_keys').selectAll().where('org_uuid', '=', orgUuid).where('id', '=', id).executeTakeFirst();
}

export async function listApiKeys(db: Db, orgUuid: string): Promise<ApiKeysTable[]> {
  return db.selectFrom('api_keys').selectAll().where('org_uuid', '=', orgUuid).orderBy('created_at_ms').orderBy('id').execute();
}

/** Marks a key revoked; answers false when it was revoked already. */
export async function revokeApiKey(db: Db, id: string, nowMs: number): Promise<boolean> {
  const result = await db.updateTable('api_keys').set({ revoked_at_ms: nowMs }).where('id', '=', id).where('revoked_at_ms', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The revocation and expiry of the keys with these ids that still exist. */
export async function apiKeyLifetimes(db: Db, ids: string[]): Promise<Array<Pick<ApiKeysTable, 'id' | 'revoked_at_ms' | 'expires_at_ms'>>> {
  if (ids.length === 0) return [];
  return db.selectFrom('api_keys').select(['id', 'revoked_at_ms', 'expires_at_ms']).where('id', 'in', ids).execute();
}

/** Keys are looked up by the digest of the presented key, never compared as plain text. */
export async function findApiKeyByDigest(db: Db, digest: string): Promise<ApiKeysTable | undefined> {
  return (await apiKeyByDigest(db, digest))[0];
}

export async function insertPartnerGrant(db: Db, partnerOrgUuid: string, clientOrgUuid: string, nowMs: number): Promise<boolean> {
  const result = await db
    .insertInto('partner_grants')
    .values({ partner_org_uuid: partnerOrgUuid, client_org_uuid: clientOrgUuid, created_at_ms: nowMs })
    .onConflict((oc) => oc.columns(['partner_org_uuid', 'client_org_uuid']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function hasPartnerGrant(db: Db, partnerOrgUuid: string, clientOrgUuid: string): Promise<boolean> {
  const row = await db
    .selectFrom('partner_grants')
    .select('client_org_uuid')
    .where('partner_org_uuid', '=', partnerOrgUuid)
    .where('client_org_uuid', '=', clientOrgUuid)
    .executeTakeFirst();
  return row !== undefined;
}

/** The client organizations a partner has grants for, oldest grant first; grants of the same millisecond by name. */
export async function listPartnerClients(
  db: Db,
  partnerOrgUuid: string,
): Promise<Array<{ uuid: string; name: string; created_at_ms: number; granted_at_ms: number }>> {
  const rows = await db
    .selectFrom('partner_grants')
    .innerJoin('orgs', 'orgs.uuid', 'partner_grants.client_org_uuid')
    .select(['orgs.uuid', 'orgs.name', 'orgs.created_at_ms', 'partner_grants.created_at_ms as granted_at_ms'])
    .where('partner_grants.partner_org_uuid', '=', partnerOrgUuid)
    .orderBy('partner_grants.created_at_ms')
    .orderBy('orgs.name')
    .orderBy('orgs.uuid')
    .execute();
  return rows.map((r) => ({ ...r, created_at_ms: Number(r.created_at_ms), granted_at_ms: Number(r.granted_at_ms) }));
}

/** Whether the organization has a grant for any client (it acts as a partner). */
const partnerGrantOf = preparedQuery(1, (db, orgUuid: string) =>
  db.selectFrom('partner_grants').select('client_org_uuid').where('partner_org_uuid', '=', orgUuid).limit(1),
);

/** Whether the organization is a partner (has a grant to a client): a point read, as getOrgV2 makes one per call. */
export async function isPartnerOrg(db: Db, orgUuid: string): Promise<boolean> {
  return (await partnerGrantOf(db, orgUuid)).length > 0;
}

/** Withdraws a partner's grant; false when there was none. */
export async function deletePartnerGrant(db: Db, partnerOrgUuid: string, clientOrgUuid: string): Promise<boolean> {
  const result = await db
    .deleteFrom('partner_grants')
    .where('partner_org_uuid', '=', partnerOrgUuid)
    .where('client_org_uuid', '=', clientOrgUuid)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

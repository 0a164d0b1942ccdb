import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { CredentialsTable, WorkflowStatus } from '../tables.js';

type Db = Kysely<DB>;

export async function insertCredential(db: Db, row: CredentialsTable): Promise<void> {
  await db.insertInto('access_credentials').values(row).execute();
}

export async function findCredential(db: Db, orgUuid: string, uuid: string): Promise<CredentialsTable | undefined> {
  return db.selectFrom('access_credentials').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

/** The credential that claims a value in the organization (at most one: revoked ones claim nothing). */
export async function findClaimingCredential(db: Db, orgUuid: string, key: string): Promise<CredentialsTable | undefined> {
  return db.selectFrom('access_credentials').selectAll().where('org_uuid', '=', orgUuid).where('claimed_key', '=', key).executeTakeFirst();
}

/** The most recently changed credential with a value, claiming or not (a revoked card is still recognised). */
export async function findLatestByLookupKey(db: Db, orgUuid: string, key: string): Promise<CredentialsTable | undefined> {
  return db
    .selectFrom('access_credentials')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('lookup_key', '=', key)
    .orderBy('updated_at_ms', 'desc')
    .orderBy('uuid')
    .limit(1)
    .executeTakeFirst();
}

export interface CredentialFilter {
  userUuid?: string;
  /** Several users' credentials (any of them). */
  userUuids?: readonly string[];
  types?: readonly string[];
  statuses?: readonly WorkflowStatus[];
  lastUsedDoorUuids?: readonly string[];
  lastUsedLocationUuids?: readonly string[];
  lastUsedAfterMs?: number;
  lastUsedBeforeMs?: number;
}

/** An organization's credentials (or one user's), oldest first, narrowed by the filter; empty lists mean "any". */
export async function listCredentials(db: Db, orgUuid: string, filter: CredentialFilter): Promise<CredentialsTable[]> {
  let query = db.selectFrom('access_credentials').selectAll().where('org_uuid', '=', orgUuid);
  if (filter.userUuid !== undefined) query = query.where('user_uuid', '=', filter.userUuid);
  // No users: a uuid no credential holds, so that the answer is empty.
  if (filter.userUuids !== undefined) query = query.where('user_uuid', 'in', filter.userUuids.length ? filter.userUuids : ['']);
  if (filter.types?.length) query = query.where('type', 'in', filter.types);
  if (filter.statuses?.length) query = query.where('workflow_status', 'in', filter.statuses);
  if (filter.lastUsedDoorUuids?.length) query = query.where('last_used_door_uuid', 'in', filter.lastUsedDoorUuids);
  if (filter.lastUsedLocationUuids?.length) query = query.where('last_used_location_uuid', 'in', filter.lastUsedLocationUuids);
  if (filter.lastUsedAfterMs !== undefined) query = query.where('last_used_at_ms', '>', filter.lastUsedAfterMs);
  if (filter.lastUsedBeforeMs !== undefined) query = query.where('last_used_at_ms', '<', filter.lastUsedBeforeMs);
  return query.orderBy('created_at_ms').orderBy('uuid').execute();
}

export type CredentialPatch = Partial<
  Pick<
    CredentialsTable,
    | 'workflow_status'
    | 'claimed_key'
    | 'last_used_at_ms'
    | 'last_used_door_uuid'
    | 'last_used_location_uuid'
    | 'user_uuid'
    | 'note'
    | 'start_epoch_sec'
    | 'end_epoch_sec'
  >
> & { updated_at_ms: number };

export async function updateCredential(db: Db, orgUuid: string, uuid: string, patch: CredentialPatch): Promise<void> {
  await db.updateTable('access_credentials').set(patch).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function deleteCredential(db: Db, orgUuid: string, uuid: string): Promise<void> {
  await db.deleteFrom('access_credentials').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

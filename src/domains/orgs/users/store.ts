import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import { preparedQuery } from '../../../store/prepared-query.js';
import type { ApiKeysTable, UsersTable } from '../tables.js';

type Db = Kysely<DB>;

const usersOfOrg = preparedQuery(1, (db, orgUuid: string) =>
  db.selectFrom('users').selectAll().where('org_uuid', '=', orgUuid).orderBy('name').orderBy('uuid'),
);

/** A point read: every policy alert's notifications go through the organization's users. */
export function listUsers(db: Db, orgUuid: string): Promise<UsersTable[]> {
  return usersOfOrg(db, orgUuid);
}

export async function findUserByEmail(db: Db, orgUuid: string, email: string): Promise<UsersTable | undefined> {
  return db.selectFrom('users').selectAll().where('org_uuid', '=', orgUuid).where('email', '=', email).executeTakeFirst();
}

/** A user's group, by user uuid alone: the rights of a key's user (a key and its user share an organization). */
export async function groupOfUser(db: Db, uuid: string): Promise<{ org_uuid: string; permission_group_uuid: string | null } | undefined> {
  const row = await db.selectFrom('users').select(['org_uuid', 'permission_group_uuid']).where('uuid', '=', uuid).executeTakeFirst();
  return row && { org_uuid: row.org_uuid, permission_group_uuid: row.permission_group_uuid ?? null };
}

export type UserPatch = Partial<Pick<UsersTable, 'name' | 'email' | 'email_case_sensitive' | 'permission_group_uuid' | 'partner_group_uuid'>> & {
  updated_at_ms: number;
};

export async function updateUser(db: Db, orgUuid: string, uuid: string, patch: UserPatch): Promise<void> {
  await db.updateTable('users').set(patch).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function deleteUser(db: Db, orgUuid: string, uuid: string): Promise<void> {
  await db.deleteFrom('users').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function countUsersInGroup(db: Db, orgUuid: string, groupUuid: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('org_uuid', '=', orgUuid)
    .where('permission_group_uuid', '=', groupUuid)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Users with no group (full administrators) or in one of the given groups: of the customer groups
 * (`permission_group_uuid`) or of the partner groups (`partner_group_uuid`).
 */
export async function countAdmins(
  db: Db,
  orgUuid: string,
  adminGroupUuids: readonly string[],
  column: 'permission_group_uuid' | 'partner_group_uuid' = 'permission_group_uuid',
): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('org_uuid', '=', orgUuid)
    .where((eb) => (adminGroupUuids.length > 0 ? eb.or([eb(column, 'is', null), eb(column, 'in', adminGroupUuids)]) : eb(column, 'is', null)))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countUsersInPartnerGroup(db: Db, orgUuid: string, groupUuid: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('org_uuid', '=', orgUuid)
    .where('partner_group_uuid', '=', groupUuid)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A user's partner group, by user uuid alone: the partner rights of a partner key's user. */
export async function partnerGroupOfUser(db: Db, uuid: string): Promise<{ org_uuid: string; partner_group_uuid: string | null } | undefined> {
  const row = await db.selectFrom('users').select(['org_uuid', 'partner_group_uuid']).where('uuid', '=', uuid).executeTakeFirst();
  return row && { org_uuid: row.org_uuid, partner_group_uuid: row.partner_group_uuid ?? null };
}

/** The keys of a user that still work or may (not revoked). */
export async function liveKeysOfUser(db: Db, orgUuid: string, userUuid: string): Promise<ApiKeysTable[]> {
  return db.selectFrom('api_keys').selectAll().where('org_uuid', '=', orgUuid).where('user_uuid', '=', userUuid).where('revoked_at_ms', 'is', null).execute();
}

export async function revokeKeysOfUser(db: Db, orgUuid: string, userUuid: string, nowMs: number): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ revoked_at_ms: nowMs })
    .where('org_uuid', '=', orgUuid)
    .where('user_uuid', '=', userUuid)
    .where('revoked_at_ms', 'is', null)
    .execute();
}

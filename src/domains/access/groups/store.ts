import { sql, type Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { AccessGroupMembersTable, AccessGroupsTable } from '../grants/tables.js';

type Db = Kysely<DB>;

export async function insertGroup(db: Db, row: AccessGroupsTable): Promise<void> {
  await db.insertInto('access_groups').values(row).execute();
}

export async function findGroup(db: Db, orgUuid: string, uuid: string): Promise<AccessGroupsTable | undefined> {
  return db.selectFrom('access_groups').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

/** The organization's groups among the uuids (unknown and foreign ones are left out). */
export async function findGroups(db: Db, orgUuid: string, uuids: readonly string[]): Promise<AccessGroupsTable[]> {
  if (uuids.length === 0) return [];
  return db.selectFrom('access_groups').selectAll().where('org_uuid', '=', orgUuid).where('uuid', 'in', uuids).execute();
}

export async function findGroupByNameKey(db: Db, orgUuid: string, nameKey: string): Promise<AccessGroupsTable | undefined> {
  return db.selectFrom('access_groups').selectAll().where('org_uuid', '=', orgUuid).where('name_key', '=', nameKey).executeTakeFirst();
}

/** Escapes LIKE's wildcards so that a prefix matches literally. */
const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface GroupFilter {
  /** Lower-case name prefix. */
  namePrefix?: string;
  memberUuid?: string;
}

/** The organization's groups by name, narrowed by the filter. */
export async function listGroups(db: Db, orgUuid: string, filter: GroupFilter = {}): Promise<AccessGroupsTable[]> {
  let query = db.selectFrom('access_groups').selectAll('access_groups').where('access_groups.org_uuid', '=', orgUuid);
  if (filter.namePrefix !== undefined) query = query.where(sql<boolean>`name_key like ${likePrefix(filter.namePrefix)} escape '\\'`);
  if (filter.memberUuid !== undefined) {
    const member = filter.memberUuid;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('access_group_members')
          .select('access_group_members.user_uuid')
          .whereRef('access_group_members.group_uuid', '=', 'access_groups.uuid')
          .where('access_group_members.user_uuid', '=', member),
      ),
    );
  }
  return query.orderBy('name_key').orderBy('uuid').execute();
}

/** The organization's groups of a location. */
export async function listGroupsAt(db: Db, orgUuid: string, locationUuid: string): Promise<AccessGroupsTable[]> {
  return db.selectFrom('access_groups').selectAll().where('org_uuid', '=', orgUuid).where('location_uuid', '=', locationUuid).orderBy('uuid').execute();
}

export type GroupPatch = Partial<Pick<AccessGroupsTable, 'name' | 'name_key' | 'description' | 'location_uuid'>> & { updated_at_ms: number };

export async function updateGroup(db: Db, orgUuid: string, uuid: string, patch: GroupPatch): Promise<void> {
  await db.updateTable('access_groups').set(patch).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function deleteGroup(db: Db, orgUuid: string, uuid: string): Promise<void> {
  await db.deleteFrom('access_group_members').where('org_uuid', '=', orgUuid).where('group_uuid', '=', uuid).execute();
  await db.deleteFrom('access_groups').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

/** A group's members, or a user's memberships (`of` names which), oldest first. */
export async function listMemberships(db: Db, orgUuid: string, of: { groupUuid: string } | { userUuid: string }): Promise<AccessGroupMembersTable[]> {
  const [column, value, then] = 'groupUuid' in of ? (['group_uuid', of.groupUuid, 'user_uuid'] as const) : (['user_uuid', of.userUuid, 'group_uuid'] as const);
  return db
    .selectFrom('access_group_members')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where(column, '=', value)
    .orderBy('created_at_ms')
    .orderBy(then)
    .execute();
}

/** Every membership of the organization: what the badge decision's view of the organization is built from. */
export async function listOrgMemberships(db: Db, orgUuid: string): Promise<Array<Pick<AccessGroupMembersTable, 'group_uuid' | 'user_uuid'>>> {
  return db.selectFrom('access_group_members').select(['group_uuid', 'user_uuid']).where('org_uuid', '=', orgUuid).execute();
}

export async function insertMembers(db: Db, rows: readonly AccessGroupMembersTable[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('access_group_members')
    .values([...rows])
    .execute();
}

export async function deleteMembers(db: Db, orgUuid: string, groupUuid: string, userUuids: readonly string[]): Promise<void> {
  if (userUuids.length === 0) return;
  await db.deleteFrom('access_group_members').where('org_uuid', '=', orgUuid).where('group_uuid', '=', groupUuid).where('user_uuid', 'in', userUuids).execute();
}

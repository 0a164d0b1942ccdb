import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { PermissionGroupsTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertGroup(db: Db, row: PermissionGroupsTable): Promise<void> {
  await db.insertInto('permission_groups').values(row).execute();
}

export async function findGroup(db: Db, orgUuid: string, uuid: string): Promise<PermissionGroupsTable | undefined> {
  return db.selectFrom('permission_groups').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

export async function findGroupByName(db: Db, orgUuid: string, name: string): Promise<PermissionGroupsTable | undefined> {
  return db.selectFrom('permission_groups').selectAll().where('org_uuid', '=', orgUuid).where('name', '=', name).executeTakeFirst();
}

export async function listGroups(db: Db, orgUuid: string): Promise<PermissionGroupsTable[]> {
  return db.selectFrom('permission_groups').selectAll().where('org_uuid', '=', orgUuid).orderBy('name').orderBy('uuid').execute();
}

export async function superAdminGroupUuids(db: Db, orgUuid: string): Promise<string[]> {
  const rows = await db.selectFrom('permission_groups').select('uuid').where('org_uuid', '=', orgUuid).where('super_admin', '=', 1).execute();
  return rows.map((r) => r.uuid);
}

export type GroupPatch = Partial<Omit<PermissionGroupsTable, 'uuid' | 'org_uuid' | 'created_at_ms'>>;

export async function updateGroup(db: Db, orgUuid: string, uuid: string, patch: GroupPatch): Promise<void> {
  await db.updateTable('permission_groups').set(patch).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function deleteGroup(db: Db, orgUuid: string, uuid: string): Promise<void> {
  await db.deleteFrom('permission_groups').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

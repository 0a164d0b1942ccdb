import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { SharedClipGroupsTable, SharedGroupKind } from '../tables.js';

type Db = Kysely<DB>;

export async function insertGroup(db: Db, row: SharedClipGroupsTable): Promise<void> {
  await db.insertInto('shared_clip_groups').values(row).execute();
}

export async function findGroup(db: Db, orgUuid: string, kind: SharedGroupKind, uuid: string): Promise<SharedClipGroupsTable | undefined> {
  return db.selectFrom('shared_clip_groups').selectAll().where('org_uuid', '=', orgUuid).where('kind', '=', kind).where('uuid', '=', uuid).executeTakeFirst();
}

/** The group a share link names, of whichever organization and kind. */
export async function findGroupByToken(db: Db, token: string): Promise<SharedClipGroupsTable | undefined> {
  return db.selectFrom('shared_clip_groups').selectAll().where('share_token', '=', token).executeTakeFirst();
}

/** The group of that uuid, of whichever organization and kind (a raw share download names it by its uuid). */
export async function findGroupByUuid(db: Db, uuid: string): Promise<SharedClipGroupsTable | undefined> {
  return db.selectFrom('shared_clip_groups').selectAll().where('uuid', '=', uuid).executeTakeFirst();
}

export async function listGroups(
  db: Db,
  orgUuid: string,
  kind: SharedGroupKind,
  fromMs: number | null,
  beforeMs: number | null,
): Promise<SharedClipGroupsTable[]> {
  return db
    .selectFrom('shared_clip_groups')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('kind', '=', kind)
    .$if(fromMs !== null, (q) => q.where('created_at_ms', '>=', fromMs!))
    .$if(beforeMs !== null, (q) => q.where('created_at_ms', '<', beforeMs!))
    .orderBy('created_at_ms', 'desc')
    .orderBy('uuid', 'desc')
    .execute();
}

export async function updateGroup(db: Db, orgUuid: string, uuid: string, values: Partial<Omit<SharedClipGroupsTable, 'uuid' | 'org_uuid'>>): Promise<void> {
  await db.updateTable('shared_clip_groups').set(values).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function deleteGroup(db: Db, orgUuid: string, uuid: string): Promise<boolean> {
  const result = await db.deleteFrom('shared_clip_groups').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { ClipGroupsTable, SavedClipsTable } from '../tables.js';

type Db = Kysely<DB>;

export async function insertGroup(db: Db, row: ClipGroupsTable): Promise<void> {
  await db.insertInto('clip_groups').values(row).execute();
}

export async function findGroup(db: Db, orgUuid: string, uuid: string): Promise<ClipGroupsTable | undefined> {
  return db.selectFrom('clip_groups').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

export async function findGroups(db: Db, orgUuid: string, uuids: readonly string[]): Promise<ClipGroupsTable[]> {
  if (uuids.length === 0) return [];
  return db
    .selectFrom('clip_groups')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('uuid', 'in', [...uuids])
    .orderBy('uuid')
    .execute();
}

/** The organization's groups newest first, created in [fromMs, beforeMs) where given. */
export async function listGroups(db: Db, orgUuid: string, fromMs: number | null, beforeMs: number | null): Promise<ClipGroupsTable[]> {
  return db
    .selectFrom('clip_groups')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .$if(fromMs !== null, (q) => q.where('created_at_ms', '>=', fromMs!))
    .$if(beforeMs !== null, (q) => q.where('created_at_ms', '<', beforeMs!))
    .orderBy('created_at_ms', 'desc')
    .orderBy('uuid', 'desc')
    .execute();
}

export async function updateGroup(db: Db, orgUuid: string, uuid: string, values: Partial<Omit<ClipGroupsTable, 'uuid' | 'org_uuid'>>): Promise<void> {
  await db.updateTable('clip_groups').set(values).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function touchGroups(db: Db, orgUuid: string, uuids: readonly string[], nowMs: number): Promise<void> {
  if (uuids.length === 0) return;
  await db
    .updateTable('clip_groups')
    .set({ updated_at_ms: nowMs })
    .where('org_uuid', '=', orgUuid)
    .where('uuid', 'in', [...uuids])
    .execute();
}

/** Deletes a group and its list of clips (never the clips). */
export async function deleteGroup(db: Db, orgUuid: string, uuid: string): Promise<boolean> {
  await db.deleteFrom('clip_group_clips').where('org_uuid', '=', orgUuid).where('group_uuid', '=', uuid).execute();
  const result = await db.deleteFrom('clip_groups').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Makes `clipUuids` (distinct) the group's clips, in that order. */
export async function replaceGroupClips(db: Db, orgUuid: string, groupUuid: string, clipUuids: readonly string[]): Promise<void> {
  await db.deleteFrom('clip_group_clips').where('org_uuid', '=', orgUuid).where('group_uuid', '=', groupUuid).execute();
  if (clipUuids.length === 0) return;
  await db
    .insertInto('clip_group_clips')
    .values(clipUuids.map((clip_uuid, position) => ({ group_uuid: groupUuid, clip_uuid, org_uuid: orgUuid, position })))
    .execute();
}

/** The clips of the given groups, each with its group, in each group's order: one query. */
export async function listGroupClips(db: Db, orgUuid: string, groupUuids: readonly string[]): Promise<Array<SavedClipsTable & { group_uuid: string }>> {
  if (groupUuids.length === 0) return [];
  return db
    .selectFrom('clip_group_clips')
    .innerJoin('saved_clips', 'saved_clips.uuid', 'clip_group_clips.clip_uuid')
    .selectAll('saved_clips')
    .select('clip_group_clips.group_uuid')
    .where('clip_group_clips.org_uuid', '=', orgUuid)
    .where('clip_group_clips.group_uuid', 'in', [...groupUuids])
    .orderBy('clip_group_clips.group_uuid')
    .orderBy('clip_group_clips.position')
    .execute();
}

/** The groups a clip sits in. */
export async function groupsOfClip(db: Db, orgUuid: string, clipUuid: string): Promise<string[]> {
  const rows = await db.selectFrom('clip_group_clips').select('group_uuid').where('org_uuid', '=', orgUuid).where('clip_uuid', '=', clipUuid).execute();
  return rows.map((r) => r.group_uuid);
}

export async function removeClipFromGroups(db: Db, orgUuid: string, clipUuid: string): Promise<void> {
  await db.deleteFrom('clip_group_clips').where('org_uuid', '=', orgUuid).where('clip_uuid', '=', clipUuid).execute();
}

import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { ClipStatus, SavedClipsTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertClip(db: Db, row: SavedClipsTable): Promise<void> {
  await db.insertInto('saved_clips').values(row).execute();
}

export async function findClip(db: Db, orgUuid: string, uuid: string): Promise<SavedClipsTable | undefined> {
  return db.selectFrom('saved_clips').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

/** An organization's clips newest first (timestamp, then uuid), strictly older than `beforeMs` when given. */
export async function listClips(db: Db, orgUuid: string, beforeMs: number | null, limit: number): Promise<SavedClipsTable[]> {
  return db
    .selectFrom('saved_clips')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .$if(beforeMs !== null, (q) => q.where('timestamp_ms', '<', beforeMs!))
    .orderBy('timestamp_ms', 'desc')
    .orderBy('uuid', 'desc')
    .limit(limit)
    .execute();
}

/** Every clip of one timestamp, for the page that must not split them. */
export async function listClipsAt(db: Db, orgUuid: string, timestampMs: number): Promise<SavedClipsTable[]> {
  return db.selectFrom('saved_clips').selectAll().where('org_uuid', '=', orgUuid).where('timestamp_ms', '=', timestampMs).orderBy('uuid', 'desc').execute();
}

/** Moves a clip from one of `from` to `to`; false when it was in none of them (someone else moved it first). */
export async function moveClipStatus(db: Db, orgUuid: string, uuid: string, from: readonly ClipStatus[], to: ClipStatus): Promise<boolean> {
  const result = await db
    .updateTable('saved_clips')
    .set({ status: to })
    .where('org_uuid', '=', orgUuid)
    .where('uuid', '=', uuid)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function updateClip(db: Db, orgUuid: string, uuid: string, values: Partial<Omit<SavedClipsTable, 'uuid' | 'org_uuid'>>): Promise<void> {
  await db.updateTable('saved_clips').set(values).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

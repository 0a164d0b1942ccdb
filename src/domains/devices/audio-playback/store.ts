import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { AudioUploadsTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertClip(db: Db, row: AudioUploadsTable): Promise<void> {
  await db.insertInto('audio_uploads').values(row).execute();
}

export async function findClip(db: Db, orgUuid: string, uuid: string): Promise<AudioUploadsTable | undefined> {
  return db.selectFrom('audio_uploads').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

export async function listClips(db: Db, orgUuid: string): Promise<AudioUploadsTable[]> {
  return db.selectFrom('audio_uploads').selectAll().where('org_uuid', '=', orgUuid).orderBy('display_name').orderBy('uuid').execute();
}

export async function updateClip(
  db: Db,
  uuid: string,
  patch: Partial<Pick<AudioUploadsTable, 'display_name' | 'description' | 'updated_at_ms'>>,
): Promise<void> {
  await db.updateTable('audio_uploads').set(patch).where('uuid', '=', uuid).execute();
}

export async function deleteClip(db: Db, uuid: string): Promise<void> {
  await db.deleteFrom('audio_uploads').where('uuid', '=', uuid).execute();
}

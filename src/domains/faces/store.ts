import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import { insertInChunks } from '../../store/chunks.js';
import type { Tx } from '../../store/reader.js';
import type { FaceMatchmakersTable, FaceUploadRow, FaceUploadsTable, PeopleTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertPerson(db: Db, row: PeopleTable): Promise<void> {
  await db.insertInto('people').values(row).execute();
}

export async function insertPeople(tx: Tx, rows: readonly PeopleTable[]): Promise<void> {
  await insertInChunks(tx, 'people', rows);
}

export async function findPerson(db: Db, orgUuid: string, uuid: string): Promise<PeopleTable | undefined> {
  return db.selectFrom('people').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

/** The organization's oldest person whose name has this match key (names need not be unique). */
export async function findPersonByMatchKey(db: Db, orgUuid: string, matchKey: string): Promise<PeopleTable | undefined> {
  return db
    .selectFrom('people')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('match_key', '=', matchKey)
    .orderBy('created_at_ms')
    .orderBy('uuid')
    .limit(1)
    .executeTakeFirst();
}

export async function listPeople(db: Db, orgUuid: string): Promise<PeopleTable[]> {
  return db.selectFrom('people').selectAll().where('org_uuid', '=', orgUuid).orderBy('name').orderBy('uuid').execute();
}

export async function updatePerson(
  db: Db,
  orgUuid: string,
  uuid: string,
  set: Partial<Pick<PeopleTable, 'name' | 'match_key' | 'email' | 'updated_at_ms'>>,
): Promise<void> {
  await db.updateTable('people').set(set).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

/** Deletes the person; their face matchmakers go with them (foreign key cascade). */
export async function deletePerson(db: Db, orgUuid: string, uuid: string): Promise<void> {
  await db.deleteFrom('people').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function insertMatchmaker(db: Db, row: FaceMatchmakersTable): Promise<void> {
  await db.insertInto('face_matchmakers').values(row).execute();
}

export async function findMatchmaker(db: Db, orgUuid: string, id: string): Promise<FaceMatchmakersTable | undefined> {
  return db.selectFrom('face_matchmakers').selectAll().where('org_uuid', '=', orgUuid).where('id', '=', id).executeTakeFirst();
}

export async function listMatchmakersOfPerson(db: Db, orgUuid: string, personUuid: string): Promise<FaceMatchmakersTable[]> {
  return db
    .selectFrom('face_matchmakers')
    .selectAll()
    .where('person_uuid', '=', personUuid)
    .where('org_uuid', '=', orgUuid)
    .orderBy('created_at_ms')
    .orderBy('id')
    .execute();
}

export async function listMatchmakersOfOrg(db: Db, orgUuid: string): Promise<FaceMatchmakersTable[]> {
  return db.selectFrom('face_matchmakers').selectAll().where('org_uuid', '=', orgUuid).orderBy('created_at_ms').orderBy('id').execute();
}

export async function deleteMatchmaker(db: Db, orgUuid: string, id: string): Promise<void> {
  await db.deleteFrom('face_matchmakers').where('org_uuid', '=', orgUuid).where('id', '=', id).execute();
}

export async function insertUpload(db: Db, row: Omit<FaceUploadsTable, 'id'>): Promise<void> {
  await db.insertInto('face_uploads').values(row).execute();
}

/** The transaction's upload log, in upload order. */
export async function listUploadsOfTransaction(db: Db, orgUuid: string, transactionId: string): Promise<FaceUploadRow[]> {
  return db.selectFrom('face_uploads').selectAll().where('org_uuid', '=', orgUuid).where('transaction_id', '=', transactionId).orderBy('id').execute();
}

/** The organization's most recent face uploads (every transaction), newest first. */
export async function listRecentUploads(db: Db, orgUuid: string, limit: number): Promise<FaceUploadRow[]> {
  return db.selectFrom('face_uploads').selectAll().where('org_uuid', '=', orgUuid).orderBy('id', 'desc').limit(limit).execute();
}

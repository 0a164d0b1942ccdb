import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { PeopleTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertPerson(db: Db, row: PeopleTable): Promise<void> {
  await db.insertInto('people').values(row).execute();
}

export async function findPerson(db: Db, orgUuid: string, uuid: string): Promise<PeopleTable | undefined> {
  return db.selectFrom('people').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

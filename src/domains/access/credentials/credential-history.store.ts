import type { Insertable, Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { CredentialHistoryTable } from '../grants/tables.js';

type Db = Kysely<DB>;

export async function insertHistory(db: Db, rows: ReadonlyArray<Insertable<CredentialHistoryTable>>): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('credential_history')
    .values([...rows])
    .execute();
}

/** Which entries: those of any of the lookup keys, of a type and value, or of a user. */
export type HistoryKey = { lookupKeys: readonly string[] } | { type: string; value: string } | { userUuid: string };

/** An organization's history entries, newest first, at most `limit`. */
export async function listHistory(db: Db, orgUuid: string, key: HistoryKey, limit: number): Promise<string[]> {
  let query = db.selectFrom('credential_history').select('payload').where('org_uuid', '=', orgUuid);
  if ('lookupKeys' in key) query = query.where('lookup_key', 'in', key.lookupKeys);
  else if ('userUuid' in key) query = query.where('user_uuid', '=', key.userUuid);
  else query = query.where('type', '=', key.type).where('value', '=', key.value);
  const rows = await query.orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => r.payload);
}

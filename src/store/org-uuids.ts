import type { Kysely } from 'kysely';
import { MAX_BIND_PARAMETERS } from './chunks.js';
import { preparedQuery } from './prepared-query.js';
import type { DB } from './schema.js';

/** The tables whose rows are an organization's records named by uuid (`uuid` and `org_uuid` columns). */
export type OrgUuidTable = { [T in keyof DB]: DB[T] extends { uuid: string; org_uuid: string } ? T : never }[keyof DB];

// The table is a name of DB's that has these two columns (the type above); Kysely's types cannot follow a union of tables.
const typed = (db: Kysely<DB>) => db as unknown as Kysely<Record<string, { uuid: string; org_uuid: string }>>;

type OneUuidIn = (db: Kysely<DB>, orgUuid: string, uuid: string) => Promise<Array<{ uuid: string }>>;
const oneUuidQueries = new Map<OrgUuidTable, OneUuidIn>();

/**
 * Whether one id is a row of the table in the organization, compiled once per table and run as a point read
 * (prepared-query.ts): most bodies name one record of a kind, which the edge resolves on every request.
 */
function oneUuidIn(table: OrgUuidTable): OneUuidIn {
  let query = oneUuidQueries.get(table);
  if (!query) {
    query = preparedQuery(2, (db, orgUuid: string, uuid: string) =>
      typed(db).selectFrom(table).select('uuid').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid),
    );
    oneUuidQueries.set(table, query);
  }
  return query;
}

/**
 * Which of `uuids` are rows of `table` in the organization: one query, whatever the number of ids. The record
 * finders of src/records/references.ts are made of it, so that each kind's finder is one line in its domain.
 */
export async function orgUuidsIn(db: Kysely<DB>, table: OrgUuidTable, orgUuid: string, uuids: readonly string[]): Promise<ReadonlySet<string>> {
  const distinct = [...new Set(uuids)];
  if (distinct.length === 1) return new Set((await oneUuidIn(table)(db, orgUuid, distinct[0]!)).map((row) => row.uuid));
  const found = new Set<string>();
  for (let i = 0; i < distinct.length; i += MAX_BIND_PARAMETERS) {
    const rows = await typed(db)
      .selectFrom(table)
      .select('uuid')
      .where('org_uuid', '=', orgUuid)
      .where('uuid', 'in', distinct.slice(i, i + MAX_BIND_PARAMETERS))
      .execute();
    for (const row of rows) found.add(row.uuid);
  }
  return found;
}

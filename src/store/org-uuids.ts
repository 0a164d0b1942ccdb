import type { Kysely } from 'kysely';
import { MAX_BIND_PARAMETERS } from './chunks.js';
import type { DB } from './schema.js';

/** The tables whose rows are an organization's records named by uuid (`uuid` and `org_uuid` columns). */
export type OrgUuidTable = { [T in keyof DB]: DB[T] extends { uuid: string; org_uuid: string } ? T : never }[keyof DB];

/**
 * Which of `uuids` are rows of `table` in the organization: one query, whatever the number of ids. The record
 * finders of src/records/references.ts are made of it, so that each kind's finder is one line in its domain.
 */
export async function orgUuidsIn(db: Kysely<DB>, table: OrgUuidTable, orgUuid: string, uuids: readonly string[]): Promise<ReadonlySet<string>> {
  // The table is a name of DB's that has these two columns (the type above); Kysely's types cannot follow a union of tables.
  const typed = db as unknown as Kysely<Record<string, { uuid: string; org_uuid: string }>>;
  const distinct = [...new Set(uuids)];
  const found = new Set<string>();
  for (let i = 0; i < distinct.length; i += MAX_BIND_PARAMETERS) {
    const rows = await typed
      .selectFrom(table)
      .select('uuid')
      .where('org_uuid', '=', orgUuid)
      .where('uuid', 'in', distinct.slice(i, i + MAX_BIND_PARAMETERS))
      .execute();
    for (const row of rows) found.add(row.uuid);
  }
  return found;
}

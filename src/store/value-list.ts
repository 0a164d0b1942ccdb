import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * A condition: the column is one of the values, given as ONE parameter (a PostgreSQL array; a JSON array that
 * SQLite's json_each unpacks), where `in (...)` binds one parameter per value: 10,000 device uuids cost
 * PostgreSQL a statement of 10,000 parameters to parse and plan, and Kysely as many nodes to compile.
 */
export function inValues(db: Pick<Kysely<unknown>, 'getExecutor'>, column: string, values: readonly string[]): RawBuilder<boolean> {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? sql<boolean>`${sql.ref(column)} = any(${[...values]}::text[])`
    : sql<boolean>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(values)}))`;
}

import type { Insertable, Transaction } from 'kysely';
import type { DB } from './schema.js';

/**
 * The most bind parameters one statement carries here. SQLite allows 32,766 per statement and PostgreSQL
 * 65,535; a multi-row insert of thousands of rows goes past either, so big writes (a site file of 100,000
 * entries, and the audit and change-log rows they leave) are cut into statements under this bound.
 */
export const MAX_BIND_PARAMETERS = 30_000;

/** Cuts `rows` into runs whose bind parameters (rows times columns) stay under MAX_BIND_PARAMETERS. */
export function chunksOf<T extends object>(rows: readonly T[], maxParameters = MAX_BIND_PARAMETERS): T[][] {
  if (rows.length === 0) return [];
  const columns = Math.max(1, Object.keys(rows[0]).length);
  const size = Math.max(1, Math.floor(maxParameters / columns));
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}

/** Inserts any number of rows into one table, in as many statements as the bind-parameter limit needs, inside `tx`. */
export async function insertInChunks<T extends keyof DB & string>(tx: Transaction<DB>, table: T, rows: readonly Insertable<DB[T]>[]): Promise<void> {
  for (const chunk of chunksOf(rows))
    await tx
      .insertInto(table)
      .values(chunk as never)
      .execute();
}

/**
 * Inserts rows into a table whose `id` is generated (serial / integer primary key) and answers the ids in the
 * order of `rows`. Within one statement ids are drawn in the order of its VALUES, so each chunk's ids, sorted,
 * line up with its rows whatever order RETURNING lists them in.
 */
export async function insertReturningIds<T extends keyof DB & string>(tx: Transaction<DB>, table: T, rows: readonly Insertable<DB[T]>[]): Promise<number[]> {
  const ids: number[] = [];
  for (const chunk of chunksOf(rows)) {
    const returned = (await tx
      .insertInto(table)
      .values(chunk as never)
      .returning('id' as never)
      .execute()) as unknown as Array<{ id: number | string }>;
    ids.push(...returned.map((r) => Number(r.id)).sort((a, b) => a - b));
  }
  return ids;
}

import { sql, type RawBuilder } from 'kysely';

/** The text with its own LIKE wildcards (%, _) and the escape character escaped, for `like ... escape '\'`. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A condition: the column contains the text, ignoring case, on both dialects (SQLite's LIKE ignores ASCII case only, PostgreSQL's none). */
export function lowerContains(column: string, text: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${sql.ref(column)}) like ${`%${escapeLike(text.toLowerCase())}%`} escape '\\'`;
}

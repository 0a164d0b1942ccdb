import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

const MAX_STATEMENTS = 500;

/**
 * Hands Kysely's SQLite driver a database whose `prepare` reuses compiled statements: Kysely prepares
 * every query anew, and preparing costs more than running a point lookup. Least recently used
 * statements are dropped past MAX_STATEMENTS.
 */
export function withStatementCache(database: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(sql: string): SqliteStatement {
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        statement = database.prepare(sql) as unknown as SqliteStatement;
        if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}

import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

const MAX_STATEMENTS = 500;

/**
 * A statement that answers rows: read as arrays (better-sqlite3's `raw` mode) and made into objects here. The
 * driver's own objects are built in C++ one property at a time through V8's API, which took about 0.4 µs per
 * value on this machine kind, twice the arrays' cost and most of a listing's (1,000 cameras: 5.6 ms against
 * 3.4 ms; docs/performance.md). Each statement gets its own row constructor, an object literal of its columns
 * compiled once: a loop shared by every statement would see hundreds of column sets and fall back to V8's
 * slowest property stores (400 ns a row against 30). The objects are the same as the driver's: a property per
 * result column, in column order, the last of equally named columns winning.
 */
function rowsAsObjects(statement: SQLite.Statement): SqliteStatement {
  const names = statement.columns().map((column) => column.name);
  // The names are SQLite's result column names, quoted as JSON strings: the code holds no other text.
  const toObject = new Function('values', `return { ${names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ')} };`) as (
    values: unknown[],
  ) => Record<string, unknown>;
  const raw = statement.raw(true);
  return {
    reader: true,
    all: (parameters) => (raw.all(parameters as unknown[]) as unknown[][]).map(toObject),
    run: (parameters) => raw.run(parameters as unknown[]),
    *iterate(parameters) {
      for (const values of raw.iterate(parameters as unknown[]) as IterableIterator<unknown[]>) yield toObject(values);
    },
  };
}

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
        const prepared = database.prepare(sql);
        // A column named __proto__ would set the literal's prototype: such a statement keeps the driver's objects.
        const plain = !prepared.reader || prepared.columns().some((column) => column.name === '__proto__');
        statement = plain ? (prepared as unknown as SqliteStatement) : rowsAsObjects(prepared);
        if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}

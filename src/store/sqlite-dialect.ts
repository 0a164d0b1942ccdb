import { setImmediate as nextLoopTurn } from 'node:timers/promises';
import type SQLite from 'better-sqlite3';
import { SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';
import { withStatementCache } from './sqlite-statement-cache.js';

/**
 * better-sqlite3 runs every statement synchronously. Left alone, each request's lookup would run inside the
 * socket callback that read it, between socket reads and writes, with SQLite's pages and code gone cold in
 * the CPU caches each time (a point lookup took 20 µs there against 5 µs back to back). So a query, or a
 * whole transaction, first waits for the event loop's check phase: the requests read in one loop turn then
 * run their store work back to back. A transaction waits once, when it takes the connection, never
 * between its statements. `npm run bench -- rest-auth` measures the effect.
 */
class LoopTurnSqliteDriver extends SqliteDriver {
  override async acquireConnection(): Promise<DatabaseConnection> {
    await nextLoopTurn();
    return super.acquireConnection();
  }
}

/** Kysely's SQLite dialect with the statement cache and loop-turn batching above. */
export class GatehouseSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(database: SQLite.Database) {
    const config = { database: withStatementCache(database) };
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new LoopTurnSqliteDriver(this.#config);
  }
}

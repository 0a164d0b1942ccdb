import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.js';
import { ConnectionLock, GatehouseSqliteDialect } from './sqlite-dialect.js';
import { withStatementCache } from './sqlite-statement-cache.js';
import { GroupCommit } from './group-commit.js';
import { BACKSTOP_CHECKPOINT_PAGES, startCheckpointer, type Checkpointer } from './sqlite-checkpointer.js';
import { DurableCommits } from './durable-commits.js';
import { DurablePostgresDialect } from './postgres-dialect.js';
import { attachPointReader, PostgresPointReader, SqlitePointReader } from './point-reads.js';

export type DialectName = 'sqlite' | 'postgres';

/** The store: one Kysely handle over SQLite or PostgreSQL. Nothing outside src/store knows which. */
export interface Store {
  db: Kysely<DB>;
  /**
   * Runs `fn` in a transaction that starts at once (see sqlite-dialect.ts); a failure rolls it back. On SQLite
   * the writes that wait for the connection meanwhile commit together, each in a savepoint (group-commit.ts); on
   * PostgreSQL a commit releases its locks before the WAL flush and answers after it (durable-commits.ts).
   */
  transaction<T>(fn: (tx: Transaction<DB>) => Promise<T>): Promise<T>;
  dialect: DialectName;
  url: string;
  /**
   * The same database for the instance's background workers (the outbox's deliveries), over connections of their
   * own on PostgreSQL: a busy API's transactions queue for the pool's connections, and a worker waiting behind
   * them delivered nothing until the queue emptied. On SQLite (one connection, no pool) it is the store itself.
   * Closed with the store.
   */
  background: Store;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Connections of the request path's pool, and of the background workers' (see Store.background). */
const POOL_CONNECTIONS = 10;
const BACKGROUND_CONNECTIONS = 2;
/** How the background connections name themselves in `pg_stat_activity`. */
export const BACKGROUND_APPLICATION = 'gatehouse background';

// PostgreSQL answers int8 (bigint, count) as strings; every int8 here is an id, a count or epoch ms, all safe integers.
pg.types.setTypeParser(20, (v) => Number(v));

export function dialectOf(url: string): DialectName {
  return url.startsWith('sqlite:') ? 'sqlite' : 'postgres';
}

/**
 * Opens the store at `url`. `onBackgroundFailure` hears what fails off any request (on SQLite, the checkpointer's
 * thread), which no caller would otherwise see.
 */
export function openStore(url: string, onBackgroundFailure: (error: Error) => void = () => {}): Store {
  const dialect = dialectOf(url);
  let db: Kysely<DB>;
  // The handle transactions run on: on SQLite a second driver over the same connection (see sqlite-dialect.ts).
  let transactions: Kysely<DB>;
  // SQLite: the writes waiting for the one connection commit together (group-commit.ts).
  let committer: GroupCommit<DB> | null = null;
  let postgresReader: PostgresPointReader | null = null;
  let durable: DurableCommits | null = null;
  let checkpointer: Checkpointer | null = null;
  let backgroundDb: Kysely<DB> | null = null;
  if (dialect === 'sqlite') {
    const file = url.slice('sqlite:'.length);
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const database = new SQLite(file);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    // Checkpoints run on a thread of their own (sqlite-checkpointer.ts); this connection's are a backstop.
    database.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
    database.pragma('busy_timeout = 5000');
    database.pragma('foreign_keys = ON');
    const cached = withStatementCache(database);
    const lock = new ConnectionLock();
    db = new Kysely<DB>({ dialect: new GatehouseSqliteDialect(cached, lock, true) });
    transactions = new Kysely<DB>({ dialect: new GatehouseSqliteDialect(cached, lock, false) });
    attachPointReader(db, new SqlitePointReader(cached, lock));
    committer = new GroupCommit(transactions);
    if (file !== ':memory:') checkpointer = startCheckpointer(file, onBackgroundFailure);
  } else {
    const pool = (max: number, applicationName?: string) => {
      const opened = new pg.Pool({ connectionString: url, max, application_name: applicationName });
      // An idle client that loses its server must not take the process down.
      opened.on('error', () => {});
      return opened;
    };
    durable = new DurableCommits({ connectionString: url });
    db = transactions = new Kysely<DB>({ dialect: new DurablePostgresDialect(pool(POOL_CONNECTIONS), durable) });
    backgroundDb = new Kysely<DB>({ dialect: new DurablePostgresDialect(pool(BACKGROUND_CONNECTIONS, BACKGROUND_APPLICATION), durable) });
    postgresReader = new PostgresPointReader({ connectionString: url });
    attachPointReader(db, postgresReader);
    attachPointReader(backgroundDb, postgresReader);
  }
  const store = {
    db,
    dialect,
    url,
    transaction: (fn) => (committer ? committer.transaction(fn) : transactions.transaction().execute(fn)),
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await postgresReader?.close();
      await checkpointer?.close();
      await db.destroy();
      if (transactions !== db) await transactions.destroy();
      await backgroundDb?.destroy();
      await durable?.close();
    },
  } as Store;
  if (backgroundDb) {
    const handle = backgroundDb;
    const background = { ...store, db: handle, transaction: (fn) => handle.transaction().execute(fn), close: async () => {} } as Store;
    store.background = background.background = background;
  } else store.background = store;
  return store;
}

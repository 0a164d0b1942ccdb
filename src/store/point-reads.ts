import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { SqliteDatabase } from 'kysely';
import type { ConnectionLock } from './sqlite-dialect.js';

/**
 * Runs the compiled point reads of every request (a key by digest, an organization by uuid: see
 * prepared-query.ts) beside Kysely's executor, which builds a chain of promises per query (connection
 * provider, driver, lock) that cost more than the lookup itself.
 *
 * Reads are collected for one turn of the event loop and run at its check phase, and identical reads (same
 * SQL, same parameters) of that turn run once: fifty connections asking for their organization in one turn
 * cost one lookup. Every read still runs after it was asked for, so it sees every write committed before
 * (nothing is served from a cache); each caller gets its own copy of the rows.
 */
export interface PointReader {
  read<R>(sql: string, parameters: readonly unknown[]): Promise<R[]>;
}

interface Waiter {
  resolve(rows: unknown[]): void;
  reject(error: unknown): void;
}

interface Pending {
  sql: string;
  parameters: readonly unknown[];
  waiters: Waiter[];
}

const readers = new WeakMap<object, PointReader>();

/** The point reader of a store handle (not of a transaction, which must see its own writes), if it has one. */
export function pointReaderOf(db: Pick<Kysely<unknown>, 'isTransaction'>): PointReader | undefined {
  return db.isTransaction ? undefined : readers.get(db);
}

export function attachPointReader(db: object, reader: PointReader): void {
  readers.set(db, reader);
}

const keyOf = (sql: string, parameters: readonly unknown[]) =>
  parameters.length === 1 && typeof parameters[0] === 'string' ? `${sql}\u0000${parameters[0]}` : `${sql}\u0000${JSON.stringify(parameters)}`;

/** Each waiter but the first gets copies of the rows: callers may keep or change what they were given. */
function settle(pending: Pending, rows: unknown[]): void {
  const [first, ...rest] = pending.waiters;
  for (const waiter of rest) waiter.resolve(rows.map((row) => ({ ...(row as object) })));
  first!.resolve(rows);
}

/** Collects the reads of a loop turn and hands the distinct ones to `runBatch` at its check phase. */
abstract class BatchingReader implements PointReader {
  private pending = new Map<string, Pending>();
  private scheduled = false;

  read<R>(sql: string, parameters: readonly unknown[]): Promise<R[]> {
    return new Promise<unknown[]>((resolve, reject) => {
      const key = keyOf(sql, parameters);
      let entry = this.pending.get(key);
      if (!entry) this.pending.set(key, (entry = { sql, parameters, waiters: [] }));
      entry.waiters.push({ resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    }) as Promise<R[]>;
  }

  private flush(): void {
    const batch = [...this.pending.values()];
    this.pending = new Map();
    this.scheduled = false;
    this.runBatch(batch);
  }

  protected abstract runBatch(batch: Pending[]): void;
}

/**
 * better-sqlite3 answers synchronously: the batch runs back to back (SQLite's pages and code stay warm in the
 * CPU caches), under the connection lock that Kysely's drivers share, so that no read lands inside a
 * transaction in progress.
 */
export class SqlitePointReader extends BatchingReader {
  constructor(
    private readonly database: SqliteDatabase,
    private readonly lock: ConnectionLock,
  ) {
    super();
  }

  protected runBatch(batch: Pending[]): void {
    if (this.lock.tryAcquire()) return this.runLocked(batch);
    this.lock.acquire().then(
      () => this.runLocked(batch),
      (e: unknown) => batch.forEach((p) => p.waiters.forEach((w) => w.reject(e))),
    );
  }

  private runLocked(batch: Pending[]): void {
    try {
      for (const pending of batch) {
        let rows: unknown[];
        try {
          rows = this.database.prepare(pending.sql).all(pending.parameters) as unknown[];
        } catch (e) {
          for (const waiter of pending.waiters) waiter.reject(e);
          continue;
        }
        settle(pending, rows);
      }
    } finally {
      this.lock.release();
    }
  }
}

/**
 * PostgreSQL: each distinct read of the turn is one round trip, as a named statement (parsed and planned once
 * per pooled connection rather than on every call).
 */
export class PostgresPointReader extends BatchingReader {
  private readonly names = new Map<string, string>();

  constructor(private readonly pool: pg.Pool) {
    super();
  }

  protected runBatch(batch: Pending[]): void {
    for (const pending of batch) {
      this.pool.query({ name: this.nameOf(pending.sql), text: pending.sql, values: pending.parameters as unknown[] }).then(
        (result) => settle(pending, result.rows),
        (e: unknown) => pending.waiters.forEach((w) => w.reject(e)),
      );
    }
  }

  private nameOf(sql: string): string {
    let name = this.names.get(sql);
    if (!name) this.names.set(sql, (name = `gh_point_${createHash('sha256').update(sql).digest('hex').slice(0, 16)}`));
    return name;
  }
}

import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Socket } from 'node:net';
import pg from 'pg';
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

/**
 * A read's parameters as a map key: the one string of most reads as it is (no new string, whose hash would be
 * computed again), any other list as its JSON after a NUL, which no id holds.
 */
const parametersKey = (parameters: readonly unknown[]) =>
  parameters.length === 1 && typeof parameters[0] === 'string' ? parameters[0] : `\u0000${JSON.stringify(parameters)}`;

/** Each waiter but the first gets copies of the rows: callers may keep or change what they were given. */
function settle(pending: Pending, rows: unknown[]): void {
  const [first, ...rest] = pending.waiters;
  for (const waiter of rest) waiter.resolve(rows.map((row) => ({ ...(row as object) })));
  first!.resolve(rows);
}

/** Collects the reads of a loop turn and hands the distinct ones to `runBatch` at its check phase. */
abstract class BatchingReader implements PointReader {
  /** The turn's reads by SQL (the statement's own constant string), then by parameters. */
  private pending = new Map<string, Map<string, Pending>>();
  private scheduled = false;

  read<R>(sql: string, parameters: readonly unknown[]): Promise<R[]> {
    return new Promise<unknown[]>((resolve, reject) => {
      let bySql = this.pending.get(sql);
      if (!bySql) this.pending.set(sql, (bySql = new Map()));
      const key = parametersKey(parameters);
      let entry = bySql.get(key);
      if (!entry) bySql.set(key, (entry = { sql, parameters, waiters: [] }));
      entry.waiters.push({ resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    }) as Promise<R[]>;
  }

  private flush(): void {
    const batch: Pending[] = [];
    for (const bySql of this.pending.values()) for (const entry of bySql.values()) batch.push(entry);
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

/** The TCP (or Unix) socket of a connected client. */
const socketOf = (client: pg.Client) => client.connection.stream as Socket;

/**
 * PostgreSQL: the distinct reads of a turn go out together, in one socket write, on a connection of the reader's
 * own in pipeline mode, and are answered in order: one round trip per turn, where a pooled query each took a pool
 * checkout, a round trip and a socket write and read of its own (docs/performance.md). Each read is a named
 * statement, parsed and planned once per connection; each is its own Sync, so a failed read fails alone. The
 * connection is made when first needed and again after it fails (the reads it held are refused with the failure,
 * as a pooled query's would be), and holds the process open only while reads are in flight, as an idle pool does not.
 */
export class PostgresPointReader extends BatchingReader {
  private readonly names = new Map<string, string>();
  private connection: Promise<pg.Client> | null = null;
  private inFlight = 0;
  private closed = false;

  constructor(private readonly config: pg.ClientConfig) {
    super();
  }

  protected runBatch(batch: Pending[]): void {
    this.client().then(
      (client) => this.send(client, batch),
      (e: unknown) => batch.forEach((p) => p.waiters.forEach((w) => w.reject(e))),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    const connection = this.connection;
    this.connection = null;
    await connection?.then(
      (client) => client.end(),
      () => undefined,
    );
  }

  private client(): Promise<pg.Client> {
    if (this.closed) return Promise.reject(new Error('the store is closed'));
    if (this.connection) return this.connection;
    const client = new pg.Client({ ...this.config, pipeline: true });
    const connection = client.connect().then(() => {
      if (this.inFlight === 0) socketOf(client).unref();
      return client;
    });
    const forget = () => {
      if (this.connection === connection) this.connection = null;
    };
    // A lost server shows as 'error' or 'end': the next turn connects again.
    client.on('error', forget);
    client.on('end', forget);
    connection.catch(forget);
    return (this.connection = connection);
  }

  private send(client: pg.Client, batch: Pending[]): void {
    const socket = socketOf(client);
    if (this.inFlight === 0) socket.ref();
    this.inFlight += batch.length;
    const done = () => {
      if (--this.inFlight === 0) socket.unref();
    };
    // Corked, the queries' messages leave in one write when the last is queued.
    socket.cork();
    try {
      for (const pending of batch) {
        client.query({ name: this.nameOf(pending.sql), text: pending.sql, values: pending.parameters as unknown[] }).then(
          (result) => {
            done();
            settle(pending, result.rows);
          },
          (e: unknown) => {
            done();
            pending.waiters.forEach((w) => w.reject(e));
          },
        );
      }
    } finally {
      socket.uncork();
    }
  }

  private nameOf(sql: string): string {
    let name = this.names.get(sql);
    if (!name) this.names.set(sql, (name = `gh_point_${createHash('sha256').update(sql).digest('hex').slice(0, 16)}`));
    return name;
  }
}

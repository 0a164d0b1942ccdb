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

/** Each waiter but the first gets copies of the rows: callers may keep or change what they were given. */
function settle(pending: Pending, rows: unknown[]): void {
  const [first, ...rest] = pending.waiters;
  for (const waiter of rest) waiter.resolve(rows.map((row) => ({ ...(row as object) })));
  first!.resolve(rows);
}

/** The turn's reads of one statement, by their first parameter, then the next: a Pending where they end. */
type ByParameter = Map<unknown, ByParameter | Pending>;

/** Collects the reads of a loop turn and hands the distinct ones to `runBatch` at its check phase. */
abstract class BatchingReader implements PointReader {
  /**
   * The turn's reads by SQL (the statement's own constant string), then by each parameter's value: a map per
   * parameter looks each up as it is (a string's hash is kept in the string), where one key made of them all
   * was a new string per read, built and hashed anew.
   */
  private pending = new Map<string, ByParameter>();
  /** The same reads in the order they were first asked for. */
  private batch: Pending[] = [];

  read<R>(sql: string, parameters: readonly unknown[]): Promise<R[]> {
    return new Promise<unknown[]>((resolve, reject) => {
      let level = this.pending.get(sql);
      if (!level) this.pending.set(sql, (level = new Map()));
      const last = parameters.length - 1;
      for (let i = 0; i < last; i++) {
        let next = level.get(parameters[i]) as ByParameter | undefined;
        if (!next) level.set(parameters[i], (next = new Map()));
        level = next;
      }
      let entry = level.get(parameters[last]) as Pending | undefined;
      if (!entry) {
        level.set(parameters[last], (entry = { sql, parameters, waiters: [] }));
        if (this.batch.push(entry) === 1) setImmediate(() => this.flush());
      }
      entry.waiters.push({ resolve, reject });
    }) as Promise<R[]>;
  }

  private flush(): void {
    const batch = this.batch;
    this.pending = new Map();
    this.batch = [];
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

/** A pipelined connection of the reader's, and the reads it has been given and not yet answered. */
interface Lane {
  client: Promise<pg.Client>;
  inFlight: number;
}

/** The connections' application_name, as pg_stat_activity shows it. */
export const POINT_READS_APPLICATION = 'gatehouse point reads';

/** At most this many connections: a busy server's reads spread over that many backends (and cores). */
const MAX_LANES = 4;

/**
 * PostgreSQL: the distinct reads of a turn go out together, in one socket write, on a pipelined connection of the
 * reader's own, and are answered in order: one round trip per turn, where a pooled query each took a pool
 * checkout, a round trip and a socket write and read of its own (docs/performance.md). Each read is a named
 * statement, parsed and planned once per connection; each is its own Sync, so a failed read fails alone.
 *
 * A turn's reads go to an idle connection, else to a new one while there are fewer than MAX_LANES, else to the
 * least busy: one connection while the reads keep up, more when they queue. A connection is made when needed and
 * dropped when it fails (the reads it held are refused with the failure, as a pooled query's would be); it holds
 * the process open only while it has reads in flight, as an idle pool does not.
 */
export class PostgresPointReader extends BatchingReader {
  private readonly names = new Map<string, string>();
  private lanes: Lane[] = [];
  private closed = false;

  constructor(private readonly config: pg.ClientConfig) {
    super();
  }

  protected runBatch(batch: Pending[]): void {
    if (this.closed) return batch.forEach((p) => p.waiters.forEach((w) => w.reject(new Error('the store is closed'))));
    const lane = this.laneFor();
    lane.inFlight += batch.length;
    lane.client.then(
      (client) => this.send(client, lane, batch),
      (e: unknown) => {
        lane.inFlight -= batch.length;
        batch.forEach((p) => p.waiters.forEach((w) => w.reject(e)));
      },
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    const lanes = this.lanes;
    this.lanes = [];
    await Promise.all(lanes.map((lane) => lane.client.then((client) => client.end()).catch(() => undefined)));
  }

  private laneFor(): Lane {
    let best: Lane | undefined;
    for (const lane of this.lanes) if (!best || lane.inFlight < best.inFlight) best = lane;
    if (best && (best.inFlight === 0 || this.lanes.length >= MAX_LANES)) return best;
    const client = new pg.Client({ ...this.config, pipeline: true, application_name: POINT_READS_APPLICATION });
    const lane: Lane = { client: client.connect().then(() => client), inFlight: 0 };
    // A lost server shows as 'error' or 'end': the connection is dropped, and a later turn makes another.
    const drop = () => {
      this.lanes = this.lanes.filter((l) => l !== lane);
    };
    client.on('error', drop);
    client.on('end', drop);
    lane.client.catch(drop);
    this.lanes.push(lane);
    return lane;
  }

  private send(client: pg.Client, lane: Lane, batch: Pending[]): void {
    const socket = socketOf(client);
    socket.ref();
    const done = () => {
      if (--lane.inFlight === 0) socket.unref();
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

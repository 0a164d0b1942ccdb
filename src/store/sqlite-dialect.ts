import { setImmediate as nextLoopTurn } from 'node:timers/promises';
import { SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDatabase } from 'kysely';

/**
 * better-sqlite3 runs every statement synchronously. Left alone, each request's lookup would run inside the
 * socket callback that read it, between socket reads and writes, with SQLite's pages and code gone cold in
 * the CPU caches each time (a point lookup took 20 µs there against 5 µs back to back). So a query outside
 * a transaction first waits for the event loop's check phase: the requests read in one loop turn then run
 * their store work back to back. `npm run bench -- rest-auth` measures the effect.
 *
 * A transaction does not wait. Its caller awaits the commit and the stream carries its changes, and under
 * load a loop turn is long (a poll phase full of socket writes): waiting for one added about 20 ms to the
 * delivery of every change (`npm run bench -- stream-fanout`).
 *
 * Kysely takes the connection before it knows whether a transaction follows, so the store runs two drivers
 * over the one database, one that waits and one that does not (see database.ts), sharing one lock so that
 * their statements never interleave.
 */
export class ConnectionLock {
  #held: Promise<void> | null = null;
  #release: (() => void) | null = null;

  async acquire(): Promise<void> {
    while (this.#held) await this.#held;
    this.#held = new Promise((resolve) => (this.#release = resolve));
  }

  /** Takes the lock when it is free, without waiting: false when it is held. */
  tryAcquire(): boolean {
    if (this.#held) return false;
    this.#held = new Promise((resolve) => (this.#release = resolve));
    return true;
  }

  release(): void {
    const release = this.#release;
    this.#held = null;
    this.#release = null;
    release?.();
  }
}

class LockedSqliteDriver extends SqliteDriver {
  constructor(
    database: SqliteDatabase,
    private readonly lock: ConnectionLock,
    private readonly waitForLoopTurn: boolean,
  ) {
    super({ database });
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    if (this.waitForLoopTurn) await nextLoopTurn();
    await this.lock.acquire();
    return super.acquireConnection();
  }

  override async releaseConnection(): Promise<void> {
    await super.releaseConnection();
    this.lock.release();
  }
}

/** Kysely's SQLite dialect over a shared connection lock, waiting for the loop turn or not (see above). */
export class GatehouseSqliteDialect extends SqliteDialect {
  constructor(
    private readonly database: SqliteDatabase,
    private readonly lock: ConnectionLock,
    private readonly waitForLoopTurn: boolean,
  ) {
    super({ database });
  }

  override createDriver(): Driver {
    return new LockedSqliteDriver(this.database, this.lock, this.waitForLoopTurn);
  }
}

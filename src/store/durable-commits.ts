import pg from 'pg';

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * PostgreSQL: a write's commit is made durable after its locks are released, not before.
 *
 * The writes of one organization queue on its position counter's row lock (change-log.ts), and a commit holds its
 * locks until the WAL is flushed: with a flush of 2-3 ms on a common disk, one organization could not pass a few
 * hundred commits a second however many writes waited. So a write's transaction commits with
 * `synchronous_commit = off` (its locks go at once, the next writer of the organization starts), and the write is
 * answered and announced only once this barrier has seen the WAL flushed past its commit record: nothing is
 * announced before it is durable, as before.
 *
 * The barrier is one autocommitted statement that writes a WAL record under a transaction id (a transactional
 * logical-decoding message, which needs no table and no privilege): its synchronous commit flushes the WAL up to its
 * own record, so past every commit made before it started. The writes that commit meanwhile share the next
 * flush, so a busy organization pays one flush per batch instead of one per write. What other sessions can see
 * between a commit and its flush is what PostgreSQL's own asynchronous commit allows: a crash in that window loses
 * the newest commits, all after the last flush (the WAL is one sequence), so positions stay gap-free. A flush that
 * fails fails the commits waiting for it, as a COMMIT whose connection is lost before its answer does: the write
 * may or may not have been made.
 */
export class DurableCommits {
  /** How many flushes were made (each made durable every commit before it). */
  flushes = 0;
  private waiting: Waiter[] = [];
  private flushing = false;
  private readonly pool: pg.Pool;

  constructor(config: pg.PoolConfig) {
    // One connection of its own, so that a flush never queues behind the writes it is to make durable.
    this.pool = new pg.Pool({ ...config, max: 1, application_name: 'gatehouse flush' });
    this.pool.on('error', () => {});
  }

  /** Resolves once every commit made before the call is durable. */
  flushed(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      if (!this.flushing) void this.drain();
    });
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private async drain(): Promise<void> {
    this.flushing = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting;
        this.waiting = [];
        try {
          await this.pool.query(`select pg_logical_emit_message(true, 'gatehouse', 'flush')`);
          this.flushes++;
          for (const w of batch) w.resolve();
        } catch (e) {
          for (const w of batch) w.reject(e);
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}

import { CompiledQuery, PostgresDialect, PostgresDriver, type DatabaseConnection, type QueryResult, type TransactionSettings } from 'kysely';
import pg from 'pg';
import type { DurableCommits } from './durable-commits.js';

/**
 * Kysely's PostgreSQL dialect, with every transaction begun and committed as this store needs:
 * - it begins with `synchronous_commit = off` for itself, so that its COMMIT releases its locks without waiting for
 *   the WAL flush, and the commit answers once the flush barrier has passed it (durable-commits.ts);
 * - its BEGIN is not a round trip of its own: it goes to the server with the transaction's first statement, in
 *   one write and under one Sync (EnclosedQuery), so a transaction of n statements costs n + 1 round trips, not
 *   n + 2. A transaction that runs no statement sends neither BEGIN nor COMMIT.
 * - its COMMIT can go the same way with its last statement (one marked by `committing`): the locks the transaction
 *   took are released as soon as the server has run it, not a round trip later, after this process has read the
 *   answer and sent the COMMIT behind whatever else its loop had to do. A transaction of n statements then costs n
 *   round trips. The change log's statement, which takes the organization's position lock, is such a last one.
 */
export class DurablePostgresDialect extends PostgresDialect {
  constructor(
    private readonly pool: pg.Pool,
    private readonly durable: DurableCommits,
  ) {
    super({ pool });
  }

  override createDriver(): PostgresDriver {
    return new DurablePostgresDriver(this.pool, this.durable);
  }
}

class DurablePostgresDriver extends PostgresDriver {
  constructor(
    private readonly pool: pg.Pool,
    private readonly durable: DurableCommits,
  ) {
    super({ pool });
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    return new PooledConnection(await this.pool.connect());
  }

  override async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PooledConnection).client.release();
  }

  override async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let begin = 'start transaction';
    if (settings.isolationLevel) begin += ` isolation level ${settings.isolationLevel}`;
    if (settings.accessMode) begin += ` ${settings.accessMode}`;
    (connection as PooledConnection).pendingBegin = [begin, 'set local synchronous_commit = off'];
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const pooled = connection as PooledConnection;
    if (pooled.dropPendingBegin()) return;
    if (!pooled.takeCommitted()) await connection.executeQuery(CompiledQuery.raw('commit'));
    await this.durable.flushed();
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const pooled = connection as PooledConnection;
    if (pooled.dropPendingBegin()) return;
    // A statement sent with its COMMIT failed, so the COMMIT never ran: the transaction is still open, aborted. (Had
    // the COMMIT itself failed, the transaction would have ended, and the ROLLBACK only draws a notice.)
    pooled.takeCommitted();
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
}

const COMMITS = Symbol('commits its transaction');

/**
 * A transaction's last statement, marked to be sent with its COMMIT (on PostgreSQL; elsewhere it runs as any other
 * statement). Nothing may run in the transaction after it.
 */
export function committing(compiled: CompiledQuery): CompiledQuery {
  return { ...compiled, [COMMITS]: true } as CompiledQuery;
}

/** A pooled client as Kysely's connection, holding its transaction's BEGIN until the first statement. */
class PooledConnection implements DatabaseConnection {
  /** The statements that begin the transaction, not sent yet. */
  pendingBegin: readonly string[] | null = null;
  /** The transaction's COMMIT went with a statement: the transaction has ended. */
  private committed = false;

  constructor(readonly client: pg.PoolClient) {}

  /** Forgets a BEGIN never sent: answers whether there was one (the transaction ran nothing, so has nothing to end). */
  dropPendingBegin(): boolean {
    const pending = this.pendingBegin !== null;
    this.pendingBegin = null;
    return pending;
  }

  /** Answers whether the COMMIT went with a statement (and forgets it: the connection goes back to the pool). */
  takeCommitted(): boolean {
    const committed = this.committed;
    this.committed = false;
    return committed;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // A statement after the COMMIT would run outside the transaction, committed on its own.
    if (this.committed) throw new Error('a statement after its transaction committed (committing() marks only the last)');
    try {
      const commits = (compiled as { [COMMITS]?: boolean })[COMMITS] === true;
      const { command, rowCount, rows } = await this.run(compiled.sql, [...compiled.parameters], commits);
      const counted = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
      return { rows: (rows ?? []) as R[], ...(counted && { numAffectedRows: BigInt(rowCount ?? 0) }) };
    } catch (error) {
      // pg raises a statement's error from its socket's read: the stack from here on says which call of ours ran it.
      if (error instanceof Error) error.stack += `\n${new Error().stack!.split('\n').slice(1).join('\n')}`;
      throw error;
    }
  }

  private async run(text: string, values: unknown[], commits: boolean): Promise<pg.QueryResult> {
    const begin = this.pendingBegin ?? [];
    this.pendingBegin = null;
    // A statement without parameters goes by the simple protocol (it may be several statements, as a migration
    // is), which cannot share a Sync with others: its BEGIN goes first, on its own, and its COMMIT is left to
    // commitTransaction.
    if (values.length === 0) {
      if (begin.length > 0) await this.client.query(begin.join('; '));
      return this.client.query({ text, values });
    }
    const end = commits ? ['commit'] : [];
    if (begin.length === 0 && end.length === 0) return this.client.query({ text, values });
    this.committed = commits;
    return new Promise((resolve, reject) =>
      this.client.query(new EnclosedQuery(begin, end, text, values, (error, result) => (error ? reject(error) : resolve(result)))),
    );
  }

  // eslint-disable-next-line require-yield -- no statement of this store streams its rows on PostgreSQL
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming rows is not supported by this store');
  }
}

/** What of pg's Query the extended protocol's messages go through (pg/lib/query.js; not in its types). */
interface QueryProtocol {
  prepare(connection: PgConnection): void;
  handleCommandComplete(message: unknown, connection: PgConnection): void;
}
interface PgConnection {
  parse(message: { text: string }): void;
  bind(message: object): void;
  execute(message: object): void;
}
const queryProtocol = pg.Query.prototype as unknown as QueryProtocol;

function sendStatement(connection: PgConnection, text: string): void {
  connection.parse({ text });
  connection.bind({});
  connection.execute({});
}

/**
 * A statement sent between the statements that begin its transaction and those that end it, all under its Sync:
 * Parse, Bind and Execute of each, in the one socket write pg makes of a query. Under one Sync they run in order and
 * stop at the first error, so the statement never runs outside its transaction (a BEGIN that fails fails the
 * statement with it) and a statement that fails is never committed. The others answer nothing but their
 * CommandComplete, which is passed over, so the result is the statement's alone; an error of any of them is its
 * error.
 */
class EnclosedQuery extends pg.Query {
  private completes = 0;

  constructor(
    private readonly before: readonly string[],
    private readonly after: readonly string[],
    text: string,
    values: unknown[],
    callback: (error: Error | null, result: pg.QueryResult) => void,
  ) {
    super({ text, values, callback } as pg.QueryConfig);
  }

  prepare(connection: PgConnection): void {
    for (const text of this.before) sendStatement(connection, text);
    if (this.after.length === 0) return queryProtocol.prepare.call(this, connection);
    // The ending statements follow the statement's Execute. Not its Sync: pg also sends a Sync, without an
    // Execute, when it cannot bind the values, and a COMMIT sent then would commit the transaction without it.
    const execute = connection.execute;
    connection.execute = (message) => {
      connection.execute = execute;
      execute.call(connection, message);
      for (const text of this.after) sendStatement(connection, text);
    };
    try {
      queryProtocol.prepare.call(this, connection);
    } finally {
      connection.execute = execute;
    }
  }

  handleCommandComplete(message: unknown, connection: PgConnection): void {
    if (this.completes++ === this.before.length) queryProtocol.handleCommandComplete.call(this, message, connection);
  }
}

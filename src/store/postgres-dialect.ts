import { CompiledQuery, PostgresDialect, PostgresDriver, type DatabaseConnection, type QueryResult, type TransactionSettings } from 'kysely';
import pg from 'pg';
import type { DurableCommits } from './durable-commits.js';

/**
 * Kysely's PostgreSQL dialect, with every transaction begun and committed as this store needs:
 * - it begins with `synchronous_commit = off` for itself, so that its COMMIT releases its locks without waiting for
 *   the WAL flush, and the commit answers once the flush barrier has passed it (durable-commits.ts);
 * - its BEGIN is not a round trip of its own: it goes to the server with the transaction's first statement, in
 *   one write and under one Sync (BeginningQuery), so a transaction of n statements costs n + 1 round trips, not
 *   n + 2. A transaction that runs no statement sends neither BEGIN nor COMMIT.
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
    if ((connection as PooledConnection).dropPendingBegin()) return;
    await connection.executeQuery(CompiledQuery.raw('commit'));
    await this.durable.flushed();
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if ((connection as PooledConnection).dropPendingBegin()) return;
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
}

/** A pooled client as Kysely's connection, holding its transaction's BEGIN until the first statement. */
class PooledConnection implements DatabaseConnection {
  /** The statements that begin the transaction, not sent yet. */
  pendingBegin: readonly string[] | null = null;

  constructor(readonly client: pg.PoolClient) {}

  /** Forgets a BEGIN never sent: answers whether there was one (the transaction ran nothing, so has nothing to end). */
  dropPendingBegin(): boolean {
    const pending = this.pendingBegin !== null;
    this.pendingBegin = null;
    return pending;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    try {
      const { command, rowCount, rows } = await this.run(compiled.sql, [...compiled.parameters]);
      const counted = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
      return { rows: (rows ?? []) as R[], ...(counted && { numAffectedRows: BigInt(rowCount ?? 0) }) };
    } catch (error) {
      // pg raises a statement's error from its socket's read: the stack from here on says which call of ours ran it.
      if (error instanceof Error) error.stack += `\n${new Error().stack!.split('\n').slice(1).join('\n')}`;
      throw error;
    }
  }

  private async run(text: string, values: unknown[]): Promise<pg.QueryResult> {
    const begin = this.pendingBegin;
    this.pendingBegin = null;
    if (!begin) return this.client.query({ text, values });
    // A statement without parameters goes by the simple protocol (it may be several statements, as a migration
    // is), which cannot share a Sync with the BEGIN: the BEGIN goes first, on its own.
    if (values.length === 0) {
      await this.client.query(begin.join('; '));
      return this.client.query({ text, values });
    }
    return new Promise((resolve, reject) =>
      this.client.query(new BeginningQuery(begin, text, values, (error, result) => (error ? reject(error) : resolve(result)))),
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

/**
 * A statement sent with the statements that begin its transaction before it, all under its Sync: Parse, Bind and
 * Execute of each beginning statement, then the statement's own messages, in the one socket write pg makes of a
 * query. Under one Sync they run in order and stop at the first error, so the statement never runs outside the
 * transaction: a BEGIN that fails fails the statement with it. The beginning statements answer nothing but their
 * CommandComplete, which is passed over, so the result is the statement's alone.
 */
class BeginningQuery extends pg.Query {
  private completesToSkip: number;

  constructor(
    private readonly begin: readonly string[],
    text: string,
    values: unknown[],
    callback: (error: Error | null, result: pg.QueryResult) => void,
  ) {
    super({ text, values, callback } as pg.QueryConfig);
    this.completesToSkip = begin.length;
  }

  prepare(connection: PgConnection): void {
    for (const text of this.begin) {
      connection.parse({ text });
      connection.bind({});
      connection.execute({});
    }
    queryProtocol.prepare.call(this, connection);
  }

  handleCommandComplete(message: unknown, connection: PgConnection): void {
    if (this.completesToSkip > 0) this.completesToSkip--;
    else queryProtocol.handleCommandComplete.call(this, message, connection);
  }
}

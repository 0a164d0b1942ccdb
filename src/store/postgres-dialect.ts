import { CompiledQuery, PostgresDialect, PostgresDriver, type DatabaseConnection, type PostgresDialectConfig, type TransactionSettings } from 'kysely';
import type { DurableCommits } from './durable-commits.js';

/**
 * Kysely's PostgreSQL dialect, with every transaction committed as durable-commits.ts says: it begins with
 * `synchronous_commit = off` for itself (in the same round trip as its BEGIN), so that its COMMIT releases its locks
 * without waiting for the WAL flush, and the commit answers once the flush barrier has passed it.
 */
export class DurablePostgresDialect extends PostgresDialect {
  constructor(
    private readonly driverConfig: PostgresDialectConfig,
    private readonly durable: DurableCommits,
  ) {
    super(driverConfig);
  }

  override createDriver(): PostgresDriver {
    return new DurablePostgresDriver(this.driverConfig, this.durable);
  }
}

class DurablePostgresDriver extends PostgresDriver {
  constructor(
    config: PostgresDialectConfig,
    private readonly durable: DurableCommits,
  ) {
    super(config);
  }

  override async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let begin = 'start transaction';
    if (settings.isolationLevel) begin += ` isolation level ${settings.isolationLevel}`;
    if (settings.accessMode) begin += ` ${settings.accessMode}`;
    // No parameters: pg sends it as one simple query, two statements in one round trip.
    await connection.executeQuery(CompiledQuery.raw(`${begin}; set local synchronous_commit = off`));
  }

  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await super.commitTransaction(connection);
    await this.durable.flushed();
  }
}

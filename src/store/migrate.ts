import { Migrator, type Kysely } from 'kysely';
import type { Store } from './database.js';
import { allMigrations } from './migrations/index.js';

/** Brings the store's schema up to date; safe to run on every start and from several processes. */
export async function migrateToLatest(store: Store): Promise<void> {
  const migrator = new Migrator({
    db: store.db as Kysely<unknown>,
    provider: { getMigrations: async () => allMigrations(store.dialect) },
    // Each migration creates or alters only its own domain's tables, so one that lands later under a lower
    // number (parallel branches) may still run on a store that already has the higher ones.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`migration ${failed ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

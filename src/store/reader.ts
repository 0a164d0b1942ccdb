import type { Kysely, Transaction } from 'kysely';
import type { Store } from './database.js';
import type { DB } from './schema.js';

/** A write's transaction (src/bus/write.ts opens it). */
export type Tx = Transaction<DB>;

/**
 * Where a lookup reads from: the store, or the transaction of a write in progress (so that a write sees
 * what it has written so far). Lookups that other domains call take either.
 */
export type ReadSource = { store: Pick<Store, 'db'> } | { tx: Tx };

export function dbOf(source: ReadSource): Kysely<DB> {
  return 'tx' in source ? source.tx : source.store.db;
}

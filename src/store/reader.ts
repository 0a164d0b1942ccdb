import type { Kysely } from 'kysely';
import type { Store } from './database.js';
import type { DB } from './schema.js';
import type { WriteScope } from './write.js';

/**
 * Where a lookup reads from: the store, or the transaction of a write in progress (so that a write sees
 * what it has written so far). Lookups that other domains call take either.
 */
export type ReadSource = { store: Pick<Store, 'db'> } | Pick<WriteScope, 'tx'>;

export function dbOf(source: ReadSource): Kysely<DB> {
  return 'tx' in source ? source.tx : source.store.db;
}

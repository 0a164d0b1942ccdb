import type { Kysely, Migration } from 'kysely';

/** API keys may carry an end of life: `gatehouse key create --expires-in`. */
export function keyLifetimes(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('api_keys').addColumn('expires_at_ms', 'bigint').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('api_keys').dropColumn('expires_at_ms').execute();
    },
  };
}

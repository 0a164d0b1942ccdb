import type { Kysely, Migration } from 'kysely';

/**
 * One value sealed with the instance's secret key when the store is first opened, so that an instance started
 * with another key (GATEHOUSE_SECRET_KEY not shared) is refused at start instead of failing on every secret.
 */
export function secretKeyCheck(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('secret_key_checks')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('sealed', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('secret_key_checks').execute();
    },
  };
}

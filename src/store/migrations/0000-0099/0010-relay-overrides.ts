import type { Kysely, Migration } from 'kysely';

/** Relays driven by a button rule for an override duration, until they are turned back (issue 8). */
export function relayOverrides(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('relay_overrides')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('relay_uuid', 'varchar(22)', (c) => c.notNull().references('devices.uuid').onDelete('cascade'))
        .addColumn('firing_uuid', 'varchar(22)', (c) => c.notNull())
        .addColumn('restore_state', 'text', (c) => c.notNull())
        .addColumn('restore_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('relay_overrides_by_time').on('relay_overrides').column('restore_at_ms').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('relay_overrides').execute();
    },
  };
}

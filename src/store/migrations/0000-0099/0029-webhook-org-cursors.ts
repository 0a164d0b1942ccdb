import type { Kysely, Migration } from 'kysely';

/**
 * The webhook dispatcher reads each organization's change log after a cursor on its positions, which
 * commit in order, instead of one cursor on the global change id, past which a change committing late on
 * PostgreSQL could fall (issue 22).
 */
export function webhookOrgCursors(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('webhook_org_cursors')
        .addColumn('org_uuid', 'varchar(22)', (c) => c.primaryKey().references('orgs.uuid').onDelete('cascade'))
        .addColumn('last_position', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.dropTable('webhook_dispatch_cursor').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('webhook_org_cursors').execute();
    },
  };
}

import type { Kysely, Migration } from 'kysely';

/** Reports (issue 20 item 3): when each running average was last reset, and device events by organization and time. */
export function reports(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('running_average_resets')
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('scope', 'varchar(16)', (c) => c.notNull())
        .addColumn('target_uuid', 'varchar(22)', (c) => c.notNull())
        .addColumn('reset_at_ms', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('running_average_resets_pk', ['org_uuid', 'scope', 'target_uuid'])
        .execute();
      // The diagnostic feed and its export read an organization's device events by time, newest first.
      await db.schema.createIndex('device_events_by_org').on('device_events').columns(['org_uuid', 'ts', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('device_events_by_org').execute();
      await db.schema.dropTable('running_average_resets').execute();
    },
  };
}

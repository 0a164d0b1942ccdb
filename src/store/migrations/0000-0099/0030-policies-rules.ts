import type { Kysely, Migration } from 'kysely';

/**
 * The general rule engine (issue 20 item 6): rules on device activity (policy alerts, door events), their
 * pauses, and the record of every rule firing (button rules too), claimed once per rule and source event.
 * Camera and door policies are org records (0020) and need no table.
 */
export function policiesRules(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('rules')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('name', 'varchar(200)')
        .addColumn('rule_type', 'varchar(40)', (c) => c.notNull())
        .addColumn('conjunction', 'varchar(10)', (c) => c.notNull())
        .addColumn('triggers', 'text', (c) => c.notNull())
        .addColumn('schedule_uuids', 'text', (c) => c.notNull())
        .addColumn('backoff_secs', 'integer', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('last_fired_at_ms', 'bigint')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('rules_org').on('rules').columns(['org_uuid', 'name']).execute();
      await db.schema
        .createTable('rule_pauses')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('rule_uuid', 'varchar(22)', (c) => c.notNull().references('rules.uuid').onDelete('cascade'))
        .addColumn('start_ms', 'bigint', (c) => c.notNull())
        .addColumn('duration_secs', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('rule_pauses_org').on('rule_pauses').columns(['org_uuid', 'rule_uuid']).execute();
      await db.schema
        .createTable('rule_event_records')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('rule_uuid', 'varchar(22)', (c) => c.notNull())
        .addColumn('source_uuid', 'varchar(64)', (c) => c.notNull())
        .addColumn('device_uuid', 'varchar(22)')
        .addColumn('triggered_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('record', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('rule_event_records_once').unique().on('rule_event_records').columns(['rule_uuid', 'source_uuid']).execute();
      await db.schema.createIndex('rule_event_records_org_time').on('rule_event_records').columns(['org_uuid', 'triggered_at_ms']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('rule_event_records').execute();
      await db.schema.dropTable('rule_pauses').execute();
      await db.schema.dropTable('rules').execute();
    },
  };
}

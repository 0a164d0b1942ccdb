import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

/** Button rules, presses, firings and the webhook signing secret (issue 8). */
export function rules(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const org = (c: ColumnDefinitionBuilder) => c.notNull().references('orgs.uuid').onDelete('cascade');
      const device = (c: ColumnDefinitionBuilder) => c.notNull().references('devices.uuid').onDelete('cascade');
      await db.schema
        .createTable('button_rules')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('sensor_uuid', 'varchar(22)', device)
        .addColumn('name', 'text')
        .addColumn('trigger_press', 'text', (c) => c.notNull())
        .addColumn('schedule_uuids', 'text', (c) => c.notNull())
        .addColumn('backoff_secs', 'integer', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('last_fired_at_ms', 'bigint')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('button_rules_by_sensor').on('button_rules').columns(['org_uuid', 'sensor_uuid']).execute();

      await db.schema
        .createTable('button_rule_schedules')
        .addColumn('rule_uuid', 'varchar(22)', (c) => c.notNull().references('button_rules.uuid').onDelete('cascade'))
        .addColumn('schedule_uuid', 'varchar(22)', (c) => c.notNull().references('schedules.uuid'))
        .addColumn('org_uuid', 'varchar(22)', org)
        .addPrimaryKeyConstraint('button_rule_schedules_pk', ['rule_uuid', 'schedule_uuid'])
        .execute();
      await db.schema.createIndex('button_rule_schedules_by_schedule').on('button_rule_schedules').columns(['org_uuid', 'schedule_uuid']).execute();

      await db.schema
        .createTable('button_presses')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('sensor_uuid', 'varchar(22)', device)
        .addColumn('location_uuid', 'varchar(22)')
        .addColumn('press', 'text', (c) => c.notNull())
        .addColumn('press_duration_ms', 'bigint')
        .addColumn('timestamp_ms', 'bigint', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('button_presses_by_sensor').on('button_presses').columns(['org_uuid', 'sensor_uuid', 'timestamp_ms']).execute();

      await db.schema
        .createTable('rule_firings')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('rule_uuid', 'varchar(22)', (c) => c.notNull())
        .addColumn('sensor_uuid', 'varchar(22)', device)
        .addColumn('press_uuid', 'varchar(22)', (c) => c.notNull().references('button_presses.uuid').onDelete('cascade'))
        .addColumn('fired_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('outcomes', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('rule_firings_by_sensor').on('rule_firings').columns(['org_uuid', 'sensor_uuid', 'fired_at_ms']).execute();

      await db.schema
        .createTable('webhook_secrets')
        .addColumn('org_uuid', 'varchar(22)', (c) => c.primaryKey().references('orgs.uuid').onDelete('cascade'))
        .addColumn('sealed_secret', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}

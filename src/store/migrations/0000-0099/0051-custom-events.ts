import type { Kysely, Migration } from 'kysely';

/**
 * Scene-query prompts and their answers (issue 20): a prompt configuration (what to ask of which cameras, and
 * the condition an answer is checked against), and each answer a camera's prompt gave: the custom events the
 * custom-event reports read, by prompt or device and time.
 */
export function customEvents(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('prompt_configurations')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('prompt_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('prompt_configurations_by_org').on('prompt_configurations').columns(['org_uuid', 'name']).execute();
      await db.schema
        .createTable('custom_events')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('prompt_uuid', 'varchar(22)', (c) => c.notNull().references('prompt_configurations.uuid').onDelete('cascade'))
        .addColumn('device_uuid', 'varchar(22)', (c) => c.notNull().references('devices.uuid').onDelete('cascade'))
        .addColumn('location_uuid', 'varchar(22)')
        .addColumn('timestamp_ms', 'bigint', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('numeric_value', 'double precision')
        .addColumn('check_result', 'integer')
        .addColumn('prompt_text', 'text', (c) => c.notNull())
        .execute();
      // The reports read a prompt's answers by time, or every answer of the organization by time.
      await db.schema.createIndex('custom_events_by_prompt').on('custom_events').columns(['org_uuid', 'prompt_uuid', 'timestamp_ms']).execute();
      await db.schema.createIndex('custom_events_by_org').on('custom_events').columns(['org_uuid', 'timestamp_ms', 'uuid']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('custom_events').execute();
      await db.schema.dropTable('prompt_configurations').execute();
    },
  };
}

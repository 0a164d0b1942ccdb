import type { Kysely, Migration } from 'kysely';

/** The rules a door controller runs on its own (doorcontroller/*DoorControllerRule, the platform's newer spec). */
export function doorControllerRules(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('door_controller_rules')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('device_uuid', 'varchar(22)', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('rule_type', 'varchar(64)', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('door_controller_rules_by_device').on('door_controller_rules').columns(['org_uuid', 'device_uuid', 'uuid']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('door_controller_rules').execute();
    },
  };
}

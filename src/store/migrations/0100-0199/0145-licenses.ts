import type { Kysely, Migration } from 'kysely';

/** Licenses and their assignment to devices, doors and locations (license/*, issue 34). */
export function licenses(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('licenses')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('product_type', 'varchar(32)', (c) => c.notNull())
        .addColumn('license_type', 'varchar(32)')
        .addColumn('license_family', 'varchar(32)')
        .addColumn('add_on', 'varchar(32)')
        .addColumn('device_uuid', 'varchar(22)')
        .addColumn('door_uuid', 'varchar(22)')
        .addColumn('location_uuid', 'varchar(22)')
        .addColumn('allowed_device_count', 'integer')
        .addColumn('trial', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('claim_key_uuid', 'varchar(22)')
        .addColumn('first_assigned_ms', 'bigint')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('licenses_by_org').on('licenses').columns(['org_uuid', 'product_type']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('licenses').execute();
    },
  };
}

import type { Kysely, Migration } from 'kysely';

/** Devices in full (issue 19): keypads' activation tokens and alert monitoring's custom pins. */
export function devicesInFull(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // A token a keypad shows until someone claims it; only its digest is kept. Unclaimed, it has no organization.
      await db.schema
        .createTable('keypad_activation_tokens')
        .addColumn('token_digest', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('platform', 'text')
        .addColumn('ip_address', 'text')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('expires_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.references('orgs.uuid').onDelete('cascade'))
        .addColumn('keypad_uuid', 'varchar(22)')
        .addColumn('claimed_at_ms', 'bigint')
        .execute();
      await db.schema
        .createTable('alert_monitoring_pins')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('location_uuid', 'varchar(22)', (c) => c.notNull().references('locations.uuid').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('pin_digest', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('alert_monitoring_pins_by_location').on('alert_monitoring_pins').columns(['org_uuid', 'location_uuid']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('alert_monitoring_pins').execute();
      await db.schema.dropTable('keypad_activation_tokens').execute();
    },
  };
}

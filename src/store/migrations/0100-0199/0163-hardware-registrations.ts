import type { Kysely, Migration } from 'kysely';

/** Shipments of hardware, their units and the units' pending registrations (org/*PendingRegistration, issue 34). */
export function hardwareRegistrations(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('hardware_shipments')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('token_digest', 'varchar(22)', (c) => c.notNull().unique())
        .addColumn('claimed_org_uuid', 'varchar(22)', (c) => c.references('orgs.uuid').onDelete('set null'))
        .addColumn('claimed_at_ms', 'bigint')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('shipped_hardware')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('shipment_uuid', 'varchar(22)', (c) => c.notNull().references('hardware_shipments.uuid').onDelete('cascade'))
        .addColumn('serial_number', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('mac_address', 'varchar(17)')
        .addColumn('device_type', 'varchar(32)', (c) => c.notNull())
        .addColumn('hw_variation', 'varchar(40)')
        .addColumn('org_uuid', 'varchar(22)', (c) => c.references('orgs.uuid').onDelete('set null'))
        .addColumn('device_uuid', 'varchar(22)')
        .addColumn('pending_at_ms', 'bigint')
        .addColumn('pending_name', 'varchar(200)')
        .addColumn('pending_location_uuid', 'varchar(22)')
        .addColumn('pending_policy_uuid', 'varchar(22)')
        .addColumn('pending_wifi_ssid', 'varchar(64)')
        .addColumn('pending_wifi_psk_sealed', 'text')
        .addColumn('manufactured_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('shipped_hardware_by_org').on('shipped_hardware').columns(['org_uuid']).execute();
      await db.schema.createIndex('shipped_hardware_by_shipment').on('shipped_hardware').columns(['shipment_uuid']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('shipped_hardware').execute();
      await db.schema.dropTable('hardware_shipments').execute();
    },
  };
}

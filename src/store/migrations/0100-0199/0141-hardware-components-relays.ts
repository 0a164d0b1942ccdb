import type { Kysely, Migration } from 'kysely';

/**
 * Hardware components of door controllers and readers (component/*), their devices' port configurations, and
 * what relays and NVRs find of third-party cameras (relay/*): the discoveries' details, their RTSP endpoints
 * and the organization's saved camera passwords (sealed).
 */
export function hardwareComponentsRelays(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('hardware_components')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('owner_device_uuid', 'varchar(22)', (c) => c.notNull())
        .addColumn('type', 'varchar(64)', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('state', 'varchar(32)')
        .addColumn('state_at_ms', 'bigint')
        .addColumn('transient_until_ms', 'bigint')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('hardware_components_by_owner').on('hardware_components').columns(['org_uuid', 'owner_device_uuid']).execute();
      await db.schema
        .createTable('device_port_configs')
        .addColumn('owner_device_uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.alterTable('third_party_camera_discoveries').addColumn('details', 'text').execute();
      await db.schema
        .createTable('third_party_rtsp_endpoints')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('mac_address', 'varchar(17)', (c) => c.notNull())
        .addColumn('rtsp_url', 'text', (c) => c.notNull())
        .addColumn('source', 'varchar(16)', (c) => c.notNull())
        .addColumn('username', 'text')
        .addColumn('password_sealed', 'text')
        .addColumn('last_status', 'varchar(32)', (c) => c.notNull())
        .addColumn('camera_uuid', 'varchar(22)')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('third_party_rtsp_endpoints_by_mac').on('third_party_rtsp_endpoints').columns(['org_uuid', 'mac_address']).execute();
      await db.schema
        .createTable('third_party_camera_passwords')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('password_sealed', 'text', (c) => c.notNull())
        .addColumn('notes', 'text')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('third_party_camera_passwords_by_org').on('third_party_camera_passwords').columns(['org_uuid']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['third_party_camera_passwords', 'third_party_rtsp_endpoints', 'device_port_configs', 'hardware_components'])
        await db.schema.dropTable(table).execute();
      await db.schema.alterTable('third_party_camera_discoveries').dropColumn('details').execute();
    },
  };
}

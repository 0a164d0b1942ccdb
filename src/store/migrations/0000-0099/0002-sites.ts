import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';

/** Sites: locations, devices, discoveries, schedules, doors, people and shipments (issue 3). */
export function sites(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const org = (c: ColumnDefinitionBuilder) => c.notNull().references('orgs.uuid').onDelete('cascade');
      await db.schema
        .createTable('locations')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('time_zone', 'text', (c) => c.notNull())
        .addColumn('monitoring_pin_digest', 'text')
        .addColumn('address1', 'text')
        .addColumn('address2', 'text')
        .addColumn('city', 'text')
        .addColumn('postal_code', 'text')
        .addColumn('country_code', 'text')
        .addColumn('latitude', 'double precision')
        .addColumn('longitude', 'double precision')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('locations_by_org').on('locations').columns(['org_uuid', 'name']).execute();

      await db.schema
        .createTable('devices')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('location_uuid', 'varchar(22)', (c) => c.references('locations.uuid').onDelete('set null'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('serial_number', 'text')
        .addColumn('firmware_version', 'text')
        .addColumn('connection_status', 'text', (c) => c.notNull())
        .addColumn('health_status', 'text', (c) => c.notNull())
        .addColumn('mac_address', 'text')
        .addColumn('attributes', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('devices_by_org_kind').on('devices').columns(['org_uuid', 'kind', 'name']).execute();
      await db.schema.createIndex('devices_by_location').on('devices').columns(['location_uuid']).execute();

      await db.schema
        .createTable('third_party_camera_discoveries')
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('mac_address', 'varchar(17)', (c) => c.notNull())
        .addColumn('assignments', 'integer', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('third_party_camera_discoveries_pk', ['org_uuid', 'mac_address'])
        .execute();

      await db.schema
        .createTable('schedules')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('intervals', 'text', (c) => c.notNull())
        .addColumn('mutable', 'integer', (c) => c.notNull())
        .addColumn('one_time_use', 'integer', (c) => c.notNull())
        .addColumn('strategy', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('schedules_by_org').on('schedules').columns(['org_uuid', 'name']).execute();

      await db.schema
        .createTable('doors')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('location_uuid', 'varchar(22)', (c) => c.notNull().references('locations.uuid'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('has_lock', 'integer', (c) => c.notNull())
        .addColumn('schedule_uuid', 'varchar(22)', (c) => c.references('schedules.uuid'))
        .addColumn('controller_device_uuid', 'varchar(22)', (c) => c.references('devices.uuid'))
        .addColumn('unlock_duration_ms', 'integer', (c) => c.notNull())
        .addColumn('position', 'text', (c) => c.notNull())
        .addColumn('lock_state', 'text', (c) => c.notNull())
        .addColumn('controller_online', 'integer', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('doors_by_org').on('doors').columns(['org_uuid', 'name']).execute();
      await db.schema.createIndex('doors_by_location').on('doors').columns(['location_uuid']).execute();
      await db.schema.createIndex('doors_by_schedule').on('doors').columns(['schedule_uuid']).execute();
      await db.schema.createIndex('doors_by_controller').on('doors').columns(['controller_device_uuid']).execute();

      await db.schema
        .createTable('door_cameras')
        .addColumn('door_uuid', 'varchar(22)', (c) => c.notNull().references('doors.uuid').onDelete('cascade'))
        .addColumn('camera_uuid', 'varchar(22)', (c) => c.notNull().references('devices.uuid').onDelete('cascade'))
        .addColumn('org_uuid', 'varchar(22)', org)
        .addPrimaryKeyConstraint('door_cameras_pk', ['door_uuid', 'camera_uuid'])
        .execute();
      await db.schema.createIndex('door_cameras_by_camera').on('door_cameras').columns(['camera_uuid']).execute();

      await db.schema
        .createTable('door_access')
        .addColumn('door_uuid', 'varchar(22)', (c) => c.notNull().references('doors.uuid').onDelete('cascade'))
        .addColumn('user_uuid', 'varchar(22)', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
        .addColumn('org_uuid', 'varchar(22)', org)
        .addPrimaryKeyConstraint('door_access_pk', ['door_uuid', 'user_uuid'])
        .execute();
      await db.schema.createIndex('door_access_by_user').on('door_access').columns(['user_uuid']).execute();

      await db.schema
        .createTable('people')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('people_by_org').on('people').columns(['org_uuid', 'name']).execute();

      await db.schema
        .createTable('shipments')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('crm_opp_id', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('items', 'text', (c) => c.notNull())
        .addColumn('tracking_identifier', 'text')
        .addColumn('email_state', 'text')
        .addColumn('email_sent_at_ms', 'bigint')
        .addColumn('email_error', 'text')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('shipments_org_opp', ['org_uuid', 'crm_opp_id'])
        .execute();
    },
  };
}

import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import type { DialectName } from '../../database.js';
import { withSerialId } from '../../columns.js';

/** Configuration on the site model: video walls, footage bounding boxes, alert monitoring, elevator labels (issue 3). */
export function config(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const org = (c: ColumnDefinitionBuilder) => c.notNull().references('orgs.uuid').onDelete('cascade');

      await db.schema
        .createTable('video_walls')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('owner_user_uuid', 'varchar(22)')
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('device_list', 'text', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('shared', 'integer', (c) => c.notNull())
        .addColumn('others_can_edit', 'integer', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('video_walls_by_org').on('video_walls').columns(['org_uuid', 'display_name']).execute();

      await withSerialId(db.schema.createTable('footage_bounding_boxes'), dialect)
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('camera_uuid', 'varchar(22)', (c) => c.notNull().references('devices.uuid').onDelete('cascade'))
        .addColumn('ts', 'bigint', (c) => c.notNull())
        .addColumn('box', 'text', (c) => c.notNull())
        .execute();
      // Read by camera over a time range.
      await db.schema.createIndex('footage_bounding_boxes_by_camera_ts').on('footage_bounding_boxes').columns(['camera_uuid', 'ts', 'id']).execute();

      await db.schema
        .createTable('location_monitoring')
        .addColumn('location_uuid', 'varchar(22)', (c) => c.primaryKey().references('locations.uuid').onDelete('cascade'))
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('enabled_on_ms', 'bigint')
        .addColumn('disabled_on_ms', 'bigint')
        .execute();

      await db.schema
        .createTable('elevator_landing_labels')
        .addColumn('landing_uuid', 'varchar(22)', (c) => c.notNull().references('devices.uuid').onDelete('cascade'))
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('elevator_landing_labels_pk', ['landing_uuid', 'label'])
        .execute();
      await db.schema.createIndex('elevator_landing_labels_by_org').on('elevator_landing_labels').columns(['org_uuid', 'landing_uuid']).execute();

      // Keyset paging of an organization's devices of a kind (elevator landing shadows), whole org or one location.
      await db.schema.createIndex('devices_by_org_kind_uuid').on('devices').columns(['org_uuid', 'kind', 'uuid']).execute();
      await db.schema.createIndex('devices_by_location_kind_uuid').on('devices').columns(['location_uuid', 'kind', 'uuid']).execute();
    },
  };
}

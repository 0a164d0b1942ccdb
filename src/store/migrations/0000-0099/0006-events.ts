import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import type { DialectName } from '../../database.js';
import { withSerialId } from '../../columns.js';

/** Events: policy alerts, saved clips and line-crossing counts (issue 5). */
export function events(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const org = (c: ColumnDefinitionBuilder) => c.notNull().references('orgs.uuid').onDelete('cascade');
      await db.schema
        .createTable('policy_alerts')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('device_uuid', 'varchar(22)', (c) => c.notNull().references('devices.uuid').onDelete('cascade'))
        .addColumn('location_uuid', 'varchar(22)')
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('device_type', 'text', (c) => c.notNull())
        .addColumn('timestamp_ms', 'bigint', (c) => c.notNull())
        .addColumn('duration_sec', 'integer')
        .addColumn('triggers', 'text', (c) => c.notNull())
        .addColumn('text_description', 'text')
        .addColumn('saved', 'integer', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .execute();
      // The cursor of getPolicyAlertGroupsForDevice: (timestamp, uuid) descending within a device.
      await db.schema.createIndex('policy_alerts_by_device').on('policy_alerts').columns(['org_uuid', 'device_uuid', 'timestamp_ms', 'uuid']).execute();
      await db.schema.createIndex('policy_alerts_by_org').on('policy_alerts').columns(['org_uuid', 'timestamp_ms', 'uuid']).execute();

      await db.schema
        .createTable('saved_clips')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('device_uuid', 'varchar(22)', (c) => c.notNull().references('devices.uuid').onDelete('cascade'))
        .addColumn('source_alert_uuid', 'varchar(22)')
        .addColumn('user_uuid', 'varchar(22)')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('timestamp_ms', 'bigint', (c) => c.notNull())
        .addColumn('duration_sec', 'integer', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('title', 'text')
        .addColumn('description', 'text')
        .addColumn('sha256_hex', 'text')
        .addColumn('byte_count', 'bigint')
        .addColumn('video_content_type', 'text')
        .addColumn('thumbnail_content_type', 'text')
        .addColumn('details', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('saved_clips_by_org').on('saved_clips').columns(['org_uuid', 'timestamp_ms', 'uuid']).execute();

      await withSerialId(db.schema.createTable('crossing_events'), dialect)
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('device_uuid', 'varchar(22)', (c) => c.notNull().references('devices.uuid').onDelete('cascade'))
        .addColumn('object', 'text', (c) => c.notNull())
        .addColumn('timestamp_ms', 'bigint', (c) => c.notNull())
        .addColumn('ingress', 'integer', (c) => c.notNull())
        .addColumn('egress', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('crossing_events_by_device').on('crossing_events').columns(['org_uuid', 'device_uuid', 'object', 'timestamp_ms']).execute();
      await db.schema.createIndex('crossing_events_by_org').on('crossing_events').columns(['org_uuid', 'object', 'timestamp_ms']).execute();
    },
  };
}

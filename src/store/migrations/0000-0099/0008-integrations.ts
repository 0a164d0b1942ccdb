import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import type { DialectName } from '../../database.js';
import { withSerialId } from '../../columns.js';

/** Integrations with their sealed secrets, badge events, seek points, and the durable delivery outbox (issue 7). */
export function integrations(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const org = (c: ColumnDefinitionBuilder) => c.notNull().references('orgs.uuid').onDelete('cascade');
      await db.schema
        .createTable('integrations')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('settings', 'text', (c) => c.notNull())
        .addColumn('secrets', 'text', (c) => c.notNull())
        .addColumn('audit_map', 'text', (c) => c.notNull())
        .addColumn('webhook_uuid', 'varchar(64)', (c) => c.unique())
        .addColumn('api_key_id', 'varchar(22)')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('integrations_org_kind', ['org_uuid', 'kind'])
        .execute();

      await db.schema
        .createTable('badge_events')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('external_id', 'text')
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('door_key', 'text', (c) => c.notNull())
        .addColumn('door_name', 'text')
        .addColumn('location_uuid', 'varchar(22)')
        .addColumn('camera_uuids', 'text', (c) => c.notNull())
        .addColumn('holder_name', 'text')
        .addColumn('holder_person_uuid', 'varchar(22)')
        .addColumn('face_mismatch', 'integer', (c) => c.notNull())
        .addColumn('timestamp_ms', 'bigint', (c) => c.notNull())
        .addColumn('received_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('badge_events_by_door').on('badge_events').columns(['org_uuid', 'door_key', 'timestamp_ms']).execute();

      await db.schema
        .createTable('badge_webhook_signatures')
        .addColumn('signature', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('seen_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('badge_webhook_signatures_by_age').on('badge_webhook_signatures').columns(['seen_at_ms']).execute();

      await db.schema
        .createTable('seek_points')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('camera_uuid', 'varchar(22)', (c) => c.notNull().references('devices.uuid').onDelete('cascade'))
        .addColumn('timestamp_ms', 'bigint', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('source_uuid', 'varchar(22)', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('seek_points_by_camera').on('seek_points').columns(['camera_uuid', 'timestamp_ms']).execute();
      await db.schema.createIndex('seek_points_by_source').on('seek_points').columns(['source_uuid']).execute();

      await withSerialId(db.schema.createTable('outbox_deliveries'), dialect)
        .addColumn('uuid', 'varchar(22)', (c) => c.notNull().unique())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('dedupe_key', 'text', (c) => c.notNull())
        .addColumn('target_url', 'text', (c) => c.notNull())
        .addColumn('headers', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('claim_token', 'varchar(32)')
        .addColumn('last_error', 'text')
        .addColumn('last_status_code', 'integer')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('delivered_at_ms', 'bigint')
        .addUniqueConstraint('outbox_deliveries_org_key', ['org_uuid', 'dedupe_key'])
        .execute();
      // Workers look for due rows by status and time; the log pages an organization's rows by id.
      await db.schema.createIndex('outbox_deliveries_due').on('outbox_deliveries').columns(['status', 'next_attempt_at_ms']).execute();
      await db.schema.createIndex('outbox_deliveries_by_org').on('outbox_deliveries').columns(['org_uuid', 'id']).execute();
      await db.schema.createIndex('outbox_deliveries_by_org_kind').on('outbox_deliveries').columns(['org_uuid', 'kind', 'id']).execute();
    },
  };
}

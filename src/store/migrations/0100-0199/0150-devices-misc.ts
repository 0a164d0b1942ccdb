import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../../database.js';
import { withSerialId } from '../../columns.js';

/**
 * The remaining device-side operations (issue 34): TV app configs, audio clips for the audio gateways,
 * uploaded images (logos, floor plans, badge template images, profile photos), cameras' batch registration
 * tokens and their uses, and RMAs. Files themselves live on the media storage; rows keep their keys.
 */
export function devicesMisc(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('tvos_configs')
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('uuid', 'varchar(22)', (c) => c.notNull())
        .addColumn('limited_video_wall_uuids', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('tvos_configs_pk', ['org_uuid', 'uuid'])
        .execute();
      await db.schema
        .createTable('audio_uploads')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('audio_plaintext', 'text')
        .addColumn('audio_ssml', 'text')
        .addColumn('voice_id', 'varchar(64)')
        .addColumn('duration_ms', 'bigint', (c) => c.notNull())
        .addColumn('media_key', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audio_uploads_by_org').on('audio_uploads').columns(['org_uuid', 'display_name']).execute();
      await db.schema
        .createTable('uploaded_images')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
        .addColumn('target_uuid', 'varchar(22)')
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('content_type', 'varchar(32)', (c) => c.notNull())
        .addColumn('byte_size', 'integer', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('media_key', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('uploaded_images_by_purpose').on('uploaded_images').columns(['org_uuid', 'purpose', 'target_uuid']).execute();
      await db.schema
        .createTable('camera_batch_registrations')
        .addColumn('token', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('location_uuid', 'varchar(22)')
        .addColumn('policy_uuid', 'varchar(22)')
        .addColumn('latitude', 'double precision')
        .addColumn('longitude', 'double precision')
        .addColumn('admin_groups', 'text', (c) => c.notNull())
        .addColumn('read_only_groups', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await withSerialId(db.schema.createTable('camera_batch_registration_uses'), dialect)
        .addColumn('token', 'varchar(22)', (c) => c.notNull().references('camera_batch_registrations.token').onDelete('cascade'))
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull())
        .addColumn('device_uuid', 'varchar(22)')
        .addColumn('hardware_uuid', 'varchar(22)', (c) => c.notNull())
        .addColumn('serial_number', 'text', (c) => c.notNull())
        .addColumn('result', 'varchar(64)', (c) => c.notNull())
        .addColumn('ts', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('camera_batch_registration_uses_by_token').on('camera_batch_registration_uses').columns(['token', 'ts']).execute();
      await db.schema
        .createTable('rmas')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('device_uuid', 'varchar(22)')
        .addColumn('status', 'varchar(64)', (c) => c.notNull())
        .addColumn('warranty_approved', 'integer', (c) => c.notNull())
        .addColumn('zendesk_ticket', 'integer')
        .addColumn('record', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('rmas_by_org').on('rmas').columns(['org_uuid', 'created_at_ms']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const t of ['rmas', 'camera_batch_registration_uses', 'camera_batch_registrations', 'uploaded_images', 'audio_uploads', 'tvos_configs']) {
        await db.schema.dropTable(t).execute();
      }
    },
  };
}

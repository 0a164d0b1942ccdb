import type { Kysely, Migration } from 'kysely';

/**
 * Camera media (issue 19): what a saved clip holds (a spliced frame, a timelapse, or a clip), what a shared group
 * shares (clips or timelapses), shared live video streams and shared video walls (key-less links to the cameras'
 * live video), and raw HTTP streams (each with its sealed secret).
 */
export function cameraMedia(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('saved_clips')
        .addColumn('kind', 'varchar(16)', (c) => c.notNull().defaultTo('CLIP'))
        .execute();
      await db.schema.createIndex('saved_clips_by_kind').on('saved_clips').columns(['org_uuid', 'kind', 'created_at_ms']).execute();
      await db.schema
        .alterTable('shared_clip_groups')
        .addColumn('kind', 'varchar(16)', (c) => c.notNull().defaultTo('CLIPS'))
        .execute();

      await db.schema
        .createTable('shared_live_streams')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('device_uuid', 'varchar(22)')
        .addColumn('video_wall_uuid', 'varchar(22)')
        .addColumn('name', 'text')
        .addColumn('stream_type', 'varchar(32)', (c) => c.notNull())
        .addColumn('vod_enabled', 'integer', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('expires_at_ms', 'bigint')
        .addColumn('password_digest', 'text')
        .addColumn('share_token', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('settings', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('shared_live_streams_by_device').on('shared_live_streams').columns(['org_uuid', 'device_uuid']).execute();
      await db.schema.createIndex('shared_live_streams_by_wall').on('shared_live_streams').columns(['org_uuid', 'video_wall_uuid']).execute();

      await db.schema
        .createTable('raw_http_streams')
        .addColumn('custom_path_part', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('device_uuid', 'varchar(22)', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('stream_type', 'varchar(32)', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .addColumn('secret_sealed', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('raw_http_streams_by_device').on('raw_http_streams').columns(['org_uuid', 'device_uuid']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('raw_http_streams').execute();
      await db.schema.dropTable('shared_live_streams').execute();
      await db.schema.alterTable('shared_clip_groups').dropColumn('kind').execute();
      await db.schema.dropIndex('saved_clips_by_kind').execute();
      await db.schema.alterTable('saved_clips').dropColumn('kind').execute();
    },
  };
}

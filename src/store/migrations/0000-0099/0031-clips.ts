import type { Kysely, Migration } from 'kysely';

/**
 * The saved-clip workflow (issue 20 item 2): clips spliced from a camera's footage and rendered by Gatehouse
 * (with the attempt that owns the render), their visibility, external transaction id and last update; and the
 * shared clip groups whose links the media host serves without an API key until they expire.
 */
export function clips(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      // One column per statement: SQLite adds one at a time.
      await db.schema
        .alterTable('saved_clips')
        .addColumn('spliced', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('saved_clips')
        .addColumn('render_attempt', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('saved_clips')
        .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('ORG_WIDE'))
        .execute();
      await db.schema.alterTable('saved_clips').addColumn('external_transaction_id', 'text').execute();
      await db.schema.alterTable('saved_clips').addColumn('updated_at_ms', 'bigint').execute();
      await db.schema.createIndex('saved_clips_by_transaction').on('saved_clips').columns(['org_uuid', 'external_transaction_id']).execute();
      await db.schema.createIndex('saved_clips_by_status').on('saved_clips').columns(['status', 'spliced']).execute();

      await db.schema
        .createTable('shared_clip_groups')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('title', 'text')
        .addColumn('description', 'text')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('expiration_time_secs', 'integer', (c) => c.notNull())
        .addColumn('expires_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('password_digest', 'text')
        .addColumn('share_token', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('clips', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('shared_clip_groups_by_org').on('shared_clip_groups').columns(['org_uuid', 'created_at_ms']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('shared_clip_groups').execute();
      await db.schema.dropIndex('saved_clips_by_status').execute();
      await db.schema.dropIndex('saved_clips_by_transaction').execute();
      for (const column of ['updated_at_ms', 'external_transaction_id', 'visibility', 'render_attempt', 'spliced']) {
        await db.schema.alterTable('saved_clips').dropColumn(column).execute();
      }
    },
  };
}

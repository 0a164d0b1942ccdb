import type { Kysely, Migration } from 'kysely';

/**
 * Clip groups (issue 20): an organization's folders of saved clips, and which clips each holds in which order.
 * A saved clip may sit in several groups; deleting the clip takes it out of them (the service announces each
 * group's change first; the cascade keeps the rows right whatever deletes the clip).
 */
export function clipGroups(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('clip_groups')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('title', 'text')
        .addColumn('description', 'text')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('clip_groups_by_org').on('clip_groups').columns(['org_uuid', 'created_at_ms']).execute();
      await db.schema
        .createTable('clip_group_clips')
        .addColumn('group_uuid', 'varchar(22)', (c) => c.notNull().references('clip_groups.uuid').onDelete('cascade'))
        .addColumn('clip_uuid', 'varchar(22)', (c) => c.notNull().references('saved_clips.uuid').onDelete('cascade'))
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('clip_group_clips_pk', ['group_uuid', 'clip_uuid'])
        .execute();
      await db.schema.createIndex('clip_group_clips_by_clip').on('clip_group_clips').columns(['org_uuid', 'clip_uuid']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('clip_group_clips').execute();
      await db.schema.dropTable('clip_groups').execute();
    },
  };
}

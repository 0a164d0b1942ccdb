import type { Kysely, Migration } from 'kysely';

/**
 * The organization's structure, finished (issue 18): team names (unique across organizations), the sealed SCIM token, each user's
 * partner permission group, notification snoozes (read at every notification), the per-user notifications
 * sent (one per user and source, so that instances sharing a bus send each once), and licences.
 */
export function orgsFinished(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('orgs').addColumn('team_name', 'varchar(100)').execute();
      await db.schema.createIndex('orgs_by_team_name').on('orgs').columns(['team_name']).unique().execute();
      await db.schema.alterTable('orgs').addColumn('scim_token_sealed', 'text').execute();

      await db.schema.alterTable('users').addColumn('partner_group_uuid', 'varchar(22)').execute();
      await db.schema.createIndex('users_by_partner_group').on('users').columns(['org_uuid', 'partner_group_uuid']).execute();

      await db.schema
        .createTable('notification_snoozes')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('user_uuid', 'varchar(22)', (c) => c.notNull())
        .addColumn('scope', 'varchar(32)', (c) => c.notNull())
        .addColumn('target_uuid', 'varchar(64)')
        .addColumn('starts_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('ends_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('notification_snoozes_by_user').on('notification_snoozes').columns(['org_uuid', 'user_uuid', 'ends_at_ms']).execute();

      await db.schema
        .createTable('user_notifications')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('user_uuid', 'varchar(22)', (c) => c.notNull())
        .addColumn('source_uuid', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('user_notifications_once').on('user_notifications').columns(['user_uuid', 'source_uuid']).unique().execute();
      await db.schema.createIndex('user_notifications_by_org').on('user_notifications').columns(['org_uuid', 'user_uuid', 'created_at_ms']).execute();
    },
  };
}

import type { Kysely, Migration } from 'kysely';

/**
 * The organization's structure (issue 18): sub-locations and location labels, permission groups and each
 * user's group, one e-mail address per user per organization, and the audit feed's indexes.
 */
export function orgStructure(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('locations').addColumn('parent_uuid', 'varchar(22)').execute();
      await db.schema.createIndex('locations_by_parent').on('locations').columns(['parent_uuid']).execute();
      await db.schema
        .createTable('location_labels')
        .addColumn('location_uuid', 'varchar(22)', (c) => c.notNull().references('locations.uuid').onDelete('cascade'))
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('label', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('location_labels_pk', ['location_uuid', 'label'])
        .execute();
      await db.schema.createIndex('location_labels_by_org').on('location_labels').columns(['org_uuid', 'label']).execute();

      await db.schema
        .createTable('permission_groups')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('super_admin', 'integer', (c) => c.notNull())
        .addColumn('functionality', 'text', (c) => c.notNull())
        .addColumn('location_access', 'text')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('permission_groups_org_name', ['org_uuid', 'name'])
        .execute();

      await db.schema.alterTable('users').addColumn('permission_group_uuid', 'varchar(22)').execute();
      await db.schema.alterTable('users').addColumn('updated_at_ms', 'bigint').execute();
      await db.schema.createIndex('users_by_group').on('users').columns(['permission_group_uuid']).execute();
      await db.schema.createIndex('users_email_by_org').on('users').columns(['org_uuid', 'email']).unique().execute();

      await db.schema.createIndex('audit_by_principal').on('audit_log').columns(['org_uuid', 'user_uuid', 'id']).execute();
      await db.schema.createIndex('audit_by_target').on('audit_log').columns(['org_uuid', 'entity_uuid', 'id']).execute();
      await db.schema.createIndex('api_keys_by_user').on('api_keys').columns(['user_uuid']).execute();
    },
  };
}

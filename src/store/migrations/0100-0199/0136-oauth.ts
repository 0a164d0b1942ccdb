import type { Kysely, Migration } from 'kysely';

/**
 * OAuth as the platform does it (issue 34): an organization's OAuth applications, the authorization codes and
 * tokens issued to them, the API-token applications (keys made by submitApiTokenApplication) and the
 * certificate authority that signs their certificate requests. Secrets and tokens are kept sealed or as
 * digests, never as text.
 */
export function oauth(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('oauth_applications')
        .addColumn('client_id', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('contact_email', 'text')
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('client_secret_sealed', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('oauth_applications_by_org').on('oauth_applications').columns(['org_uuid', 'name']).execute();
      await db.schema
        .createTable('oauth_codes')
        .addColumn('digest', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('client_id', 'varchar(22)', (c) => c.notNull().references('oauth_applications.client_id').onDelete('cascade'))
        .addColumn('api_key_id', 'varchar(22)', (c) => c.notNull())
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('code_challenge', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('expires_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('oauth_tokens')
        .addColumn('id', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('client_id', 'varchar(22)', (c) => c.notNull().references('oauth_applications.client_id').onDelete('cascade'))
        .addColumn('api_key_id', 'varchar(22)', (c) => c.notNull())
        .addColumn('access_digest', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('refresh_digest', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('access_expires_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('refresh_expires_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at_ms', 'bigint')
        .execute();
      await db.schema
        .createTable('api_token_applications')
        .addColumn('token_uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('display_name', 'text')
        .addColumn('auth_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('client_type', 'varchar(32)', (c) => c.notNull())
        .addColumn('permission_group_uuid', 'varchar(22)')
        .addColumn('csr', 'text')
        .addColumn('cert', 'text')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('api_token_applications_by_org').on('api_token_applications').columns(['org_uuid', 'created_at_ms']).execute();
      await db.schema
        .createTable('certificate_authorities')
        .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('cert', 'text', (c) => c.notNull())
        .addColumn('private_key_sealed', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['certificate_authorities', 'api_token_applications', 'oauth_tokens', 'oauth_codes', 'oauth_applications'])
        await db.schema.dropTable(table).execute();
    },
  };
}

import type { Kysely, Migration } from 'kysely';

/** Org-scoped configuration records kept as JSON documents (src/records/org-records.ts). */
export function orgRecords(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('org_records')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('kind', 'varchar(64)', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('owner_uuid', 'varchar(64)')
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('org_records_by_name').on('org_records').columns(['org_uuid', 'kind', 'name', 'uuid']).execute();
      await db.schema.createIndex('org_records_by_owner').on('org_records').columns(['org_uuid', 'kind', 'owner_uuid']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('org_records').execute();
    },
  };
}

import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../database.js';
import { withSerialId } from '../../columns.js';

/**
 * The people's match key as this migration computed it (frozen here: a migration never follows later changes
 * of domain code; src/domains/faces/names.ts has today's).
 */
const personMatchKey = (name: string): string => name.normalize('NFC').toLowerCase().replace(/\s+/g, '');

/**
 * Faces and shipment e-mails (issue 9): people gain an e-mail, an update time and the key that uploaded
 * file names are matched by; face matchmakers (the stored images) and the per-file upload log; shipments
 * gain the time of the e-mail attempt that claimed them, and an index by sales opportunity.
 */
export function faces(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const org = (c: ColumnDefinitionBuilder) => c.notNull().references('orgs.uuid').onDelete('cascade');
      // SQLite adds one column per statement.
      await db.schema.alterTable('people').addColumn('email', 'text').execute();
      await db.schema.alterTable('people').addColumn('updated_at_ms', 'bigint').execute();
      await db.schema.alterTable('people').addColumn('match_key', 'text').execute();
      const people = await sql<{ uuid: string; name: string; created_at_ms: number }>`select uuid, name, created_at_ms from people`.execute(db);
      for (const p of people.rows) {
        await sql`update people set match_key = ${personMatchKey(p.name)}, updated_at_ms = ${p.created_at_ms} where uuid = ${p.uuid}`.execute(db);
      }
      await db.schema.createIndex('people_by_match_key').on('people').columns(['org_uuid', 'match_key']).execute();

      await db.schema
        .createTable('face_matchmakers')
        .addColumn('id', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('person_uuid', 'varchar(22)', (c) => c.notNull().references('people.uuid').onDelete('cascade'))
        .addColumn('transaction_id', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('byte_count', 'integer', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('sha256_hex', 'varchar(64)', (c) => c.notNull())
        .addColumn('storage_key', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('face_matchmakers_by_person').on('face_matchmakers').columns(['person_uuid', 'created_at_ms']).execute();
      await db.schema.createIndex('face_matchmakers_by_org').on('face_matchmakers').columns(['org_uuid', 'created_at_ms']).execute();

      // The upload log outlives the faces and people it names: no foreign keys to them.
      await withSerialId(db.schema.createTable('face_uploads'), dialect)
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('transaction_id', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('success', 'integer', (c) => c.notNull())
        .addColumn('error_msg', 'text')
        .addColumn('face_id', 'varchar(22)')
        .addColumn('person_uuid', 'varchar(22)')
        .addColumn('storage_key', 'text')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('face_uploads_by_transaction').on('face_uploads').columns(['org_uuid', 'transaction_id', 'id']).execute();

      await db.schema.alterTable('shipments').addColumn('email_attempt_at_ms', 'bigint').execute();
      await db.schema.createIndex('shipments_by_opp').on('shipments').columns(['crm_opp_id']).execute();
    },
  };
}

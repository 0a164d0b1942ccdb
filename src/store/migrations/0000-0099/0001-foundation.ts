import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../../database.js';
import { withSerialId } from '../../columns.js';

export function foundation(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('orgs')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('users')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('email', 'text')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('users_by_org').on('users').columns(['org_uuid', 'name']).execute();
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('user_uuid', 'varchar(22)', (c) => c.references('users.uuid').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('digest', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('hint', 'text', (c) => c.notNull())
        .addColumn('region', 'text', (c) => c.notNull())
        .addColumn('cert_fingerprint', 'varchar(64)')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at_ms', 'bigint')
        .execute();
      await db.schema
        .createTable('partner_grants')
        .addColumn('partner_org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('client_org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('partner_grants_pk', ['partner_org_uuid', 'client_org_uuid'])
        .execute();
      await withSerialId(db.schema.createTable('audit_log'), dialect)
        .addColumn('at_ms', 'bigint', (c) => c.notNull())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull())
        .addColumn('user_uuid', 'varchar(22)')
        .addColumn('api_key_id', 'varchar(22)')
        .addColumn('partner_org_uuid', 'varchar(22)')
        .addColumn('operation', 'text', (c) => c.notNull())
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('entity_uuid', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_by_org').on('audit_log').columns(['org_uuid', 'id']).execute();
      await withSerialId(db.schema.createTable('change_events'), dialect)
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull())
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('entity_uuid', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('device_uuid', 'text')
        .addColumn('timestamp_ms', 'bigint', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('change_events_by_org').on('change_events').columns(['org_uuid', 'id']).execute();
    },
  };
}

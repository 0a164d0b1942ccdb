import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import type { DialectName } from '../../database.js';
import { withSerialId } from '../../columns.js';

/** Access control: credentials, door event history, location lockdowns, persisted relocks (issue 4). */
export function access(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const org = (c: ColumnDefinitionBuilder) => c.notNull().references('orgs.uuid').onDelete('cascade');
      await db.schema.alterTable('doors').addColumn('relock_at_ms', 'bigint').execute();
      await db.schema.createIndex('doors_by_relock').on('doors').columns(['relock_at_ms']).execute();

      await db.schema
        .createTable('access_credentials')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('user_uuid', 'varchar(22)', (c) => c.references('users.uuid').onDelete('set null'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('lowercase_hex_value', 'text', (c) => c.notNull())
        .addColumn('lookup_key', 'text', (c) => c.notNull())
        .addColumn('claimed_key', 'text')
        .addColumn('num_bits', 'integer', (c) => c.notNull())
        .addColumn('facility_code', 'bigint')
        .addColumn('company_id', 'bigint')
        .addColumn('card_number', 'bigint')
        .addColumn('note', 'text')
        .addColumn('workflow_status', 'text', (c) => c.notNull())
        .addColumn('start_epoch_sec', 'bigint')
        .addColumn('end_epoch_sec', 'bigint')
        .addColumn('last_used_at_ms', 'bigint')
        .addColumn('last_used_door_uuid', 'varchar(22)')
        .addColumn('last_used_location_uuid', 'varchar(22)')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      // One live credential per value in an organization: NULLs (revoked ones) never collide, on both dialects.
      await db.schema.createIndex('access_credentials_claim').on('access_credentials').columns(['org_uuid', 'claimed_key']).unique().execute();
      await db.schema.createIndex('access_credentials_by_lookup').on('access_credentials').columns(['org_uuid', 'lookup_key']).execute();
      await db.schema.createIndex('access_credentials_by_org').on('access_credentials').columns(['org_uuid', 'created_at_ms', 'uuid']).execute();
      await db.schema.createIndex('access_credentials_by_user').on('access_credentials').columns(['user_uuid', 'created_at_ms']).execute();

      await withSerialId(db.schema.createTable('door_events'), dialect)
        .addColumn('uuid', 'varchar(22)', (c) => c.notNull().unique())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('door_uuid', 'varchar(22)', (c) => c.notNull().references('doors.uuid').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('timestamp_ms', 'bigint', (c) => c.notNull())
        .addColumn('user_uuid', 'varchar(22)')
        .addColumn('payload', 'text', (c) => c.notNull())
        .execute();
      // Keyset paging walks a door's events by (timestamp, id) in either direction.
      await db.schema.createIndex('door_events_by_door_time').on('door_events').columns(['door_uuid', 'timestamp_ms', 'id']).execute();

      await db.schema
        .createTable('location_lockdowns')
        .addColumn('location_uuid', 'varchar(22)', (c) => c.primaryKey().references('locations.uuid').onDelete('cascade'))
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('lockdown_plan_uuid', 'varchar(22)')
        .addColumn('started_at_ms', 'bigint', (c) => c.notNull())
        .execute();
    },
  };
}

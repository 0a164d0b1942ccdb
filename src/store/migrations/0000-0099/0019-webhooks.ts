import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import type { DialectName } from '../../database.js';
import { withSerialId } from '../../columns.js';

/**
 * The organization's own webhooks (issue 22): V2 webhook URLs and event subscriptions, the dispatcher's
 * place in the change log, the last known connection of each device (for diagnostics), and every attempt
 * of every outbox delivery (the delivery log).
 */
export function webhooks(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const org = (c: ColumnDefinitionBuilder) => c.notNull().references('orgs.uuid').onDelete('cascade');
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('endpoint_key', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('secret', 'text')
        .addColumn('secret_masked', 'text')
        .addColumn('disabled', 'integer', (c) => c.notNull())
        .addColumn('disabled_reason', 'text')
        .addColumn('filter', 'text', (c) => c.notNull())
        .addColumn('backoff_sec', 'integer')
        .addColumn('last_fired_at_ms', 'bigint')
        .addColumn('since_change_id', 'bigint', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('webhook_endpoints_org_key', ['org_uuid', 'endpoint_key'])
        .execute();
      await db.schema
        .createTable('webhook_dispatch_cursor')
        .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('last_change_id', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('webhook_device_status')
        .addColumn('device_uuid', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('online', 'integer', (c) => c.notNull())
        .addColumn('change_id', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await withSerialId(db.schema.createTable('outbox_attempts'), dialect)
        .addColumn('delivery_id', 'bigint', (c) => c.notNull().references('outbox_deliveries.id').onDelete('cascade'))
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('at_ms', 'bigint', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('error', 'text')
        .execute();
      await db.schema.createIndex('outbox_attempts_by_delivery').on('outbox_attempts').columns(['delivery_id', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['outbox_attempts', 'webhook_device_status', 'webhook_dispatch_cursor', 'webhook_endpoints'])
        await db.schema.dropTable(table).execute();
    },
  };
}

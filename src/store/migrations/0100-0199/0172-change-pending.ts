import type { Kysely, Migration } from 'kysely';
import { withSerialId } from '../../columns.js';
import type { DialectName } from '../../database.js';

/**
 * Changes committed and not yet numbered (issue 36, PostgreSQL): a write leaves its changes here, without taking
 * its organization's position lock, and the organization's positioner moves them into `change_events` in
 * batches, numbered in the order they are found, one transaction and one WAL flush for many changes
 * (src/bus/change-positioner.ts). SQLite numbers its changes in the write itself and leaves nothing here.
 */
export function changePending(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await withSerialId(db.schema.createTable('change_pending'), dialect)
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull())
        .addColumn('logged_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('entity_uuid', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('device_uuid', 'text')
        .addColumn('timestamp_ms', 'bigint', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('change_pending_by_org').on('change_pending').columns(['org_uuid', 'id']).execute();
    },
  };
}

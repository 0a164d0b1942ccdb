import type { Kysely, Migration } from 'kysely';
import { withSerialId } from '../../columns.js';
import type { DialectName } from '../../database.js';

/** Device event histories: sensor reports, doorbell presses and connection changes (issue 19). */
export function deviceEvents(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await withSerialId(db.schema.createTable('device_events'), dialect)
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('device_uuid', 'varchar(22)', (c) => c.notNull().references('devices.uuid').onDelete('cascade'))
        .addColumn('family', 'text', (c) => c.notNull())
        .addColumn('ts', 'bigint', (c) => c.notNull())
        .addColumn('state', 'text')
        .addColumn('record', 'text', (c) => c.notNull())
        .execute();
      // Histories are read newest first within a device and family: (ts, id) descending is the page cursor.
      await db.schema.createIndex('device_events_by_device').on('device_events').columns(['device_uuid', 'family', 'ts', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('device_events').execute();
    },
  };
}

import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../database.js';

const PAGE = 1000;

/**
 * The timeline reads (seekpoints and presence windows): custom seekpoints; the face and plate reads of one
 * camera over a span by (org, device, time) instead of the organization's (org, time); button presses in the
 * button's device history (family `button`, as a device reported them), the presses recorded before now
 * copied there; and climate events that raised an alert marked with the state `ALERT`.
 */
export function timeline(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('custom_seekpoints')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('target_kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('target_uuid', 'varchar(22)', (c) => c.notNull())
        .addColumn('location_uuid', 'varchar(22)')
        .addColumn('timestamp_ms', 'bigint', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('color', 'varchar(16)')
        .addColumn('display_overlay', 'integer')
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('custom_seekpoints_by_target').on('custom_seekpoints').columns(['org_uuid', 'target_uuid', 'timestamp_ms', 'uuid']).execute();
      await db.schema
        .createIndex('custom_seekpoints_by_location')
        .on('custom_seekpoints')
        .columns(['org_uuid', 'location_uuid', 'timestamp_ms', 'uuid'])
        .execute();
      await db.schema.createIndex('face_events_by_device').on('face_events').columns(['org_uuid', 'device_uuid', 'timestamp_ms', 'uuid']).execute();
      await db.schema.createIndex('vehicle_events_by_device').on('vehicle_events').columns(['org_uuid', 'device_uuid', 'timestamp_ms', 'uuid']).execute();

      const alerted =
        dialect === 'sqlite'
          ? sql`json_array_length(json_extract(record, '$.alertActivities')) > 0`
          : sql`json_array_length((record::json) -> 'alertActivities') > 0`;
      await sql`update device_events set state = 'ALERT' where family = 'climate' and ${alerted}`.execute(db);

      type Press = {
        uuid: string;
        org_uuid: string;
        sensor_uuid: string;
        location_uuid: string | null;
        press: string;
        press_duration_ms: number | null;
        timestamp_ms: number;
        created_at_ms: number;
      };
      const pressesDb = db as unknown as Kysely<{ button_presses: Press; device_events: Record<string, unknown> }>;
      for (let after = ''; ;) {
        const presses = await pressesDb.selectFrom('button_presses').selectAll().where('uuid', '>', after).orderBy('uuid').limit(PAGE).execute();
        if (presses.length === 0) break;
        await pressesDb
          .insertInto('device_events')
          .values(
            presses.map((p) => ({
              org_uuid: p.org_uuid,
              device_uuid: p.sensor_uuid,
              family: 'button',
              ts: Number(p.timestamp_ms),
              state: p.press,
              record: JSON.stringify({
                uuid: p.uuid,
                orgUuid: p.org_uuid,
                locationUuid: p.location_uuid,
                componentUuid: p.sensor_uuid,
                ownerDeviceUuid: p.sensor_uuid,
                type: 'ButtonEvent',
                buttonPress: p.press,
                pressDurationMillis: p.press_duration_ms === null ? null : Number(p.press_duration_ms),
                timestampMs: Number(p.timestamp_ms),
                createdAtMs: Number(p.created_at_ms),
              }),
            })),
          )
          .execute();
        after = presses[presses.length - 1].uuid;
      }
    },
    async down(db: Kysely<unknown>) {
      await sql`delete from device_events where family = 'button'`.execute(db);
      await sql`update device_events set state = null where family = 'climate' and state = 'ALERT'`.execute(db);
      await db.schema.dropIndex('vehicle_events_by_device').execute();
      await db.schema.dropIndex('face_events_by_device').execute();
      await db.schema.dropTable('custom_seekpoints').execute();
    },
  };
}

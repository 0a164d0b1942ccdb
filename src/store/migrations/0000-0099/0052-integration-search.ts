import { sql, type Kysely, type Migration } from 'kysely';
import { newRuuid } from '../../../ids.js';

/**
 * The integration access-event search (issue 20 item 7) and the integration diagnostics: what badge systems now
 * tell of an event (badge status and type, the areas entered and left, whether entry was made) and what
 * Gatehouse reads of it (activity, anomaly); an index of badge events by camera, one row per camera that saw
 * the event (or one without a camera), searched by organization, camera or location and time; and failed
 * delivery attempts by time (the diagnostics read an organization's failures over a range).
 */
/**
 * What a badge event recorded before this migration meant for access, as the badge integration read such
 * events when the migration was written (src/domains/integrations/badge-access.ts then): kept here as it was,
 * since a migration must do the same thing whatever the code around it becomes. Those events had no badge
 * status and no entry report, so entry was made unless access was refused, and only a face mismatch made
 * an anomaly.
 */
function recordedBadgeAccess(eventType: string, faceMismatch: boolean) {
  const refused = /DENI|UNAUTHORI|REJECT|INVALID/i.test(eventType);
  return { activity: refused ? 'BADGE_UNAUTHORIZED' : 'BADGE_AUTHORIZED', entryMade: !refused, anomaly: faceMismatch };
}

export function integrationSearch(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const [column, type] of [
        ['badge_status', 'varchar(50)'],
        ['badge_type', 'varchar(50)'],
        ['area_entering', 'varchar(200)'],
        ['area_exiting', 'varchar(200)'],
        ['entry_made', 'integer'],
        ['anomaly', 'integer'],
        ['activity', 'varchar(64)'],
      ] as const) {
        await db.schema.alterTable('badge_events').addColumn(column, type).execute();
      }
      await db.schema
        .createTable('badge_event_cameras')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('event_uuid', 'varchar(22)', (c) => c.notNull().references('badge_events.uuid').onDelete('cascade'))
        .addColumn('camera_uuid', 'varchar(22)')
        .addColumn('location_uuid', 'varchar(22)')
        .addColumn('timestamp_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('badge_event_cameras_by_org').on('badge_event_cameras').columns(['org_uuid', 'timestamp_ms', 'uuid']).execute();
      await db.schema.createIndex('badge_event_cameras_by_camera').on('badge_event_cameras').columns(['org_uuid', 'camera_uuid', 'timestamp_ms']).execute();
      await db.schema.createIndex('badge_event_cameras_by_location').on('badge_event_cameras').columns(['org_uuid', 'location_uuid', 'timestamp_ms']).execute();
      await db.schema.createIndex('outbox_attempts_by_time').on('outbox_attempts').columns(['at_ms', 'id']).execute();

      // The events recorded before: what they mean, and their rows in the index.
      const rows = await sql<{
        uuid: string;
        org_uuid: string;
        event_type: string;
        face_mismatch: number;
        camera_uuids: string;
        location_uuid: string | null;
        timestamp_ms: number;
      }>`
        select uuid, org_uuid, event_type, face_mismatch, camera_uuids, location_uuid, timestamp_ms from badge_events`.execute(db);
      for (const row of rows.rows) {
        const access = recordedBadgeAccess(row.event_type, Boolean(row.face_mismatch));
        await sql`update badge_events set activity = ${access.activity}, entry_made = ${access.entryMade ? 1 : 0}, anomaly = ${access.anomaly ? 1 : 0} where uuid = ${row.uuid}`.execute(
          db,
        );
        const cameras = JSON.parse(row.camera_uuids) as string[];
        for (const camera of cameras.length > 0 ? cameras : [null]) {
          await sql`insert into badge_event_cameras (uuid, org_uuid, event_uuid, camera_uuid, location_uuid, timestamp_ms)
            values (${newRuuid()}, ${row.org_uuid}, ${row.uuid}, ${camera}, ${row.location_uuid}, ${row.timestamp_ms})`.execute(db);
        }
      }
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('outbox_attempts_by_time').execute();
      await db.schema.dropTable('badge_event_cameras').execute();
      for (const column of ['activity', 'anomaly', 'entry_made', 'area_exiting', 'area_entering', 'badge_type', 'badge_status']) {
        await db.schema.alterTable('badge_events').dropColumn(column).execute();
      }
    },
  };
}

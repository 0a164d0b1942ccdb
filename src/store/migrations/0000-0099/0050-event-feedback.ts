import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Feedback on recorded events and who hears of them (issue 20): a plate read reported as a misread (kept, out
 * of the lists) or associated with a saved vehicle (the plate read is kept beside the vehicle's), an
 * organization's face-matching threshold and the best match of each face sighting (whether or not it reached
 * the threshold), and devices whose alerts notify nobody for a while.
 */
export function eventFeedback(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('vehicle_events').addColumn('reported_at_ms', 'bigint').execute();
      await db.schema.alterTable('vehicle_events').addColumn('reported_by', 'varchar(22)').execute();
      await db.schema.alterTable('vehicle_events').addColumn('read_plate', 'varchar(16)').execute();
      await db.schema
        .alterTable('face_events')
        .addColumn('match_person_uuid', 'varchar(22)', (c) => c.references('people.uuid').onDelete('set null'))
        .execute();
      await db.schema.alterTable('face_events').addColumn('match_name', 'text').execute();
      await db.schema.alterTable('face_events').addColumn('match_confidence', 'double precision').execute();
      // Sightings recorded before: their person was matched with certainty.
      await sql`update face_events set match_person_uuid = person_uuid, match_name = face_name, match_confidence = 1 where person_uuid is not null`.execute(db);
      await db.schema
        .createTable('face_matching_configs')
        .addColumn('org_uuid', 'varchar(22)', (c) => c.primaryKey().references('orgs.uuid').onDelete('cascade'))
        .addColumn('confidence_threshold', 'double precision', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('notification_mutes')
        .addColumn('org_uuid', 'varchar(22)', (c) => c.notNull().references('orgs.uuid').onDelete('cascade'))
        .addColumn('device_uuid', 'varchar(22)', (c) => c.notNull().references('devices.uuid').onDelete('cascade'))
        .addColumn('muted_until_ms', 'bigint', (c) => c.notNull())
        .addColumn('muted_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('user_uuid', 'varchar(22)')
        .addPrimaryKeyConstraint('notification_mutes_pk', ['org_uuid', 'device_uuid'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('notification_mutes').execute();
      await db.schema.dropTable('face_matching_configs').execute();
      for (const column of ['match_confidence', 'match_name', 'match_person_uuid']) await db.schema.alterTable('face_events').dropColumn(column).execute();
      await db.schema.alterTable('vehicle_events').dropColumn('read_plate').execute();
      await db.schema.alterTable('vehicle_events').dropColumn('reported_by').execute();
      await db.schema.alterTable('vehicle_events').dropColumn('reported_at_ms').execute();
    },
  };
}

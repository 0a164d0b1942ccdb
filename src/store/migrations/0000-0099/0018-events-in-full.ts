import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../database.js';

/** Policy alerts are kept this long after they are recorded (or their time, when later) unless saved as a clip (alerts.service.ts). */
const ALERT_RETENTION_MS = 30 * 86_400_000;

/**
 * Events in full (issue 20): dismissal and expiry of policy alerts, their location feed, and the records
 * of faces, vehicles, plates and rule firings.
 */
export function eventsInFull(_dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('policy_alerts').addColumn('dismissed_at_ms', 'bigint').execute();
      await db.schema.alterTable('policy_alerts').addColumn('expires_at_ms', 'bigint').execute();
      // The alerts kept so far expire a retention period after this upgrade, or after their time when that is later.
      const upgradedAt = Date.now();
      await sql`update policy_alerts set expires_at_ms = case when timestamp_ms > ${upgradedAt} then timestamp_ms else ${upgradedAt} end + ${ALERT_RETENTION_MS} where saved = 0`.execute(
        db,
      );
      // The cursor of getPolicyAlertGroupsForLocation: (timestamp, uuid) descending within a location.
      await db.schema.createIndex('policy_alerts_by_location').on('policy_alerts').columns(['org_uuid', 'location_uuid', 'timestamp_ms', 'uuid']).execute();
      // getExpiringPolicyAlerts (soonest first within an organization) and the expiry sweep (across them).
      await db.schema.createIndex('policy_alerts_by_expiry').on('policy_alerts').columns(['org_uuid', 'expires_at_ms', 'uuid']).execute();
      await db.schema.createIndex('policy_alerts_expiry_sweep').on('policy_alerts').columns(['expires_at_ms']).execute();

      const org = (c: ColumnDefinitionBuilder) => c.notNull().references('orgs.uuid').onDelete('cascade');
      // Saved vehicles (the licence-plate watch and trust lists), one per normalised plate of an organization.
      await db.schema
        .createTable('vehicles')
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('license_plate', 'varchar(16)', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('alert', 'integer', (c) => c.notNull())
        .addColumn('trust', 'integer', (c) => c.notNull())
        .addColumn('thumbnail_s3_key', 'text')
        .addColumn('labels', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('vehicles_pk', ['org_uuid', 'license_plate'])
        .execute();
      // Plates a camera read: getVehicleEvents pages by (timestamp, uuid); the exact search seeks by plate.
      await db.schema
        .createTable('vehicle_events')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('device_uuid', 'varchar(22)', (c) => c.notNull().references('devices.uuid').onDelete('cascade'))
        .addColumn('location_uuid', 'varchar(22)')
        .addColumn('license_plate', 'varchar(16)', (c) => c.notNull())
        .addColumn('timestamp_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('vehicle_events_by_org').on('vehicle_events').columns(['org_uuid', 'timestamp_ms', 'uuid']).execute();
      // Labels of people known by face; face sightings, paged by (timestamp, uuid) newest first.
      await db.schema
        .createTable('person_labels')
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('person_uuid', 'varchar(22)', (c) => c.notNull().references('people.uuid').onDelete('cascade'))
        .addColumn('label', 'varchar(100)', (c) => c.notNull())
        .addPrimaryKeyConstraint('person_labels_pk', ['person_uuid', 'label'])
        .execute();
      await db.schema.createIndex('person_labels_by_org').on('person_labels').columns(['org_uuid', 'label']).execute();
      await db.schema
        .createTable('face_events')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('device_uuid', 'varchar(22)', (c) => c.notNull().references('devices.uuid').onDelete('cascade'))
        .addColumn('location_uuid', 'varchar(22)')
        .addColumn('person_uuid', 'varchar(22)', (c) => c.references('people.uuid').onDelete('set null'))
        .addColumn('face_name', 'text')
        .addColumn('timestamp_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('face_events_by_org').on('face_events').columns(['org_uuid', 'timestamp_ms', 'uuid']).execute();
      await db.schema.createIndex('vehicle_events_by_plate').on('vehicle_events').columns(['org_uuid', 'license_plate', 'timestamp_ms']).execute();
    },
  };
}

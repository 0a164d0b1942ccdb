import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../../database.js';
import { withSerialId } from '../../columns.js';

/** The door event columns that finders search, read out of each event's JSON payload for the rows kept so far. */
const EVENT_COLUMNS = {
  location_uuid: 'locationUuid',
  owner_device_uuid: 'ownerDeviceUuid',
  credential_uuid: 'credentialUuid',
  credential_hex_value: 'credentialHexValue',
  credential_value: 'credentialValue',
  correlation_id: 'correlationId',
  api_token_uuid: 'apiTokenUuid',
} as const;

/**
 * Access in depth, part 2 (issue 21): lockdown states, their door snapshots and events; door schedule
 * exceptions; door labels and state schedules; guest passes; guests and their activity; and the columns the
 * component event finders search.
 */
export function accessLockdown(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const org = (c: ColumnDefinitionBuilder) => c.notNull().references('orgs.uuid').onDelete('cascade');
      const door = (c: ColumnDefinitionBuilder) => c.notNull().references('doors.uuid').onDelete('cascade');
      const location = (c: ColumnDefinitionBuilder) => c.notNull().references('locations.uuid').onDelete('cascade');

      // A door's state outside lockdowns and exceptions: its default, and the schedules that make it UNLOCKED or
      // ACCESS_CONTROLLED (the platform's doorStateToScheduleUuidMap); why its relay is held unlocked; when its
      // expected state next changes (the scheduler re-applies it then).
      await db.schema
        .alterTable('doors')
        .addColumn('default_state', 'varchar(32)', (c) => c.notNull().defaultTo('ACCESS_CONTROLLED'))
        .execute();
      await db.schema
        .alterTable('doors')
        .addColumn('unlocked_schedule_uuid', 'varchar(22)', (c) => c.references('schedules.uuid'))
        .execute();
      await db.schema
        .alterTable('doors')
        .addColumn('controlled_schedule_uuid', 'varchar(22)', (c) => c.references('schedules.uuid'))
        .execute();
      await db.schema.alterTable('doors').addColumn('held_source', 'varchar(32)').execute();
      // The state last applied, and why (the door shadow reads it without working it out again).
      await db.schema
        .alterTable('doors')
        .addColumn('access_state', 'varchar(32)', (c) => c.notNull().defaultTo('ACCESS_CONTROLLED'))
        .execute();
      await db.schema
        .alterTable('doors')
        .addColumn('access_state_source', 'varchar(32)', (c) => c.notNull().defaultTo('DEFAULT_STATE'))
        .execute();
      await db.schema.alterTable('doors').addColumn('access_state_at_ms', 'bigint').execute();
      await db.schema.alterTable('doors').addColumn('state_check_at_ms', 'bigint').execute();
      await db.schema.createIndex('doors_by_state_check').on('doors').columns(['state_check_at_ms']).execute();
      await db.schema.createIndex('doors_by_unlocked_schedule').on('doors').columns(['unlocked_schedule_uuid']).execute();
      await db.schema.createIndex('doors_by_controlled_schedule').on('doors').columns(['controlled_schedule_uuid']).execute();

      // The lockdown state of a location, kept once tracked (getOrCreate) or first activated.
      await db.schema
        .createTable('location_lockdown_states')
        .addColumn('location_uuid', 'varchar(22)', (c) => c.primaryKey().references('locations.uuid').onDelete('cascade'))
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('state', 'varchar(32)', (c) => c.notNull())
        .addColumn('active_plans', 'text', (c) => c.notNull())
        .addColumn('following_test_plan', 'integer', (c) => c.notNull())
        .addColumn('doors_overridden', 'integer', (c) => c.notNull())
        .addColumn('access_overridden', 'integer', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('state_changed_at_ms', 'bigint')
        .execute();
      await db.schema.createIndex('location_lockdown_states_by_org').on('location_lockdown_states').columns(['org_uuid', 'state']).execute();
      // The lockdowns of the previous table carry over as plan-less lockdowns.
      await sql`insert into location_lockdown_states (location_uuid, org_uuid, state, active_plans, following_test_plan, doors_overridden, access_overridden, created_at_ms, updated_at_ms, state_changed_at_ms)
        select location_uuid, org_uuid, 'LOCKED_DOWN', '[]', 0, 1, 1, started_at_ms, started_at_ms, started_at_ms from location_lockdowns`.execute(db);
      await db.schema.dropTable('location_lockdowns').execute();

      // Each door's relay as it was when its location's lockdown took it over, to restore when the lockdown ends.
      await db.schema
        .createTable('lockdown_door_snapshots')
        .addColumn('door_uuid', 'varchar(22)', (c) => c.primaryKey().references('doors.uuid').onDelete('cascade'))
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('location_uuid', 'varchar(22)', location)
        .addColumn('lock_state', 'varchar(16)', (c) => c.notNull())
        .addColumn('relock_at_ms', 'bigint')
        .addColumn('held_source', 'varchar(32)')
        .execute();
      await db.schema.createIndex('lockdown_door_snapshots_by_location').on('lockdown_door_snapshots').columns(['location_uuid']).execute();

      await withSerialId(db.schema.createTable('location_lockdown_events'), dialect)
        .addColumn('uuid', 'varchar(22)', (c) => c.notNull().unique())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('location_uuid', 'varchar(22)', location)
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('location_lockdown_events_by_location')
        .on('location_lockdown_events')
        .columns(['org_uuid', 'location_uuid', 'created_at_ms', 'id'])
        .execute();

      // Door schedule exceptions: the badge decision looks them up by door and local date.
      await db.schema
        .createTable('door_schedule_exceptions')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('location_uuid', 'varchar(22)')
        .addColumn('local_start_date', 'varchar(10)', (c) => c.notNull())
        .addColumn('local_end_date', 'varchar(10)', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('door_schedule_exceptions_by_org').on('door_schedule_exceptions').columns(['org_uuid', 'local_start_date']).execute();
      await db.schema
        .createTable('door_schedule_exception_doors')
        .addColumn('exception_uuid', 'varchar(22)', (c) => c.notNull().references('door_schedule_exceptions.uuid').onDelete('cascade'))
        .addColumn('door_uuid', 'varchar(22)', door)
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('local_start_date', 'varchar(10)', (c) => c.notNull())
        .addColumn('local_end_date', 'varchar(10)', (c) => c.notNull())
        .addPrimaryKeyConstraint('door_schedule_exception_doors_pk', ['exception_uuid', 'door_uuid'])
        .execute();
      await db.schema
        .createIndex('door_schedule_exception_doors_by_door')
        .on('door_schedule_exception_doors')
        .columns(['door_uuid', 'local_end_date', 'local_start_date'])
        .execute();

      // Guest passes: time-limited credentials at the doors they name, matched by a digest of their value.
      await db.schema
        .createTable('guest_passes')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('location_uuid', 'varchar(22)', location)
        .addColumn('value_digest', 'varchar(64)', (c) => c.notNull())
        .addColumn('sealed_value', 'text', (c) => c.notNull())
        .addColumn('lifecycle', 'varchar(16)', (c) => c.notNull())
        .addColumn('pass_start_ms', 'bigint', (c) => c.notNull())
        .addColumn('pass_end_ms', 'bigint', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('guest_passes_by_value').on('guest_passes').columns(['org_uuid', 'value_digest']).unique().execute();
      await db.schema.createIndex('guest_passes_by_start').on('guest_passes').columns(['org_uuid', 'pass_start_ms', 'uuid']).execute();
      await db.schema
        .createTable('guest_pass_doors')
        .addColumn('pass_uuid', 'varchar(22)', (c) => c.notNull().references('guest_passes.uuid').onDelete('cascade'))
        .addColumn('door_uuid', 'varchar(22)', door)
        .addColumn('org_uuid', 'varchar(22)', org)
        .addPrimaryKeyConstraint('guest_pass_doors_pk', ['pass_uuid', 'door_uuid'])
        .execute();
      await db.schema.createIndex('guest_pass_doors_by_door').on('guest_pass_doors').columns(['door_uuid']).execute();

      // Guests, known by e-mail address within an organization, and what they did.
      await db.schema
        .createTable('guests')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('email', 'varchar(320)', (c) => c.notNull())
        .addColumn('location_uuid', 'varchar(22)', location)
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('guests_by_email').on('guests').columns(['org_uuid', 'email']).unique().execute();
      // A kiosk at a location finds the guests expected there by e-mail address.
      await db.schema.createIndex('guests_by_location').on('guests').columns(['location_uuid', 'email']).execute();
      await withSerialId(db.schema.createTable('guest_activities'), dialect)
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('location_uuid', 'varchar(22)')
        .addColumn('email', 'varchar(320)', (c) => c.notNull())
        .addColumn('timestamp_ms', 'bigint', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('guest_activities_by_org').on('guest_activities').columns(['org_uuid', 'timestamp_ms', 'id']).execute();
      await db.schema.createIndex('guest_activities_by_location').on('guest_activities').columns(['org_uuid', 'location_uuid', 'timestamp_ms', 'id']).execute();
      await db.schema.createIndex('guest_activities_by_email').on('guest_activities').columns(['org_uuid', 'email', 'timestamp_ms', 'id']).execute();

      // What the component event finders search, beside the door and user columns of 0005.
      for (const column of Object.keys(EVENT_COLUMNS)) await db.schema.alterTable('door_events').addColumn(column, 'text').execute();
      for (const [column, field] of Object.entries(EVENT_COLUMNS)) {
        const value = dialect === 'sqlite' ? sql`json_extract(payload, ${`$.${field}`})` : sql`(payload::json ->> ${field})`;
        await sql`update door_events set ${sql.ref(column)} = ${value}`.execute(db);
        await db.schema.createIndex(`door_events_by_${column}`).on('door_events').columns(['org_uuid', column, 'timestamp_ms', 'id']).execute();
      }
      await db.schema.createIndex('door_events_by_user').on('door_events').columns(['org_uuid', 'user_uuid', 'timestamp_ms', 'id']).execute();
    },
  };
}

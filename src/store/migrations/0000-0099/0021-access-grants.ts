import { type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import { newRuuid } from '../../../ids.js';
import { withSerialId } from '../../columns.js';
import type { DialectName } from '../../database.js';

/**
 * Access in depth (issue 21): access control groups and their members, location access grants and
 * revocations (one table, with what each names in a second one), the per-organization token the badge
 * decision's cache is checked against, door labels, and the credential history.
 *
 * A door's access list (door_access) becomes a grant named "<door> access" that names the door and its users,
 * at all times (the door's own schedule still applies on its own), and the table goes.
 */
export function accessGrants(dialect: DialectName): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const org = (c: ColumnDefinitionBuilder) => c.notNull().references('orgs.uuid').onDelete('cascade');
      await db.schema
        .createTable('access_groups')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('location_uuid', 'varchar(22)')
        .addColumn('type', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('access_groups_org_name', ['org_uuid', 'name_key'])
        .execute();
      await db.schema
        .createTable('access_group_members')
        .addColumn('group_uuid', 'varchar(22)', (c) => c.notNull().references('access_groups.uuid').onDelete('cascade'))
        // A deleted user leaves their groups with them (the user's credentials are revoked in the same write).
        .addColumn('user_uuid', 'varchar(22)', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('access_group_members_pk', ['group_uuid', 'user_uuid'])
        .execute();
      await db.schema.createIndex('access_group_members_by_user').on('access_group_members').columns(['org_uuid', 'user_uuid']).execute();

      await db.schema
        .createTable('access_rules')
        .addColumn('uuid', 'varchar(22)', (c) => c.primaryKey())
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('location_uuid', 'varchar(22)', (c) => c.notNull())
        .addColumn('schedule_uuid', 'varchar(22)')
        .addColumn('location_wide', 'integer', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('updated_at_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('access_rules_by_name').on('access_rules').columns(['org_uuid', 'kind', 'name', 'uuid']).execute();
      await db.schema.createIndex('access_rules_by_location').on('access_rules').columns(['org_uuid', 'kind', 'location_uuid']).execute();
      await db.schema.createIndex('access_rules_by_schedule').on('access_rules').columns(['org_uuid', 'schedule_uuid']).execute();
      await db.schema
        .createTable('access_rule_refs')
        .addColumn('rule_uuid', 'varchar(22)', (c) => c.notNull().references('access_rules.uuid').onDelete('cascade'))
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('ref_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('ref_id', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('access_rule_refs_pk', ['rule_uuid', 'ref_type', 'ref_id'])
        .execute();
      await db.schema.createIndex('access_rule_refs_by_ref').on('access_rule_refs').columns(['org_uuid', 'kind', 'ref_type', 'ref_id']).execute();
      await db.schema
        .createTable('access_rule_versions')
        .addColumn('org_uuid', 'varchar(22)', (c) => c.primaryKey().references('orgs.uuid').onDelete('cascade'))
        .addColumn('version', 'varchar(22)', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('door_labels')
        .addColumn('door_uuid', 'varchar(22)', (c) => c.notNull().references('doors.uuid').onDelete('cascade'))
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('created_at_ms', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('door_labels_pk', ['door_uuid', 'label'])
        .execute();
      await db.schema.createIndex('door_labels_by_org').on('door_labels').columns(['org_uuid', 'label']).execute();

      await withSerialId(db.schema.createTable('credential_history'), dialect)
        .addColumn('org_uuid', 'varchar(22)', org)
        .addColumn('credential_uuid', 'varchar(22)', (c) => c.notNull())
        .addColumn('user_uuid', 'varchar(22)')
        .addColumn('lookup_key', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('action', 'varchar(16)', (c) => c.notNull())
        .addColumn('recorded_at_ms', 'bigint', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('credential_history_by_lookup').on('credential_history').columns(['org_uuid', 'lookup_key', 'id']).execute();
      await db.schema.createIndex('credential_history_by_value').on('credential_history').columns(['org_uuid', 'type', 'value', 'id']).execute();
      await db.schema.createIndex('credential_history_by_user').on('credential_history').columns(['org_uuid', 'user_uuid', 'id']).execute();

      await doorAccessToGrants(db as unknown as Kysely<Tables>);
      await credentialsToHistory(db as unknown as Kysely<Tables>);
      await db.schema.dropTable('door_access').execute();
    },
  };
}

/** The tables the data steps read and write, as they stand at this migration (frozen here). */
type Ms = number | string;
interface CredentialRow {
  uuid: string;
  org_uuid: string;
  user_uuid: string | null;
  type: string;
  value: string;
  lowercase_hex_value: string;
  lookup_key: string;
  num_bits: number;
  facility_code: Ms | null;
  company_id: Ms | null;
  card_number: Ms | null;
  note: string | null;
  workflow_status: string;
  start_epoch_sec: Ms | null;
  end_epoch_sec: Ms | null;
  last_used_at_ms: Ms | null;
  last_used_door_uuid: string | null;
  last_used_location_uuid: string | null;
  created_at_ms: Ms;
  updated_at_ms: Ms;
}
interface Tables {
  door_access: { door_uuid: string; user_uuid: string; org_uuid: string };
  doors: { uuid: string; org_uuid: string; name: string; location_uuid: string };
  access_rules: {
    uuid: string;
    org_uuid: string;
    kind: string;
    name: string;
    location_uuid: string;
    schedule_uuid: string | null;
    location_wide: number;
    created_at_ms: number;
    updated_at_ms: number;
  };
  access_rule_refs: { rule_uuid: string; org_uuid: string; kind: string; ref_type: string; ref_id: string };
  access_credentials: CredentialRow;
  credential_history: {
    org_uuid: string;
    credential_uuid: string;
    user_uuid: string | null;
    lookup_key: string;
    type: string;
    value: string;
    action: string;
    recorded_at_ms: number;
    payload: string;
  };
}

/** Each door's access list becomes one grant naming the door and its users. */
async function doorAccessToGrants(db: Kysely<Tables>): Promise<void> {
  const rows = await db
    .selectFrom('door_access')
    .innerJoin('doors', 'doors.uuid', 'door_access.door_uuid')
    .select(['door_access.door_uuid', 'door_access.user_uuid', 'doors.org_uuid', 'doors.name', 'doors.location_uuid'])
    .orderBy('door_access.door_uuid')
    .orderBy('door_access.user_uuid')
    .execute();
  const byDoor = new Map<string, typeof rows>();
  for (const row of rows) byDoor.set(row.door_uuid, [...(byDoor.get(row.door_uuid) ?? []), row]);
  const now = Date.now();
  for (const [doorUuid, users] of byDoor) {
    const { org_uuid, name, location_uuid } = users[0];
    const uuid = newRuuid();
    await db
      .insertInto('access_rules')
      .values({
        uuid,
        org_uuid,
        kind: 'GRANT',
        name: `${name} access`,
        location_uuid,
        schedule_uuid: null,
        location_wide: 0,
        created_at_ms: now,
        updated_at_ms: now,
      })
      .execute();
    const refs = [{ ref_type: 'DOOR', ref_id: doorUuid }, ...users.map((u) => ({ ref_type: 'USER', ref_id: u.user_uuid }))];
    await db
      .insertInto('access_rule_refs')
      .values(refs.map((r) => ({ rule_uuid: uuid, org_uuid, kind: 'GRANT', ...r })))
      .execute();
  }
}

const num = (v: number | string | null) => (v === null || v === undefined ? null : Number(v));

/** A credential as the REST API answered it when this migration was written (frozen here, as migrations are). */
function credentialAsAnswered(row: CredentialRow) {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    userUuid: row.user_uuid,
    type: row.type,
    value: row.value,
    lowercaseHexValue: row.lowercase_hex_value,
    note: row.note,
    workflowStatus: row.workflow_status,
    startDateEpochSecInclusive: num(row.start_epoch_sec),
    endDateEpochSecExclusive: num(row.end_epoch_sec),
    lastUsedAtMillis: num(row.last_used_at_ms),
    lastUsedAccessControlledDoorUuid: row.last_used_door_uuid,
    lastUsedLocationUuid: row.last_used_location_uuid,
    managedCredUuid: null,
    numBits: row.num_bits,
    facilityCode: num(row.facility_code),
    companyId: num(row.company_id),
    cardNumber: num(row.card_number),
    createdAtMillis: Number(row.created_at_ms),
    updatedAtMillis: Number(row.updated_at_ms),
  };
}

/** Credentials that exist before the history begins get one entry each: their state now. */
async function credentialsToHistory(db: Kysely<Tables>): Promise<void> {
  const rows = await db.selectFrom('access_credentials').selectAll().orderBy('created_at_ms').execute();
  for (let i = 0; i < rows.length; i += 200) {
    const chunk = rows.slice(i, i + 200).map((row) => ({
      org_uuid: row.org_uuid,
      credential_uuid: row.uuid,
      user_uuid: row.user_uuid,
      lookup_key: row.lookup_key,
      type: row.type,
      value: row.value,
      action: 'CREATE',
      recorded_at_ms: Number(row.updated_at_ms),
      payload: JSON.stringify(credentialAsAnswered(row)),
    }));
    await db.insertInto('credential_history').values(chunk).execute();
  }
}

import type { Kysely } from 'kysely';
import type { DB } from '../store/schema.js';
import { preparedQuery } from '../store/prepared-query.js';
import type { Tx } from '../store/reader.js';
import type { OrgRecordsTable } from './tables.js';

/** What a list of one kind may be narrowed to. */
export interface RecordFilter {
  uuids?: readonly string[];
  name?: string;
  namePrefix?: string;
  ownerUuids?: readonly string[];
}

/** The records of one kind of an organization, by name then uuid. */
/** One record by uuid: a point read (per-request reads such as an organization's settings go through it). */
const recordByUuid = preparedQuery(3, (db, orgUuid: string, kind: string, uuid: string) =>
  db.selectFrom('org_records').selectAll().where('org_uuid', '=', orgUuid).where('kind', '=', kind).where('uuid', '=', uuid),
);

export async function findRecord(db: Kysely<DB>, orgUuid: string, kind: string, uuid: string): Promise<OrgRecordsTable | undefined> {
  return (await recordByUuid(db, orgUuid, kind, uuid))[0];
}

const recordsByOwner = preparedQuery(3, (db, orgUuid: string, kind: string, ownerUuid: string) =>
  db.selectFrom('org_records').selectAll().where('org_uuid', '=', orgUuid).where('kind', '=', kind).where('owner_uuid', '=', ownerUuid).orderBy('uuid'),
);

/** The records of one owner, by uuid: a point read (an organization's settings are read on every getOrgV2). */
export function findRecordsByOwner(db: Kysely<DB>, orgUuid: string, kind: string, ownerUuid: string): Promise<OrgRecordsTable[]> {
  return recordsByOwner(db, orgUuid, kind, ownerUuid);
}

const recordsOfKind = preparedQuery(2, (db, orgUuid: string, kind: string) =>
  db.selectFrom('org_records').selectAll().where('org_uuid', '=', orgUuid).where('kind', '=', kind).orderBy('name').orderBy('uuid'),
);

export async function selectRecords(db: Kysely<DB>, orgUuid: string, kind: string, filter: RecordFilter = {}): Promise<OrgRecordsTable[]> {
  if (filter.uuids?.length === 0 || filter.ownerUuids?.length === 0) return [];
  // Unfiltered, a point read: every policy alert's notifications read the users' settings.
  if (Object.values(filter).every((v) => v === undefined)) return recordsOfKind(db, orgUuid, kind);
  let query = db.selectFrom('org_records').selectAll().where('org_uuid', '=', orgUuid).where('kind', '=', kind);
  if (filter.uuids) query = query.where('uuid', 'in', filter.uuids);
  if (filter.ownerUuids) query = query.where('owner_uuid', 'in', filter.ownerUuids);
  if (filter.name !== undefined) query = query.where('name', '=', filter.name);
  // A prefix compared as a range, so that it uses the index and no character of the prefix is a wildcard.
  if (filter.namePrefix) query = query.where('name', '>=', filter.namePrefix).where('name', '<', `${filter.namePrefix}\u{10FFFF}`);
  return query.orderBy('name').orderBy('uuid').execute();
}

export async function insertRecord(tx: Tx, row: OrgRecordsTable): Promise<void> {
  await tx.insertInto('org_records').values(row).execute();
}

export async function updateRecord(
  tx: Tx,
  orgUuid: string,
  kind: string,
  uuid: string,
  patch: Pick<OrgRecordsTable, 'name' | 'owner_uuid' | 'data' | 'updated_at_ms'>,
): Promise<void> {
  await tx.updateTable('org_records').set(patch).where('org_uuid', '=', orgUuid).where('kind', '=', kind).where('uuid', '=', uuid).execute();
}

export async function deleteRecords(tx: Tx, orgUuid: string, kind: string, uuids: readonly string[]): Promise<void> {
  if (uuids.length === 0) return;
  await tx.deleteFrom('org_records').where('org_uuid', '=', orgUuid).where('kind', '=', kind).where('uuid', 'in', uuids).execute();
}

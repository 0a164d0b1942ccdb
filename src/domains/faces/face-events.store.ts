import { sql, type Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { FaceEventsTable, PersonLabelsTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertFaceEvent(db: Db, row: FaceEventsTable): Promise<void> {
  await db.insertInto('face_events').values(row).execute();
}

export async function findFaceEvent(db: Db, orgUuid: string, uuid: string): Promise<FaceEventsTable | undefined> {
  return db.selectFrom('face_events').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

export interface FaceEventFilter {
  deviceUuids: readonly string[] | null;
  locationUuids: readonly string[] | null;
  /** Only faces of these people (null: any; empty: none). */
  personUuids: readonly string[] | null;
  faceNames: readonly string[] | null;
  /** Lower-case part of the name. */
  nameContains: string | null;
  hasName: boolean | null;
  fromMs: number;
  toMs: number;
  after: { timestampMs: number; uuid: string } | null;
  limit: number;
}

/** The organization's face events newest first (timestamp, then uuid), strictly after the cursor. */
export async function listFaceEvents(db: Db, orgUuid: string, f: FaceEventFilter): Promise<FaceEventsTable[]> {
  if (f.personUuids !== null && f.personUuids.length === 0) return [];
  return db
    .selectFrom('face_events')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('timestamp_ms', '>=', f.fromMs)
    .where('timestamp_ms', '<=', f.toMs)
    .$if(f.deviceUuids !== null, (q) => q.where('device_uuid', 'in', f.deviceUuids!))
    .$if(f.locationUuids !== null, (q) => q.where('location_uuid', 'in', f.locationUuids!))
    .$if(f.personUuids !== null, (q) => q.where('person_uuid', 'in', f.personUuids!))
    .$if(f.faceNames !== null, (q) => q.where('face_name', 'in', f.faceNames!))
    .$if(f.nameContains !== null, (q) => q.where(sql<boolean>`lower(face_name) like ${`%${f.nameContains!.replace(/[\\%_]/g, '\\$&')}%`} escape '\\'`))
    .$if(f.hasName === true, (q) => q.where('person_uuid', 'is not', null))
    .$if(f.hasName === false, (q) => q.where('person_uuid', 'is', null))
    .$if(f.after !== null, (q) => q.where((eb) => eb(eb.refTuple('timestamp_ms', 'uuid'), '<', eb.tuple(f.after!.timestampMs, f.after!.uuid))))
    .orderBy('timestamp_ms', 'desc')
    .orderBy('uuid', 'desc')
    .limit(f.limit)
    .execute();
}

export async function listPersonLabels(db: Db, orgUuid: string): Promise<PersonLabelsTable[]> {
  return db.selectFrom('person_labels').selectAll().where('org_uuid', '=', orgUuid).orderBy('person_uuid').orderBy('label').execute();
}

export async function peopleWithLabels(db: Db, orgUuid: string, labels: readonly string[]): Promise<string[]> {
  if (labels.length === 0) return [];
  const rows = await db.selectFrom('person_labels').select('person_uuid').distinct().where('org_uuid', '=', orgUuid).where('label', 'in', labels).execute();
  return rows.map((r) => r.person_uuid);
}

/** Adds a label; answers false when the person had it already. */
export async function addPersonLabel(db: Db, row: PersonLabelsTable): Promise<boolean> {
  const result = await db
    .insertInto('person_labels')
    .values(row)
    .onConflict((oc) => oc.columns(['person_uuid', 'label']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Removes a label; answers false when the person did not have it. */
export async function removePersonLabel(db: Db, orgUuid: string, personUuid: string, label: string): Promise<boolean> {
  const result = await db
    .deleteFrom('person_labels')
    .where('org_uuid', '=', orgUuid)
    .where('person_uuid', '=', personUuid)
    .where('label', '=', label)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

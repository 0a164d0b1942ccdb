import type { Kysely } from 'kysely';
import { lowerContains } from '../../store/like.js';
import type { DB } from '../../store/schema.js';
import { readDeviceSpan, type DeviceSpan } from '../../store/time-spans.js';
import type { FaceEventsTable, FaceMatchingConfigsTable, PersonLabelsTable } from './tables.js';

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

/** The organization's face events that pass the filter (its cursor and limit aside). */
function filteredFaceEvents(db: Db, orgUuid: string, f: Omit<FaceEventFilter, 'after' | 'limit'>) {
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
    .$if(f.nameContains !== null, (q) => q.where(lowerContains('face_name', f.nameContains!)))
    .$if(f.hasName === true, (q) => q.where('person_uuid', 'is not', null))
    .$if(f.hasName === false, (q) => q.where('person_uuid', 'is', null));
}

/** The organization's face events newest first (timestamp, then uuid), strictly after the cursor. */
export async function listFaceEvents(db: Db, orgUuid: string, f: FaceEventFilter): Promise<FaceEventsTable[]> {
  if (f.personUuids !== null && f.personUuids.length === 0) return [];
  return filteredFaceEvents(db, orgUuid, f)
    .$if(f.after !== null, (q) => q.where((eb) => eb(eb.refTuple('timestamp_ms', 'uuid'), '<', eb.tuple(f.after!.timestampMs, f.after!.uuid))))
    .orderBy('timestamp_ms', 'desc')
    .orderBy('uuid', 'desc')
    .limit(f.limit)
    .execute();
}

/** A place in a list of look-alikes: the match confidence, timestamp and uuid of a page's last sighting. */
export interface LikenessKey {
  confidence: number;
  timestampMs: number;
  uuid: string;
}

/**
 * Sightings other than `exceptUuid` that the camera matched to `personUuid` with at least `minConfidence`, and
 * that pass the filter: highest match confidence first (then newest), strictly after the cursor. Read over the
 * (org, person matched, confidence) index of migration 0054.
 */
export async function listLookalikes(
  db: Db,
  orgUuid: string,
  likeness: { personUuid: string; minConfidence: number; exceptUuid: string },
  f: Omit<FaceEventFilter, 'after' | 'limit'>,
  after: LikenessKey | null,
  limit: number,
): Promise<FaceEventsTable[]> {
  if (f.personUuids !== null && f.personUuids.length === 0) return [];
  return filteredFaceEvents(db, orgUuid, f)
    .where('match_person_uuid', '=', likeness.personUuid)
    .where('match_confidence', '>=', likeness.minConfidence)
    .where('uuid', '!=', likeness.exceptUuid)
    .$if(after !== null, (q) =>
      q.where((eb) => eb(eb.refTuple('match_confidence', 'timestamp_ms', 'uuid'), '<', eb.tuple(after!.confidence, after!.timestampMs, after!.uuid))),
    )
    .orderBy('match_confidence', 'desc')
    .orderBy('timestamp_ms', 'desc')
    .orderBy('uuid', 'desc')
    .limit(limit)
    .execute();
}

/** Some cameras' sightings in [fromMs, toMs), over the (org, device, time, uuid) index of migration 0055. */
export async function listFaceEventsInSpan(db: Db, q: DeviceSpan & { limit: number }): Promise<FaceEventsTable[]> {
  return readDeviceSpan(
    db.selectFrom('face_events').selectAll(),
    q,
    { device: 'device_uuid', time: 'timestamp_ms', order: ['device_uuid', 'timestamp_ms', 'uuid'] },
    q.limit,
  );
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

/** Sets who a sighting is of (null: an unidentified face). */
export async function setFaceEventPerson(db: Db, orgUuid: string, uuid: string, person: { uuid: string; name: string } | null): Promise<void> {
  await db
    .updateTable('face_events')
    .set({ person_uuid: person?.uuid ?? null, face_name: person?.name ?? null })
    .where('org_uuid', '=', orgUuid)
    .where('uuid', '=', uuid)
    .execute();
}

export async function deleteFaceEvent(db: Db, orgUuid: string, uuid: string): Promise<void> {
  await db.deleteFrom('face_events').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function findMatchingConfig(db: Db, orgUuid: string): Promise<FaceMatchingConfigsTable | undefined> {
  return db.selectFrom('face_matching_configs').selectAll().where('org_uuid', '=', orgUuid).executeTakeFirst();
}

export async function putMatchingConfig(db: Db, row: FaceMatchingConfigsTable): Promise<void> {
  await db
    .insertInto('face_matching_configs')
    .values(row)
    .onConflict((oc) => oc.column('org_uuid').doUpdateSet({ confidence_threshold: row.confidence_threshold, updated_at_ms: row.updated_at_ms }))
    .execute();
}

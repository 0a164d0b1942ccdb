import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { LocationsTable } from '../tables.js';

type Db = Kysely<DB>;

export type LocationPatch = Partial<Omit<LocationsTable, 'uuid' | 'org_uuid' | 'created_at_ms' | 'monitoring_pin_digest'>>;

export async function updateLocation(db: Db, orgUuid: string, uuid: string, patch: LocationPatch): Promise<void> {
  await db.updateTable('locations').set(patch).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function deleteLocation(db: Db, orgUuid: string, uuid: string): Promise<void> {
  await db.deleteFrom('locations').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function countDevicesAt(db: Db, locationUuid: string): Promise<number> {
  const row = await db
    .selectFrom('devices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('location_uuid', '=', locationUuid)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countSubLocations(db: Db, locationUuid: string): Promise<number> {
  const row = await db
    .selectFrom('locations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('parent_uuid', '=', locationUuid)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The labels of the organization's locations, by location then label. */
export async function listLabels(db: Db, orgUuid: string, locationUuids?: readonly string[]): Promise<Array<{ location_uuid: string; label: string }>> {
  if (locationUuids && locationUuids.length === 0) return [];
  return db
    .selectFrom('location_labels')
    .select(['location_uuid', 'label'])
    .where('org_uuid', '=', orgUuid)
    .$if(locationUuids !== undefined, (q) => q.where('location_uuid', 'in', locationUuids!))
    .orderBy('location_uuid')
    .orderBy('label')
    .execute();
}

/** Adds a label; false when the location had it already. */
export async function insertLabel(db: Db, orgUuid: string, locationUuid: string, label: string): Promise<boolean> {
  const result = await db
    .insertInto('location_labels')
    .values({ org_uuid: orgUuid, location_uuid: locationUuid, label })
    .onConflict((oc) => oc.columns(['location_uuid', 'label']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Removes a label; false when the location did not have it. */
export async function deleteLabel(db: Db, locationUuid: string, label: string): Promise<boolean> {
  const result = await db.deleteFrom('location_labels').where('location_uuid', '=', locationUuid).where('label', '=', label).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function replaceLabels(db: Db, orgUuid: string, locationUuid: string, labels: readonly string[]): Promise<void> {
  await db.deleteFrom('location_labels').where('location_uuid', '=', locationUuid).execute();
  if (labels.length > 0)
    await db
      .insertInto('location_labels')
      .values(labels.map((label) => ({ org_uuid: orgUuid, location_uuid: locationUuid, label })))
      .execute();
}

import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { LicensesTable } from './tables.js';

type Db = Kysely<DB>;
export type LicenseRow = Selectable<LicensesTable>;

export async function insertLicenses(db: Db, rows: readonly LicensesTable[]): Promise<void> {
  if (rows.length > 0)
    await db
      .insertInto('licenses')
      .values([...rows])
      .execute();
}

export async function findLicense(db: Db, orgUuid: string, uuid: string): Promise<LicenseRow | undefined> {
  return db.selectFrom('licenses').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

export async function listLicenses(db: Db, orgUuid: string, productType: LicensesTable['product_type']): Promise<LicenseRow[]> {
  return db
    .selectFrom('licenses')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('product_type', '=', productType)
    .orderBy('created_at_ms')
    .orderBy('uuid')
    .execute();
}

/** The licenses assigned to a device or a door (a license and its add-ons). */
export async function licensesOfTarget(db: Db, orgUuid: string, column: 'device_uuid' | 'door_uuid', uuid: string): Promise<LicenseRow[]> {
  return db.selectFrom('licenses').selectAll().where('org_uuid', '=', orgUuid).where(column, '=', uuid).execute();
}

/** The license of the same product (and add-on) already on a target, which an assignment takes the place of. */
export async function licenseOn(
  db: Db,
  orgUuid: string,
  productType: LicensesTable['product_type'],
  target: { column: 'device_uuid' | 'door_uuid' | 'location_uuid'; uuid: string },
  addOn: string | null,
): Promise<LicenseRow | undefined> {
  let q = db.selectFrom('licenses').selectAll().where('org_uuid', '=', orgUuid).where('product_type', '=', productType).where(target.column, '=', target.uuid);
  if (addOn) q = q.where('add_on', '=', addOn);
  return q.executeTakeFirst();
}

export async function updateAssignment(
  db: Db,
  uuid: string,
  patch: Pick<LicensesTable, 'device_uuid' | 'door_uuid' | 'location_uuid' | 'first_assigned_ms' | 'updated_at_ms'>,
): Promise<void> {
  await db.updateTable('licenses').set(patch).where('uuid', '=', uuid).execute();
}

/** A deleted device or door keeps no license: the licenses on it are free again. */
export async function releaseTarget(db: Db, column: 'device_uuid' | 'door_uuid', uuid: string, nowMs: number): Promise<void> {
  await db
    .updateTable('licenses')
    .set({ [column]: null, updated_at_ms: nowMs })
    .where(column, '=', uuid)
    .execute();
}

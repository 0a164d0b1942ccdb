import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { ElevatorLandingLabelsTable } from '../tables.js';

type Db = Kysely<DB>;

export async function insertLabel(db: Db, row: ElevatorLandingLabelsTable): Promise<void> {
  await db.insertInto('elevator_landing_labels').values(row).execute();
}

export async function deleteLabel(db: Db, landingUuid: string, label: string): Promise<void> {
  await db.deleteFrom('elevator_landing_labels').where('landing_uuid', '=', landingUuid).where('label', '=', label).execute();
}

export async function listLabels(db: Db, landingUuid: string): Promise<string[]> {
  const rows = await db.selectFrom('elevator_landing_labels').select('label').where('landing_uuid', '=', landingUuid).orderBy('label').execute();
  return rows.map((r) => r.label);
}

/** Every label of the organization's landings, by landing then label. */
export async function listOrgLabels(db: Db, orgUuid: string): Promise<Array<{ landing_uuid: string; label: string }>> {
  return db
    .selectFrom('elevator_landing_labels')
    .select(['landing_uuid', 'label'])
    .where('org_uuid', '=', orgUuid)
    .orderBy('landing_uuid')
    .orderBy('label')
    .execute();
}

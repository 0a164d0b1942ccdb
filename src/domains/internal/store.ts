import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { ShipmentsTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertShipment(db: Db, row: ShipmentsTable): Promise<void> {
  await db.insertInto('shipments').values(row).execute();
}

export async function findShipmentByOpp(db: Db, orgUuid: string, crmOppId: string): Promise<ShipmentsTable | undefined> {
  return db.selectFrom('shipments').selectAll().where('org_uuid', '=', orgUuid).where('crm_opp_id', '=', crmOppId).executeTakeFirst();
}

import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { RmasTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertRma(db: Db, row: RmasTable): Promise<void> {
  await db.insertInto('rmas').values(row).execute();
}

export async function listRmas(db: Db, orgUuid: string): Promise<RmasTable[]> {
  return db.selectFrom('rmas').selectAll().where('org_uuid', '=', orgUuid).orderBy('created_at_ms', 'desc').orderBy('uuid').execute();
}

export async function listWarrantyApprovedTickets(db: Db, orgUuid: string): Promise<Array<number | null>> {
  const rows = await db
    .selectFrom('rmas')
    .select('zendesk_ticket')
    .where('org_uuid', '=', orgUuid)
    .where('warranty_approved', '=', 1)
    .orderBy('created_at_ms')
    .execute();
  return rows.map((r) => r.zendesk_ticket);
}

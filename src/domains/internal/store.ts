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

/** Every organization's shipments of a sales opportunity (a few at most: the identifier is the CRM's). */
export async function findShipmentsByOppInAnyOrg(db: Db, crmOppId: string, limit: number): Promise<ShipmentsTable[]> {
  return db.selectFrom('shipments').selectAll().where('crm_opp_id', '=', crmOppId).orderBy('created_at_ms').orderBy('uuid').limit(limit).execute();
}

export async function findShipmentByUuid(db: Db, uuid: string): Promise<ShipmentsTable | undefined> {
  return db.selectFrom('shipments').selectAll().where('uuid', '=', uuid).executeTakeFirst();
}

/**
 * Claims the shipment's e-mail for one sender: true only for the one call whose update found it unclaimed
 * (or found a claim abandoned before `abandonedBeforeMs`). The condition and the write are one statement,
 * so of two concurrent calls exactly one wins, on either dialect.
 */
export async function claimShipmentEmail(db: Db, uuid: string, nowMs: number, abandonedBeforeMs: number): Promise<boolean> {
  const result = await db
    .updateTable('shipments')
    .set({ email_state: 'SENDING', email_attempt_at_ms: nowMs })
    .where('uuid', '=', uuid)
    .where((eb) => eb.or([eb('email_state', 'is', null), eb.and([eb('email_state', '=', 'SENDING'), eb('email_attempt_at_ms', '<', abandonedBeforeMs)])]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function recordShipmentEmail(db: Db, uuid: string, outcome: { state: string; sentAtMs: number | null; error: string | null }): Promise<void> {
  await db
    .updateTable('shipments')
    .set({ email_state: outcome.state, email_sent_at_ms: outcome.sentAtMs, email_error: outcome.error })
    .where('uuid', '=', uuid)
    .where('email_state', '=', 'SENDING')
    .execute();
}

/** The shipments of these organizations recorded in [fromMs, toMs), oldest first. */
export async function listShipmentsOfOrgs(db: Db, orgUuids: readonly string[], fromMs: number, toMs: number): Promise<ShipmentsTable[]> {
  if (orgUuids.length === 0) return [];
  return db
    .selectFrom('shipments')
    .selectAll()
    .where('org_uuid', 'in', orgUuids)
    .where('created_at_ms', '>=', fromMs)
    .where('created_at_ms', '<', toMs)
    .orderBy('created_at_ms')
    .orderBy('uuid')
    .execute();
}

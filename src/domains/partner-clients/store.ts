import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { PartnerDealsTable, PartnerHardwareTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertHardware(db: Db, row: PartnerHardwareTable): Promise<void> {
  await db.insertInto('partner_hardware').values(row).execute();
}

/** The hardware of these serial numbers, whichever partner holds it (a serial is in one inventory). */
export async function findHardwareBySerial(db: Db, serials: readonly string[]): Promise<PartnerHardwareTable[]> {
  if (serials.length === 0) return [];
  return db.selectFrom('partner_hardware').selectAll().where('serial_number', 'in', serials).execute();
}

/** The partner's hardware not yet registered to a client, by serial number. */
export async function listAvailableHardware(db: Db, partnerOrgUuid: string): Promise<PartnerHardwareTable[]> {
  return db
    .selectFrom('partner_hardware')
    .selectAll()
    .where('partner_org_uuid', '=', partnerOrgUuid)
    .where('client_org_uuid', 'is', null)
    .orderBy('serial_number')
    .execute();
}

/** Registers available hardware to a client; false when it was registered meanwhile. */
export async function markHardwareRegistered(
  db: Db,
  uuid: string,
  to: { clientOrgUuid: string; deviceUuid: string; wifiSsid: string | null; wifiPskSealed: string | null; nowMs: number },
): Promise<boolean> {
  const r = await db
    .updateTable('partner_hardware')
    .set({
      client_org_uuid: to.clientOrgUuid,
      device_uuid: to.deviceUuid,
      wifi_ssid: to.wifiSsid,
      wifi_psk_sealed: to.wifiPskSealed,
      registered_at_ms: to.nowMs,
    })
    .where('uuid', '=', uuid)
    .where('client_org_uuid', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function insertDeal(db: Db, row: PartnerDealsTable): Promise<void> {
  await db.insertInto('partner_deals').values(row).execute();
}

/** The partner's deals, newest first (at most `limit`). */
export async function listDeals(db: Db, partnerOrgUuid: string, limit: number): Promise<PartnerDealsTable[]> {
  return db
    .selectFrom('partner_deals')
    .selectAll()
    .where('partner_org_uuid', '=', partnerOrgUuid)
    .orderBy('created_at_ms', 'desc')
    .orderBy('uuid')
    .limit(limit)
    .execute();
}

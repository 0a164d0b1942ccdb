import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { PolicyAlertsTable } from './tables.js';

type Db = Kysely<DB>;

/** A position in the newest-first order of alerts: (timestamp, uuid), both descending. */
export interface AlertCursor {
  timestampMs: number;
  uuid: string;
}

export async function insertPolicyAlerts(db: Db, rows: PolicyAlertsTable[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('policy_alerts').values(rows).execute();
}

export async function findPolicyAlert(db: Db, orgUuid: string, uuid: string): Promise<PolicyAlertsTable | undefined> {
  return db.selectFrom('policy_alerts').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

export async function findPolicyAlerts(db: Db, orgUuid: string, uuids: readonly string[]): Promise<PolicyAlertsTable[]> {
  if (uuids.length === 0) return [];
  return db.selectFrom('policy_alerts').selectAll().where('org_uuid', '=', orgUuid).where('uuid', 'in', uuids).execute();
}

/**
 * A device's alerts newest first, strictly after the cursor when one is given. The row-value comparison
 * lets both dialects seek straight into the (org, device, timestamp, uuid) index: the cost of a page does
 * not grow with the device's history.
 */
export async function listDeviceAlerts(db: Db, orgUuid: string, deviceUuid: string, after: AlertCursor | null, limit: number): Promise<PolicyAlertsTable[]> {
  return db
    .selectFrom('policy_alerts')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('device_uuid', '=', deviceUuid)
    .$if(after !== null, (q) => q.where((eb) => eb(eb.refTuple('timestamp_ms', 'uuid'), '<', eb.tuple(after!.timestampMs, after!.uuid))))
    .orderBy('timestamp_ms', 'desc')
    .orderBy('uuid', 'desc')
    .limit(limit)
    .execute();
}

export interface AlertListFilter {
  fromMs: number | null;
  beforeMs: number | null;
  deviceUuids: readonly string[] | null;
  locationUuids: readonly string[] | null;
  after: AlertCursor | null;
  limit: number;
}

/** An organization's alerts newest first, within a time range and optional device and location filters. */
export async function listOrgAlerts(db: Db, orgUuid: string, f: AlertListFilter): Promise<PolicyAlertsTable[]> {
  return db
    .selectFrom('policy_alerts')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .$if(f.fromMs !== null, (q) => q.where('timestamp_ms', '>=', f.fromMs!))
    .$if(f.beforeMs !== null, (q) => q.where('timestamp_ms', '<', f.beforeMs!))
    .$if(f.deviceUuids !== null, (q) => q.where('device_uuid', 'in', f.deviceUuids!))
    .$if(f.locationUuids !== null, (q) => q.where('location_uuid', 'in', f.locationUuids!))
    .$if(f.after !== null, (q) => q.where((eb) => eb(eb.refTuple('timestamp_ms', 'uuid'), '<', eb.tuple(f.after!.timestampMs, f.after!.uuid))))
    .orderBy('timestamp_ms', 'desc')
    .orderBy('uuid', 'desc')
    .limit(f.limit)
    .execute();
}

export async function markPolicyAlertSaved(db: Db, orgUuid: string, uuid: string, details: string): Promise<void> {
  await db.updateTable('policy_alerts').set({ saved: 1, details }).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function deletePolicyAlerts(db: Db, orgUuid: string, uuids: readonly string[]): Promise<number> {
  if (uuids.length === 0) return 0;
  const result = await db.deleteFrom('policy_alerts').where('org_uuid', '=', orgUuid).where('uuid', 'in', uuids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

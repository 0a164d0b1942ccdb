import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { PolicyAlertsTable } from '../tables.js';
import { preparedQuery } from '../../../store/prepared-query.js';

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

export interface AlertListFilter {
  fromMs?: number | null;
  beforeMs?: number | null;
  deviceUuids?: readonly string[] | null;
  locationUuids?: readonly string[] | null;
  after: AlertCursor | null;
  limit: number;
}

/**
 * An organization's alerts newest first, strictly after the cursor when one is given, within a time range
 * and optional device and location filters. Dismissed alerts are not part of any feed. The row-value
 * comparison lets both dialects seek straight into the (org[, device | location], timestamp, uuid) indexes:
 * the cost of a page does not grow with the history.
 */
export async function listOrgAlerts(db: Db, orgUuid: string, f: AlertListFilter): Promise<PolicyAlertsTable[]> {
  return orgAlertsQuery(db, orgUuid, f).execute();
}

function orgAlertsQuery(db: Db, orgUuid: string, f: AlertListFilter) {
  const one = (list: readonly string[] | null | undefined) => (list && list.length === 1 ? list[0] : null);
  const many = (list: readonly string[] | null | undefined) => (list && list.length > 1 ? list : null);
  return db
    .selectFrom('policy_alerts')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('dismissed_at_ms', 'is', null)
    .$if(one(f.deviceUuids) !== null, (q) => q.where('device_uuid', '=', one(f.deviceUuids)!))
    .$if(many(f.deviceUuids) !== null, (q) => q.where('device_uuid', 'in', many(f.deviceUuids)!))
    .$if(one(f.locationUuids) !== null, (q) => q.where('location_uuid', '=', one(f.locationUuids)!))
    .$if(many(f.locationUuids) !== null, (q) => q.where('location_uuid', 'in', many(f.locationUuids)!))
    .$if(f.fromMs != null, (q) => q.where('timestamp_ms', '>=', f.fromMs!))
    .$if(f.beforeMs != null, (q) => q.where('timestamp_ms', '<', f.beforeMs!))
    .$if(f.after !== null, (q) => q.where((eb) => eb(eb.refTuple('timestamp_ms', 'uuid'), '<', eb.tuple(f.after!.timestampMs, f.after!.uuid))))
    .orderBy('timestamp_ms', 'desc')
    .orderBy('uuid', 'desc')
    .limit(f.limit);
}

/**
 * A device's alerts newest first (see listOrgAlerts): the page its clients poll, from the start or past a cursor,
 * compiled once per dialect (src/store/prepared-query.ts), where Kysely built and compiled it anew for every request.
 */
const deviceAlertsFromStart = preparedQuery(3, (db, orgUuid: string, deviceUuid: string, limit: number) =>
  orgAlertsQuery(db, orgUuid, { deviceUuids: [deviceUuid], after: null, limit }),
);
const deviceAlertsPast = preparedQuery(5, (db, orgUuid: string, deviceUuid: string, limit: number, timestampMs: number, uuid: string) =>
  orgAlertsQuery(db, orgUuid, { deviceUuids: [deviceUuid], after: { timestampMs, uuid }, limit }),
);

export function listDeviceAlerts(db: Db, orgUuid: string, deviceUuid: string, after: AlertCursor | null, limit: number): Promise<PolicyAlertsTable[]> {
  return after ? deviceAlertsPast(db, orgUuid, deviceUuid, limit, after.timestampMs, after.uuid) : deviceAlertsFromStart(db, orgUuid, deviceUuid, limit);
}

/** How many alerts of the organization are in its feed (not dismissed), counting at most `cap`. */
export async function countFeedAlerts(db: Db, orgUuid: string, cap: number): Promise<number> {
  const row = await db
    .selectFrom((eb) =>
      eb.selectFrom('policy_alerts').select('uuid').where('org_uuid', '=', orgUuid).where('dismissed_at_ms', 'is', null).limit(cap).as('feed'),
    )
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks alerts dismissed (those not dismissed yet); answers the rows it dismissed, as they now are. */
export async function dismissAlerts(db: Db, orgUuid: string, uuids: readonly string[], atMs: number): Promise<PolicyAlertsTable[]> {
  if (uuids.length === 0) return [];
  return db
    .updateTable('policy_alerts')
    .set({ dismissed_at_ms: atMs })
    .where('org_uuid', '=', orgUuid)
    .where('uuid', 'in', uuids)
    .where('dismissed_at_ms', 'is', null)
    .returningAll()
    .execute();
}

/** The uuids of the organization's alerts still in its feed, of the given devices when given, oldest first. */
export async function listFeedAlertUuids(db: Db, orgUuid: string, deviceUuids: readonly string[] | null, limit: number): Promise<string[]> {
  if (deviceUuids !== null && deviceUuids.length === 0) return [];
  const rows = await db
    .selectFrom('policy_alerts')
    .select('uuid')
    .where('org_uuid', '=', orgUuid)
    .where('dismissed_at_ms', 'is', null)
    .$if(deviceUuids !== null, (q) => q.where('device_uuid', 'in', deviceUuids!))
    .orderBy('timestamp_ms')
    .orderBy('uuid')
    .limit(limit)
    .execute();
  return rows.map((r) => r.uuid);
}

/** A position in the soonest-first order of expiring alerts: (expiry, uuid), both ascending. */
export interface ExpiryCursor {
  expiresAtMs: number;
  uuid: string;
}

/** The organization's alerts that expire before `beforeMs`, soonest first, strictly after the cursor. */
export async function listExpiringAlerts(db: Db, orgUuid: string, beforeMs: number, after: ExpiryCursor | null, limit: number): Promise<PolicyAlertsTable[]> {
  return db
    .selectFrom('policy_alerts')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('expires_at_ms', 'is not', null)
    .where('expires_at_ms', '<', beforeMs)
    .$if(after !== null, (q) => q.where((eb) => eb(eb.refTuple('expires_at_ms', 'uuid'), '>', eb.tuple(after!.expiresAtMs, after!.uuid))))
    .orderBy('expires_at_ms')
    .orderBy('uuid')
    .limit(limit)
    .execute();
}

/** Alerts of any organization that have expired by `nowMs`, soonest first: what the sweep deletes. */
export async function listExpiredAlerts(db: Db, nowMs: number, limit: number): Promise<PolicyAlertsTable[]> {
  return db
    .selectFrom('policy_alerts')
    .selectAll()
    .where('expires_at_ms', 'is not', null)
    .where('expires_at_ms', '<=', nowMs)
    .orderBy('expires_at_ms')
    .limit(limit)
    .execute();
}

export async function markPolicyAlertSaved(db: Db, orgUuid: string, uuid: string, details: string): Promise<void> {
  await db.updateTable('policy_alerts').set({ saved: 1, details, expires_at_ms: null }).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

/** The alert is no longer saved: it expires again at `expiresAtMs`. */
export async function markPolicyAlertUnsaved(db: Db, orgUuid: string, uuid: string, details: string, expiresAtMs: number): Promise<void> {
  await db
    .updateTable('policy_alerts')
    .set({ saved: 0, details, expires_at_ms: expiresAtMs })
    .where('org_uuid', '=', orgUuid)
    .where('uuid', '=', uuid)
    .execute();
}

export async function deletePolicyAlerts(db: Db, orgUuid: string, uuids: readonly string[]): Promise<number> {
  if (uuids.length === 0) return 0;
  const result = await db.deleteFrom('policy_alerts').where('org_uuid', '=', orgUuid).where('uuid', 'in', uuids).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Replaces the JSON fields of an alert (its columns stay). */
export async function updatePolicyAlertDetails(db: Db, orgUuid: string, uuid: string, details: string): Promise<void> {
  await db.updateTable('policy_alerts').set({ details }).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

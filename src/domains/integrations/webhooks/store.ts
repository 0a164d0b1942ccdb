import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { EndpointPurpose, WebhookEndpointsTable } from './tables.js';

type Db = Kysely<DB>;

export async function listEndpoints(db: Db, orgUuid: string, purposes: readonly EndpointPurpose[]): Promise<WebhookEndpointsTable[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('purpose', 'in', [...purposes])
    .orderBy('created_at_ms')
    .orderBy('uuid')
    .execute();
}

export async function findEndpoint(db: Db, orgUuid: string, uuid: string): Promise<WebhookEndpointsTable | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

export async function findEndpointByKey(db: Db, orgUuid: string, key: string): Promise<WebhookEndpointsTable | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('org_uuid', '=', orgUuid).where('endpoint_key', '=', key).executeTakeFirst();
}

export async function insertEndpoint(db: Db, row: WebhookEndpointsTable): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

export async function updateEndpoint(
  db: Db,
  orgUuid: string,
  uuid: string,
  set: Partial<Pick<WebhookEndpointsTable, 'disabled' | 'disabled_reason' | 'secret' | 'secret_masked' | 'since_change_id' | 'updated_at_ms'>>,
): Promise<boolean> {
  const result = await db.updateTable('webhook_endpoints').set(set).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteEndpoint(db: Db, orgUuid: string, uuid: string): Promise<boolean> {
  const result = await db.deleteFrom('webhook_endpoints').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Takes a subscription's back-off slot: true (and the slot is taken) when it last fired at least
 * `backoffSec` before `nowMs`, or never. A single conditional update, so two instances cannot both take it.
 */
export async function takeFiringSlot(db: Db, uuid: string, nowMs: number, backoffSec: number): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ last_fired_at_ms: nowMs })
    .where('uuid', '=', uuid)
    .where((eb) => eb.or([eb('last_fired_at_ms', 'is', null), eb('last_fired_at_ms', '<=', nowMs - backoffSec * 1000)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The organizations that have somewhere to send webhooks (an enabled classic webhook, or an endpoint not
 * disabled), each with the oldest change id its targets start after.
 */
export async function orgsWithTargets(db: Db): Promise<Map<string, number>> {
  const since = new Map<string, number>();
  const keep = (org: string, id: number) => since.set(org, Math.min(id, since.get(org) ?? id));
  const classics = await db.selectFrom('integrations').select(['org_uuid', 'settings']).where('kind', '=', 'WEBHOOK').where('enabled', '=', 1).execute();
  for (const c of classics) keep(c.org_uuid, Number((JSON.parse(c.settings) as { sinceChangeId?: number }).sinceChangeId ?? 0));
  const endpoints = await db
    .selectFrom('webhook_endpoints')
    .select(['org_uuid', (eb) => eb.fn.min('since_change_id').as('since')])
    .where('disabled', '=', 0)
    .groupBy('org_uuid')
    .execute();
  for (const e of endpoints) keep(e.org_uuid, Number(e.since));
  return since;
}

/** The dispatcher's cursors of the organizations named (an organization without one is absent). */
export async function readCursors(db: Db, orgUuids: readonly string[]): Promise<Map<string, number>> {
  if (orgUuids.length === 0) return new Map();
  const rows = await db.selectFrom('webhook_org_cursors').select(['org_uuid', 'last_position']).where('org_uuid', 'in', orgUuids).execute();
  return new Map(rows.map((r) => [r.org_uuid, Number(r.last_position)]));
}

/** Places an organization's cursor, unless another instance placed it first. */
export async function insertCursor(db: Db, orgUuid: string, position: number, nowMs: number): Promise<void> {
  await db
    .insertInto('webhook_org_cursors')
    .values({ org_uuid: orgUuid, last_position: position, updated_at_ms: nowMs })
    .onConflict((oc) => oc.column('org_uuid').doNothing())
    .execute();
}

/** Moves an organization's cursor from one position to another; false when another instance moved it first. */
export async function advanceCursor(db: Db, orgUuid: string, from: number, to: number, nowMs: number): Promise<boolean> {
  const result = await db
    .updateTable('webhook_org_cursors')
    .set({ last_position: to, updated_at_ms: nowMs })
    .where('org_uuid', '=', orgUuid)
    .where('last_position', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Records a device's connection state as of a change; answers true when it differs from the state last
 * recorded (a device first seen is taken to have been online). A change no newer than the one last
 * recorded changes nothing, so a replayed or late change cannot flip it back.
 */
export async function flipDeviceStatus(db: Db, orgUuid: string, deviceUuid: string, online: boolean, changeId: number, nowMs: number): Promise<boolean> {
  const value = online ? 1 : 0;
  const inserted = await db
    .insertInto('webhook_device_status')
    .values({ device_uuid: deviceUuid, org_uuid: orgUuid, online: value, change_id: changeId, updated_at_ms: nowMs })
    .onConflict((oc) => oc.column('device_uuid').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return !online;
  const row = await db
    .selectFrom('webhook_device_status')
    .select(['online', 'change_id'])
    .where('device_uuid', '=', deviceUuid)
    .where('org_uuid', '=', orgUuid)
    .executeTakeFirst();
  if (!row || Number(row.change_id) >= changeId) return false;
  const updated = await db
    .updateTable('webhook_device_status')
    .set({ online: value, change_id: changeId, updated_at_ms: nowMs })
    .where('device_uuid', '=', deviceUuid)
    .where('change_id', '=', row.change_id)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0 && row.online !== value;
}

/** Forgets a device's last connection state (the device is deleted). */
export async function deleteDeviceStatus(db: Db, orgUuid: string, deviceUuid: string): Promise<void> {
  await db.deleteFrom('webhook_device_status').where('org_uuid', '=', orgUuid).where('device_uuid', '=', deviceUuid).execute();
}

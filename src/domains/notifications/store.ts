import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { Tx } from '../../store/reader.js';
import type { NotificationSnoozesTable } from './tables.js';

type Db = Kysely<DB>;

const numbers = (r: NotificationSnoozesTable): NotificationSnoozesTable => ({
  ...r,
  starts_at_ms: Number(r.starts_at_ms),
  ends_at_ms: Number(r.ends_at_ms),
  created_at_ms: Number(r.created_at_ms),
});

export async function insertSnoozes(tx: Tx, rows: readonly NotificationSnoozesTable[]): Promise<void> {
  if (rows.length === 0) return;
  await tx
    .insertInto('notification_snoozes')
    .values([...rows])
    .execute();
}

/**
 * The snoozes of these users (one query, whatever their number) that have not ended at `atMs`: with
 * `startedBy`, only those in force then; soonest first.
 */
export async function snoozesOf(db: Db, orgUuid: string, userUuids: readonly string[], atMs: number, startedBy?: number): Promise<NotificationSnoozesTable[]> {
  if (userUuids.length === 0) return [];
  let query = db
    .selectFrom('notification_snoozes')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('user_uuid', 'in', userUuids)
    .where('ends_at_ms', '>', atMs);
  if (startedBy !== undefined) query = query.where('starts_at_ms', '<=', startedBy);
  return (await query.orderBy('starts_at_ms').orderBy('uuid').execute()).map(numbers);
}

/** Deletes one snooze of a user, of the given scope; the deleted row, or undefined when there was none. */
export async function deleteSnooze(tx: Tx, orgUuid: string, userUuid: string, uuid: string, scope: string): Promise<NotificationSnoozesTable | undefined> {
  const row = await tx
    .selectFrom('notification_snoozes')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('user_uuid', '=', userUuid)
    .where('uuid', '=', uuid)
    .where('scope', '=', scope)
    .executeTakeFirst();
  if (!row) return undefined;
  await tx.deleteFrom('notification_snoozes').where('uuid', '=', uuid).execute();
  return numbers(row);
}

export async function deleteSnoozesOfUser(tx: Tx, orgUuid: string, userUuid: string): Promise<void> {
  await tx.deleteFrom('notification_snoozes').where('org_uuid', '=', orgUuid).where('user_uuid', '=', userUuid).execute();
}

/** Records that a user was notified of a source; false when they were already (another instance did it). */
export async function claimNotification(tx: Tx, row: DB['user_notifications']): Promise<boolean> {
  const result = await tx
    .insertInto('user_notifications')
    .values(row)
    .onConflict((oc) => oc.columns(['user_uuid', 'source_uuid']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Deletes the organization's snoozes of one target (a device, a location, a door); the deleted rows. */
export async function deleteSnoozesOfTarget(tx: Tx, orgUuid: string, scope: string, targetUuid: string): Promise<NotificationSnoozesTable[]> {
  const rows = await tx
    .selectFrom('notification_snoozes')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('scope', '=', scope)
    .where('target_uuid', '=', targetUuid)
    .orderBy('uuid')
    .execute();
  if (rows.length > 0)
    await tx.deleteFrom('notification_snoozes').where('org_uuid', '=', orgUuid).where('scope', '=', scope).where('target_uuid', '=', targetUuid).execute();
  return rows.map(numbers);
}

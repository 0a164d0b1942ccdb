import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { NotificationMutesTable } from '../tables.js';

type Db = Kysely<DB>;

export async function findMute(db: Db, orgUuid: string, deviceUuid: string): Promise<NotificationMutesTable | undefined> {
  return db.selectFrom('notification_mutes').selectAll().where('org_uuid', '=', orgUuid).where('device_uuid', '=', deviceUuid).executeTakeFirst();
}

/** Sets the device's mute, replacing the one it had. */
export async function putMute(db: Db, row: NotificationMutesTable): Promise<void> {
  await db
    .insertInto('notification_mutes')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['org_uuid', 'device_uuid']).doUpdateSet({ muted_until_ms: row.muted_until_ms, muted_at_ms: row.muted_at_ms, user_uuid: row.user_uuid }),
    )
    .execute();
}

export async function deleteMute(db: Db, orgUuid: string, deviceUuid: string): Promise<void> {
  await db.deleteFrom('notification_mutes').where('org_uuid', '=', orgUuid).where('device_uuid', '=', deviceUuid).execute();
}

/** The organization's mutes in force at `atMs`, by device. */
export async function listMutesInForce(db: Db, orgUuid: string, atMs: number): Promise<NotificationMutesTable[]> {
  return db.selectFrom('notification_mutes').selectAll().where('org_uuid', '=', orgUuid).where('muted_until_ms', '>', atMs).orderBy('device_uuid').execute();
}

import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { LiveShareKind, SharedLiveStreamsTable } from '../tables.js';

type Db = Kysely<DB>;

export async function insertShare(db: Db, row: SharedLiveStreamsTable): Promise<void> {
  await db.insertInto('shared_live_streams').values(row).execute();
}

/** A share of the organization, of one of `kinds`. */
export async function findShare(db: Db, orgUuid: string, kinds: readonly LiveShareKind[], uuid: string): Promise<SharedLiveStreamsTable | undefined> {
  return db
    .selectFrom('shared_live_streams')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('kind', 'in', [...kinds])
    .where('uuid', '=', uuid)
    .executeTakeFirst();
}

/** The share a link names, of whichever organization. */
export async function findShareByToken(db: Db, token: string): Promise<SharedLiveStreamsTable | undefined> {
  return db.selectFrom('shared_live_streams').selectAll().where('share_token', '=', token).executeTakeFirst();
}

/** The organization's shares of some kinds, of one device or video wall when given, oldest first. */
export async function listShares(
  db: Db,
  orgUuid: string,
  kinds: readonly LiveShareKind[],
  of: { deviceUuid?: string; videoWallUuid?: string } = {},
): Promise<SharedLiveStreamsTable[]> {
  return db
    .selectFrom('shared_live_streams')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('kind', 'in', [...kinds])
    .$if(of.deviceUuid !== undefined, (q) => q.where('device_uuid', '=', of.deviceUuid!))
    .$if(of.videoWallUuid !== undefined, (q) => q.where('video_wall_uuid', '=', of.videoWallUuid!))
    .orderBy('created_at_ms')
    .orderBy('uuid')
    .execute();
}

/** The organization's devices with a live stream shared now (a share not past its expiry), in one query. */
export async function sharedDeviceUuids(db: Db, orgUuid: string, nowMs: number): Promise<Set<string>> {
  const rows = await db
    .selectFrom('shared_live_streams')
    .select('device_uuid')
    .distinct()
    .where('org_uuid', '=', orgUuid)
    .where('device_uuid', 'is not', null)
    .where((eb) => eb.or([eb('expires_at_ms', 'is', null), eb('expires_at_ms', '>', nowMs)]))
    .execute();
  return new Set(rows.map((r) => r.device_uuid!));
}

/** The first time after nowMs at which one of the organization's live-stream shares expires, or null when none will. */
export async function nextShareExpiry(db: Db, orgUuid: string, nowMs: number): Promise<number | null> {
  const row = await db
    .selectFrom('shared_live_streams')
    .select((eb) => eb.fn.min('expires_at_ms').as('next'))
    .where('org_uuid', '=', orgUuid)
    .where('expires_at_ms', '>', nowMs)
    .executeTakeFirst();
  return row?.next == null ? null : Number(row.next);
}

export async function deleteShares(db: Db, orgUuid: string, uuids: readonly string[]): Promise<number> {
  if (uuids.length === 0) return 0;
  const result = await db
    .deleteFrom('shared_live_streams')
    .where('org_uuid', '=', orgUuid)
    .where('uuid', 'in', [...uuids])
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

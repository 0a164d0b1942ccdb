import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { lowerContains } from '../../../store/like.js';
import type { DB } from '../../../store/schema.js';
import { SAVED_CLIP_KINDS, type ClipKind, type ClipStatus, type ClipVisibility, type SavedClipsTable } from '../tables.js';

type Db = Kysely<DB>;

export async function insertClip(db: Db, row: SavedClipsTable): Promise<void> {
  await db.insertInto('saved_clips').values(row).execute();
}

/** A clip of the organization, of one of `kinds` (default: the saved clips, not the timelapses). */
export async function findClip(db: Db, orgUuid: string, uuid: string, kinds: readonly ClipKind[] = SAVED_CLIP_KINDS): Promise<SavedClipsTable | undefined> {
  return db
    .selectFrom('saved_clips')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('uuid', '=', uuid)
    .where('kind', 'in', [...kinds])
    .executeTakeFirst();
}

/** An organization's clips newest first (timestamp, then uuid), strictly older than `beforeMs` when given. */
export async function listClips(db: Db, orgUuid: string, beforeMs: number | null, limit: number): Promise<SavedClipsTable[]> {
  return db
    .selectFrom('saved_clips')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('kind', 'in', [...SAVED_CLIP_KINDS])
    .$if(beforeMs !== null, (q) => q.where('timestamp_ms', '<', beforeMs!))
    .orderBy('timestamp_ms', 'desc')
    .orderBy('uuid', 'desc')
    .limit(limit)
    .execute();
}

/** An organization's clips of one kind (the timelapses), newest first. */
export async function listClipsOfKind(db: Db, orgUuid: string, kind: ClipKind): Promise<SavedClipsTable[]> {
  return db
    .selectFrom('saved_clips')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('kind', '=', kind)
    .orderBy('created_at_ms', 'desc')
    .orderBy('uuid', 'desc')
    .execute();
}

/** Every clip of one timestamp, for the page that must not split them. */
export async function listClipsAt(db: Db, orgUuid: string, timestampMs: number): Promise<SavedClipsTable[]> {
  return db
    .selectFrom('saved_clips')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('kind', 'in', [...SAVED_CLIP_KINDS])
    .where('timestamp_ms', '=', timestampMs)
    .orderBy('uuid', 'desc')
    .execute();
}

/** Moves a clip from one of `from` to `to`; false when it was in none of them (someone else moved it first). */
export async function moveClipStatus(db: Db, orgUuid: string, uuid: string, from: readonly ClipStatus[], to: ClipStatus): Promise<boolean> {
  const result = await db
    .updateTable('saved_clips')
    .set({ status: to })
    .where('org_uuid', '=', orgUuid)
    .where('uuid', '=', uuid)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function updateClip(db: Db, orgUuid: string, uuid: string, values: Partial<Omit<SavedClipsTable, 'uuid' | 'org_uuid'>>): Promise<void> {
  await db.updateTable('saved_clips').set(values).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

/** What a list of clips is limited to; every field optional. */
export interface ClipFilter {
  deviceUuids?: readonly string[] | null;
  /** Footage start (or creation) at or after / before. */
  timeField?: 'timestamp_ms' | 'created_at_ms';
  fromMs?: number | null;
  beforeMs?: number | null;
  createdAtOrBeforeMs?: number | null;
  search?: string | null;
  visibility?: ClipVisibility | null;
}

/** A position in a sorted list of clips: the sort value and uuid of the last clip of a page. */
export interface ClipKey {
  value: number;
  uuid: string;
}

function filtered<Q extends SelectQueryBuilder<DB, 'saved_clips', object>>(q: Q, orgUuid: string, f: ClipFilter): Q {
  const timeField = f.timeField ?? 'timestamp_ms';
  let out = q.where('saved_clips.org_uuid', '=', orgUuid).where('kind', 'in', [...SAVED_CLIP_KINDS]) as Q;
  if (f.deviceUuids) out = out.where('device_uuid', 'in', f.deviceUuids.length > 0 ? [...f.deviceUuids] : ['']) as Q;
  if (f.fromMs != null) out = out.where(timeField, '>=', f.fromMs) as Q;
  if (f.beforeMs != null) out = out.where(timeField, '<', f.beforeMs) as Q;
  if (f.createdAtOrBeforeMs != null) out = out.where('created_at_ms', '<=', f.createdAtOrBeforeMs) as Q;
  if (f.visibility) out = out.where('visibility', '=', f.visibility) as Q;
  if (f.search) out = out.where(sql<boolean>`(${lowerContains('title', f.search)} or ${lowerContains('description', f.search)})`) as Q;
  return out;
}

/** A page of clips in the sort order, after `after` when given (keyset: no gaps or repeats as clips come and go). */
export async function listClipsSorted(
  db: Db,
  orgUuid: string,
  filter: ClipFilter,
  sort: { field: 'timestamp_ms' | 'created_at_ms'; descending: boolean },
  after: ClipKey | null,
  limit: number,
): Promise<SavedClipsTable[]> {
  const direction = sort.descending ? 'desc' : 'asc';
  const beyond = sort.descending ? '<' : '>';
  let q = filtered(db.selectFrom('saved_clips').selectAll(), orgUuid, filter);
  if (after) {
    q = q.where((eb) => eb.or([eb(sort.field, beyond, after.value), eb.and([eb(sort.field, '=', after.value), eb('uuid', beyond, after.uuid)])]));
  }
  return q.orderBy(sort.field, direction).orderBy('uuid', direction).limit(limit).execute();
}

/** How many clips pass the filter, and how many of them are PRIVATE. */
export async function countClips(db: Db, orgUuid: string, filter: ClipFilter): Promise<{ count: number; privateCount: number }> {
  const row = await filtered(db.selectFrom('saved_clips'), orgUuid, filter)
    .select((eb) => [
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.sum<number | string | null>(eb.case().when('visibility', '=', 'PRIVATE').then(1).else(0).end()).as('private_count'),
    ])
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), privateCount: Number(row.private_count ?? 0) };
}

export async function listClipsByTransaction(db: Db, orgUuid: string, externalTransactionId: string): Promise<SavedClipsTable[]> {
  return db
    .selectFrom('saved_clips')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('kind', 'in', [...SAVED_CLIP_KINDS])
    .where('external_transaction_id', '=', externalTransactionId)
    .orderBy('timestamp_ms', 'desc')
    .orderBy('uuid', 'desc')
    .execute();
}

/** The clips of the organization among `uuids`, of one of `kinds` (default: the saved clips). */
export async function findClips(db: Db, orgUuid: string, uuids: readonly string[], kinds: readonly ClipKind[] = SAVED_CLIP_KINDS): Promise<SavedClipsTable[]> {
  if (uuids.length === 0) return [];
  return db
    .selectFrom('saved_clips')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('uuid', 'in', [...uuids])
    .where('kind', 'in', [...kinds])
    .execute();
}

export async function deleteClip(db: Db, orgUuid: string, uuid: string): Promise<boolean> {
  const result = await db.deleteFrom('saved_clips').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** An organization's spliced clips (and frames) in one of the statuses, newest first. */
export async function listSplices(db: Db, orgUuid: string, statuses: readonly ClipStatus[]): Promise<SavedClipsTable[]> {
  return db
    .selectFrom('saved_clips')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('spliced', '=', 1)
    .where('kind', 'in', [...SAVED_CLIP_KINDS])
    .where('status', 'in', [...statuses])
    .orderBy('created_at_ms', 'desc')
    .orderBy('uuid', 'desc')
    .execute();
}

/** Spliced clips, frames and timelapses of every organization still waiting for their render (picked up when an instance starts). */
export async function listPendingRenders(db: Db, limit: number): Promise<Array<Pick<SavedClipsTable, 'org_uuid' | 'uuid'>>> {
  return db
    .selectFrom('saved_clips')
    .select(['org_uuid', 'uuid'])
    .where('status', '=', 'INITIATING')
    .where('spliced', '=', 1)
    .orderBy('created_at_ms')
    .limit(limit)
    .execute();
}

/**
 * Moves a clip from one of `from` (in render `attempt`, when given) and sets `values` with it; false when it was
 * elsewhere: someone else moved it first (a cancel, a retry, another instance's render).
 */
export async function moveClip(
  db: Db,
  orgUuid: string,
  uuid: string,
  from: { statuses: readonly ClipStatus[]; attempt?: number },
  values: Partial<Omit<SavedClipsTable, 'uuid' | 'org_uuid'>>,
): Promise<boolean> {
  const result = await db
    .updateTable('saved_clips')
    .set(values)
    .where('org_uuid', '=', orgUuid)
    .where('uuid', '=', uuid)
    .where('status', 'in', [...from.statuses])
    .$if(from.attempt !== undefined, (q) => q.where('render_attempt', '=', from.attempt!))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The clips saved from the given alerts. */
export async function findClipsOfAlerts(db: Db, orgUuid: string, alertUuids: readonly string[]): Promise<SavedClipsTable[]> {
  if (alertUuids.length === 0) return [];
  return db
    .selectFrom('saved_clips')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('source_alert_uuid', 'in', [...alertUuids])
    .execute();
}

/** Splices of every organization left UPLOADING or RENDERING since before `beforeMs`: their render stopped with its instance. */
export async function listStalledRenders(db: Db, beforeMs: number, limit: number): Promise<SavedClipsTable[]> {
  return db
    .selectFrom('saved_clips')
    .selectAll()
    .where('spliced', '=', 1)
    .where('status', 'in', ['UPLOADING', 'RENDERING'])
    .where('updated_at_ms', '<', beforeMs)
    .orderBy('updated_at_ms')
    .limit(limit)
    .execute();
}

/** The organization's clips whose details mention `text` (a pre-filter: the caller reads the details for the exact field). */
export async function listClipsMentioning(db: Db, orgUuid: string, text: string): Promise<SavedClipsTable[]> {
  return db.selectFrom('saved_clips').selectAll().where('org_uuid', '=', orgUuid).where('details', 'like', `%${text}%`).execute();
}

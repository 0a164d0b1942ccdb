import type { Kysely } from 'kysely';
import type { ChangeEvent, ChangeType } from '../../store/change-event.js';
import { fromJson } from '../../store/columns.js';
import type { DB } from '../../store/schema.js';
import type { ChangeEventsTable } from '../../store/change-tables.js';

type Row = Omit<ChangeEventsTable, 'id'> & { id: number };

const toEvent = (r: Row): ChangeEvent => ({
  id: Number(r.id),
  position: Number(r.position),
  orgUuid: r.org_uuid,
  entity: r.entity,
  entityUuid: r.entity_uuid,
  type: r.type as ChangeType,
  deviceUuid: r.device_uuid,
  timestampMs: Number(r.timestamp_ms),
  update: fromJson(r.payload),
});

/** The changes of an organization with `afterPosition < position <= upTo`, oldest first, at most `limit`. */
export async function changesAfter(db: Kysely<DB>, orgUuid: string, afterPosition: number, limit: number, upTo?: number): Promise<ChangeEvent[]> {
  let query = db.selectFrom('change_events').selectAll().where('org_uuid', '=', orgUuid).where('position', '>', afterPosition);
  if (upTo !== undefined) query = query.where('position', '<=', upTo);
  const rows = await query.orderBy('position').limit(limit).execute();
  return rows.map((r) => toEvent(r as Row));
}

export interface LogBounds {
  /** The last position assigned to the organization (0: none yet). */
  last: number;
  /** Positions up to this one have left the log (retention). */
  prunedThrough: number;
}

export async function logBounds(db: Kysely<DB>, orgUuid: string): Promise<LogBounds> {
  const row = await db.selectFrom('change_positions').select(['last_position', 'pruned_through']).where('org_uuid', '=', orgUuid).executeTakeFirst();
  return { last: Number(row?.last_position ?? 0), prunedThrough: Number(row?.pruned_through ?? 0) };
}

/** The last position of each organization named (0 for one without changes). */
export async function lastPositions(db: Kysely<DB>, orgUuids: string[]): Promise<Map<string, number>> {
  const out = new Map(orgUuids.map((o) => [o, 0]));
  for (let i = 0; i < orgUuids.length; i += 500) {
    const rows = await db
      .selectFrom('change_positions')
      .select(['org_uuid', 'last_position'])
      .where('org_uuid', 'in', orgUuids.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(r.org_uuid, Number(r.last_position));
  }
  return out;
}

/** The store's identity (migration 0015). */
export async function storeIdentity(db: Kysely<DB>): Promise<string> {
  const row = await db.selectFrom('store_identity').select('id').executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The largest id logged before `cutoffMs`, found by bisection over the ids (the log is in id order and its
 * `logged_at_ms` grows with it), so that no scan of the log is needed; null when none is that old.
 */
export async function lastIdLoggedBefore(db: Kysely<DB>, cutoffMs: number): Promise<number | null> {
  const bounds = await db
    .selectFrom('change_events')
    .select((eb) => [eb.fn.min('id').as('lo'), eb.fn.max('id').as('hi')])
    .executeTakeFirst();
  if (bounds?.lo == null || bounds.hi == null) return null;
  const at = async (id: number) =>
    db.selectFrom('change_events').select(['id', 'logged_at_ms']).where('id', '>=', id).orderBy('id').limit(1).executeTakeFirst();
  let lo = Number(bounds.lo);
  let hi = Number(bounds.hi);
  const first = await at(lo);
  if (!first || Number(first.logged_at_ms) >= cutoffMs) return null;
  // Invariant: the first row at or after id `lo` was logged before the cutoff.
  while (lo < hi) {
    const mid = lo + Math.ceil((hi - lo) / 2);
    const row = await at(mid);
    if (row && Number(row.logged_at_ms) < cutoffMs) lo = mid;
    else hi = mid - 1;
  }
  return Number((await at(lo))!.id);
}

/**
 * Removes the changes with `id <= throughId` (at most `batch` ids from the oldest), recording per organization
 * how far its log was pruned. Within an organization ids follow positions, so what is left of its log is
 * always a suffix. Answers how many rows went.
 */
export async function pruneBatch(db: Kysely<DB>, throughId: number, batch: number): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const oldest = await tx
      .selectFrom('change_events')
      .select((eb) => eb.fn.min('id').as('id'))
      .executeTakeFirst();
    if (oldest?.id == null) return 0;
    const end = Math.min(throughId, Number(oldest.id) + batch - 1);
    const reached = await tx
      .selectFrom('change_events')
      .select(['org_uuid', (eb) => eb.fn.max('position').as('position')])
      .where('id', '<=', end)
      .groupBy('org_uuid')
      .execute();
    for (const r of reached) {
      await tx
        .updateTable('change_positions')
        .set({ pruned_through: Number(r.position) })
        .where('org_uuid', '=', r.org_uuid)
        .where('pruned_through', '<', Number(r.position))
        .execute();
    }
    const deleted = await tx.deleteFrom('change_events').where('id', '<=', end).executeTakeFirst();
    return Number(deleted.numDeletedRows);
  });
}

/** The id of the newest change in the durable change log, of any organization; 0 when it is empty. */
export async function latestChangeEventId(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('change_events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/**
 * The position of the organization's newest change whose id is at most `id` (0: none): where a reader that
 * starts after change `id` stands in the organization's own, gap-free order.
 */
export async function positionAtOrBeforeId(db: Kysely<DB>, orgUuid: string, id: number): Promise<number> {
  const row = await db
    .selectFrom('change_events')
    .select('position')
    .where('org_uuid', '=', orgUuid)
    .where('id', '<=', id)
    .orderBy('position', 'desc')
    .limit(1)
    .executeTakeFirst();
  return Number(row?.position ?? 0);
}

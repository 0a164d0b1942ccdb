import type { Kysely } from 'kysely';
import type { DialectName } from '../store/database.js';
import type { DB } from '../store/schema.js';
import type { AttemptRow, DeliveryRow, OutboxDeliveriesTable } from './tables.js';

type Db = Kysely<DB>;
export type NewDelivery = Omit<OutboxDeliveriesTable, 'id'>;

/** Inserts a delivery unless the organization already has one with the same dedupe key; true when inserted. */
export async function insertDelivery(db: Db, row: NewDelivery): Promise<boolean> {
  const result = await db
    .insertInto('outbox_deliveries')
    .values(row)
    .onConflict((oc) => oc.columns(['org_uuid', 'dedupe_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Claims up to `limit` due deliveries for one instance: due PENDING rows, and IN_FLIGHT rows whose lease has
 * run out. On PostgreSQL the candidate rows are locked with `for update skip locked`, so instances claiming
 * at the same moment take disjoint rows; SQLite has a single writer, so the one statement is already exclusive.
 */
export async function claimDueDeliveries(
  db: Db,
  dialect: DialectName,
  c: { nowMs: number; leaseUntilMs: number; claimToken: string; limit: number },
): Promise<DeliveryRow[]> {
  const rows = await db
    .updateTable('outbox_deliveries')
    .set((eb) => ({
      status: 'IN_FLIGHT',
      claim_token: c.claimToken,
      next_attempt_at_ms: c.leaseUntilMs,
      attempts: eb('attempts', '+', 1),
      updated_at_ms: c.nowMs,
    }))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('outbox_deliveries')
        .select('id')
        .where('status', 'in', ['PENDING', 'IN_FLIGHT'])
        .where('next_attempt_at_ms', '<=', c.nowMs)
        .orderBy('next_attempt_at_ms')
        .limit(c.limit)
        .$if(dialect === 'postgres', (q) => q.forUpdate().skipLocked()),
    )
    .returningAll()
    .execute();
  return rows as DeliveryRow[];
}

export type DeliveryOutcome =
  { status: 'DELIVERED'; statusCode: number } | { status: 'PENDING' | 'FAILED'; statusCode: number | null; error: string; nextAttemptAtMs: number };

/** An attempt's outcome to record on its delivery, under the claim it was made with. */
export interface SettledAttempt {
  id: number;
  claimToken: string;
  outcome: DeliveryOutcome;
}

/**
 * Records the outcomes of attempts on their deliveries, each only if its claim is still the one it was made
 * under, and answers the ids recorded (a delivery whose claim was taken over is left to its new holder). The
 * accepted deliveries of one claim and status code are set by one statement, so a batch of them costs one round
 * trip; a failed attempt carries its own error and next attempt, and is set alone.
 */
export async function recordOutcomes(db: Db, nowMs: number, settled: readonly SettledAttempt[]): Promise<Set<number>> {
  const recorded = new Set<number>();
  const accepted = new Map<string, { claimToken: string; statusCode: number; ids: number[] }>();
  for (const { id, claimToken, outcome } of settled) {
    if (outcome.status === 'DELIVERED') {
      const key = `${outcome.statusCode} ${claimToken}`;
      const group = accepted.get(key) ?? accepted.set(key, { claimToken, statusCode: outcome.statusCode, ids: [] }).get(key)!;
      group.ids.push(id);
      continue;
    }
    const rows = await db
      .updateTable('outbox_deliveries')
      .set({
        status: outcome.status,
        claim_token: null,
        last_status_code: outcome.statusCode,
        last_error: outcome.error,
        next_attempt_at_ms: outcome.nextAttemptAtMs,
        updated_at_ms: nowMs,
      })
      .where('id', '=', id)
      .where('claim_token', '=', claimToken)
      .returning('id')
      .execute();
    for (const row of rows) recorded.add(Number(row.id));
  }
  for (const { claimToken, statusCode, ids } of accepted.values()) {
    const rows = await db
      .updateTable('outbox_deliveries')
      .set({ status: 'DELIVERED', claim_token: null, last_status_code: statusCode, last_error: null, delivered_at_ms: nowMs, updated_at_ms: nowMs })
      .where('id', 'in', ids)
      .where('claim_token', '=', claimToken)
      .returning('id')
      .execute();
    for (const row of rows) recorded.add(Number(row.id));
  }
  return recorded;
}

/** Hands a claimed delivery back without counting the attempt (the instance is shutting down). */
export async function releaseClaim(db: Db, id: number, claimToken: string, nowMs: number): Promise<void> {
  await db
    .updateTable('outbox_deliveries')
    .set((eb) => ({ status: 'PENDING', claim_token: null, next_attempt_at_ms: nowMs, attempts: eb('attempts', '-', 1), updated_at_ms: nowMs }))
    .where('id', '=', id)
    .where('claim_token', '=', claimToken)
    .execute();
}

/** An organization's deliveries, newest first, after the cursor (an id) when given. */
export async function listDeliveries(db: Db, orgUuid: string, q: { beforeId: number | null; kind: string | null; limit: number }): Promise<DeliveryRow[]> {
  const rows = await db
    .selectFrom('outbox_deliveries')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .$if(q.beforeId !== null, (b) => b.where('id', '<', q.beforeId!))
    .$if(q.kind !== null, (b) => b.where('kind', '=', q.kind!))
    .orderBy('id', 'desc')
    .limit(q.limit)
    .execute();
  return rows as DeliveryRow[];
}

export async function findDeliveryByKey(db: Db, orgUuid: string, dedupeKey: string): Promise<DeliveryRow | undefined> {
  const row = await db.selectFrom('outbox_deliveries').selectAll().where('org_uuid', '=', orgUuid).where('dedupe_key', '=', dedupeKey).executeTakeFirst();
  return row as DeliveryRow | undefined;
}

/** Records attempts at deliveries, in one statement (the delivery log lists them). */
export async function insertAttempts(db: Db, rows: readonly AttemptRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('outbox_attempts').values(rows).execute();
}

/** The attempts at these deliveries, oldest first. */
export async function listAttempts(db: Db, deliveryIds: number[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  const rows = await db.selectFrom('outbox_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('delivery_id').orderBy('id').execute();
  return rows.map((r) => ({ ...r, delivery_id: Number(r.delivery_id) }));
}

/** A failed attempt with the delivery it was for. */
export interface FailedAttemptRow {
  attempt_id: number;
  at_ms: number;
  status_code: number | null;
  error: string | null;
  delivery_uuid: string;
  kind: string;
  dedupe_key: string;
  target_url: string;
}

/**
 * An organization's failed attempts in [fromMs, beforeMs), newest first, of the deliveries whose dedupe key
 * starts with one of the prefixes (the attempts' time index bounds the read).
 */
export async function listFailedAttempts(
  db: Db,
  orgUuid: string,
  q: { dedupePrefixes: readonly string[]; fromMs: number; beforeMs: number; limit: number },
): Promise<FailedAttemptRow[]> {
  if (q.dedupePrefixes.length === 0) return [];
  const rows = await db
    .selectFrom('outbox_attempts as a')
    .innerJoin('outbox_deliveries as d', 'd.id', 'a.delivery_id')
    .select(['a.id as attempt_id', 'a.at_ms', 'a.status_code', 'a.error', 'd.uuid as delivery_uuid', 'd.kind', 'd.dedupe_key', 'd.target_url'])
    .where('a.at_ms', '>=', q.fromMs)
    .where('a.at_ms', '<', q.beforeMs)
    .where('a.error', 'is not', null)
    .where('d.org_uuid', '=', orgUuid)
    // The prefixes are the callers' constants (no LIKE wildcards).
    .where((eb) => eb.or(q.dedupePrefixes.map((p) => eb('d.dedupe_key', 'like', `${p}%`))))
    .orderBy('a.at_ms', 'desc')
    .orderBy('a.id', 'desc')
    .limit(q.limit)
    .execute();
  return rows.map((r) => ({ ...r, attempt_id: Number(r.attempt_id), at_ms: Number(r.at_ms) }));
}

import type { Deps } from '../deps.js';
import { newRuuid } from '../ids.js';
import { fromJson, toJson } from '../store/columns.js';
import type { WriteScope } from '../bus/write.js';
import * as store from './store.js';
import type { AttemptRow, DeliveryRow } from './tables.js';
import type { DeliveryStatus } from './tables.js';

/** A delivery to make: the worker posts `body` as JSON to `targetUrl` until it is accepted or gives up. */
export interface DeliveryInput {
  orgUuid: string;
  kind: string;
  /** Unique within the organization: enqueueing the same key again is a no-op (at most one delivery per key). */
  dedupeKey: string;
  targetUrl: string;
  headers?: Record<string, string>;
  body: unknown;
}

/** A delivery as the delivery log shows it. Headers and body are not shown: they may carry signatures. */
export interface DeliveryRecord {
  deliveryUuid: string;
  kind: string;
  targetUrl: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAtMs: number | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAtMs: number;
  deliveredAtMs: number | null;
  /** Every attempt made, oldest first. */
  attemptLog: AttemptRecord[];
}

/** One attempt at a delivery: when, how long it took, and what came back. */
export interface AttemptRecord {
  attempt: number;
  atMs: number;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
}

const toAttemptRecord = (a: AttemptRow): AttemptRecord => ({
  attempt: a.attempt,
  atMs: Number(a.at_ms),
  durationMs: a.duration_ms,
  statusCode: a.status_code,
  error: a.error,
});

export function toDeliveryRecord(row: DeliveryRow, attempts: AttemptRow[] = []): DeliveryRecord {
  const final = row.status === 'DELIVERED' || row.status === 'FAILED';
  return {
    deliveryUuid: row.uuid,
    kind: row.kind,
    targetUrl: row.target_url,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAtMs: final ? null : row.next_attempt_at_ms,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    createdAtMs: row.created_at_ms,
    deliveredAtMs: row.delivered_at_ms,
    attemptLog: attempts.map(toAttemptRecord),
  };
}

/** The records of delivery rows with their attempts (one query for the attempts of them all). */
async function withAttempts(deps: Pick<Deps, 'store'>, rows: DeliveryRow[]): Promise<DeliveryRecord[]> {
  const attempts = await store.listAttempts(
    deps.store.db,
    rows.map((r) => Number(r.id)),
  );
  return rows.map((r) =>
    toDeliveryRecord(
      r,
      attempts.filter((a) => a.delivery_id === Number(r.id)),
    ),
  );
}

/**
 * Adds a delivery inside a write in progress; it is due at once. Answers false when the organization already
 * has a delivery with this dedupe key. Once the write has committed, announceDeliveries() wakes the workers
 * (else the next poll finds it).
 */
export async function addDelivery(w: WriteScope, input: DeliveryInput): Promise<boolean> {
  return store.insertDelivery(w.tx, {
    uuid: newRuuid(),
    org_uuid: input.orgUuid,
    kind: input.kind,
    dedupe_key: input.dedupeKey,
    target_url: input.targetUrl,
    headers: toJson(input.headers ?? {})!,
    body: JSON.stringify(input.body ?? null),
    status: 'PENDING',
    attempts: 0,
    next_attempt_at_ms: w.nowMs,
    claim_token: null,
    last_error: null,
    last_status_code: null,
    created_at_ms: w.nowMs,
    updated_at_ms: w.nowMs,
    delivered_at_ms: null,
  });
}

/** Whether the organization has a delivery under this dedupe key, read inside a write in progress. */
export async function hasDelivery(w: WriteScope, orgUuid: string, dedupeKey: string): Promise<boolean> {
  return (await store.findDeliveryByKey(w.tx, orgUuid, dedupeKey)) !== undefined;
}

/** Tells the workers of every instance that a delivery is waiting (after the write that added it committed). */
export async function announceDeliveries(deps: Pick<Deps, 'bus'>, orgUuid: string): Promise<void> {
  await deps.bus.publish('outbox.enqueued', { orgUuid }).catch(() => {});
}

export const DELIVERY_LOG_DEFAULT = 50;
export const DELIVERY_LOG_MAX = 500;

/** The organization's deliveries, newest first; `lastDeliveryId` of a page is the cursor of the next one. */
export async function getDeliveryLog(
  deps: Pick<Deps, 'store'>,
  orgUuid: string,
  q: { maxResults?: number | null; beforeDeliveryId?: number | null; kind?: string | null },
): Promise<{ deliveries: DeliveryRecord[]; lastDeliveryId: number | null }> {
  const limit = Math.min(q.maxResults ?? DELIVERY_LOG_DEFAULT, DELIVERY_LOG_MAX);
  const rows = await store.listDeliveries(deps.store.db, orgUuid, { beforeId: q.beforeDeliveryId ?? null, kind: q.kind ?? null, limit });
  return { deliveries: await withAttempts(deps, rows), lastDeliveryId: rows.length === limit ? rows[rows.length - 1].id : null };
}

/** The delivery an organization has under a dedupe key, or null. */
export async function findDelivery(deps: Pick<Deps, 'store'>, orgUuid: string, dedupeKey: string): Promise<DeliveryRecord | null> {
  const row = await store.findDeliveryByKey(deps.store.db, orgUuid, dedupeKey);
  return row ? (await withAttempts(deps, [row]))[0] : null;
}

export const headersOf = (row: DeliveryRow): Record<string, string> => fromJson<Record<string, string>>(row.headers) ?? {};

/** A failed attempt at a delivery, as a diagnostic shows it (the delivery's target, the failure, when). */
export interface FailedAttemptRecord {
  attemptId: number;
  atMs: number;
  statusCode: number | null;
  error: string | null;
  deliveryUuid: string;
  kind: string;
  dedupeKey: string;
  targetUrl: string;
}

/** An organization's failed delivery attempts in [fromMs, beforeMs), newest first, of the deliveries whose dedupe key starts with a prefix. */
export async function listFailedAttempts(
  deps: Pick<Deps, 'store'>,
  orgUuid: string,
  q: { dedupePrefixes: readonly string[]; fromMs: number; beforeMs: number; limit: number },
): Promise<FailedAttemptRecord[]> {
  return (await store.listFailedAttempts(deps.store.db, orgUuid, q)).map((r) => ({
    attemptId: r.attempt_id,
    atMs: r.at_ms,
    statusCode: r.status_code,
    error: r.error,
    deliveryUuid: r.delivery_uuid,
    kind: r.kind,
    dedupeKey: r.dedupe_key,
    targetUrl: r.target_url,
  }));
}

import type { Deps } from '../deps.js';
import { randomToken } from '../ids.js';
import { OutboundRefused, sendOutbound, type OutboundResponse, outboundPolicy } from '../net/outbound.js';
import { isRetryableStatus, retryDelayMs } from './backoff.js';
import { headersOf } from './service.js';
import * as store from './store.js';
import type { DeliveryOutcome } from './store.js';
import type { DeliveryRow } from './tables.js';

export interface OutboxWorker {
  /** Looks for due deliveries now rather than at the next poll. */
  kick(): void;
  /** Stops claiming, aborts the requests in flight and hands their deliveries back. */
  stop(): Promise<void>;
}

type WorkerDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'log' | 'config'>;

/**
 * How one attempt at a delivery of a kind is made, when a plain POST of the stored body will not do (a
 * signature per attempt, a bearer token): answers the response, throws when there was none. The worker keeps
 * the claims, retries and the delivery log.
 */
export type AttemptStep = (row: DeliveryRow, request: { signal: AbortSignal; timeoutMs: number }) => Promise<OutboundResponse>;

/**
 * How deliveries of one kind are made and retried when the outbox defaults will not do. Every field is
 * optional: the default attempt is a plain POST of the stored body, the default retries are
 * retryDelayMs() of the outbox configuration on isRetryableStatus() answers.
 */
export interface DeliveryKind {
  attempt?: AttemptStep;
  timeoutMs?: number;
  /** The wait before the next attempt after `attempts` failed ones; null: give up. */
  retryDelayMs?(attempts: number): number | null;
  /** Whether an answer's status is worth another attempt (2xx never reach this). */
  retryable?(status: number): boolean;
  /** Answers whose Retry-After header sets the wait before the next attempt. */
  retryAfterStatuses?: readonly number[];
  /** Called once an attempt's outcome is recorded (e.g. a 410 disables the URL). */
  afterOutcome?(row: DeliveryRow, outcome: DeliveryOutcome): Promise<void>;
}

/** Thrown by an attempt step when the delivery can never succeed (its target was deleted): no retry. */
export class GiveUp extends Error {}

/** The most deliveries a claim takes at once. */
const CLAIM_BATCH = 16;
/** The most deliveries an instance has in flight (claimed, not yet recorded). */
const MAX_IN_FLIGHT = 64;
export const DELIVERY_ID_HEADER = 'x-gatehouse-delivery-id';
/** The longest Retry-After honoured: a receiver cannot park a delivery for longer than a day. */
const MAX_RETRY_AFTER_MS = 24 * 3600_000;

/** A Retry-After value (seconds, or an HTTP date) as a wait in ms from `nowMs`; null when unreadable. */
export function retryAfterMs(value: string | undefined, nowMs: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - nowMs;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : null;
}

/**
 * Delivers the outbox. Every instance runs one, as a pipeline: it claims due deliveries in batches (see
 * claimDueDeliveries) while it has fewer than MAX_IN_FLIGHT in flight, posts each as soon as it is claimed, and
 * records in one transaction the outcomes that arrived in a loop turn or while the last record was being written,
 * so that a slow receiver holds up only its own deliveries and a busy outbox costs a few statements per batch
 * rather than per delivery. A delivery that fails is retried with exponential backoff and jitter until `maxAttempts` (or on its
 * kind's schedule); one left behind by a stopped or crashed instance is picked up again (at once after a clean
 * stop, after its lease after a crash).
 */
export function startOutboxWorker(deps: WorkerDeps, steps: Record<string, AttemptStep | DeliveryKind> = {}): OutboxWorker {
  const log = deps.log.child({ component: 'outbox' });
  const policy = deps.config.outbox;
  const inFlight = new Map<number, { row: DeliveryRow; abort: AbortController }>();
  const attempts = new Set<Promise<void>>();
  const kinds: Record<string, DeliveryKind> = Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, typeof v === 'function' ? { attempt: v } : v]));
  let timer: NodeJS.Timeout | null = null;
  let claiming: Promise<void> | null = null;
  /** Deliveries may be due beyond what was claimed: a claim came back full, or one was enqueued meanwhile. */
  let moreDue = false;
  let unrecorded: Array<store.SettledAttempt & { row: DeliveryRow; startedAtMs: number }> = [];
  let recording: Promise<void> | null = null;
  let stopped = false;

  async function attempt(row: DeliveryRow, signal: AbortSignal): Promise<DeliveryOutcome> {
    const kind = kinds[row.kind] ?? {};
    const delay = kind.retryDelayMs ?? ((n: number) => (n >= policy.maxAttempts ? null : retryDelayMs(n, policy)));
    const retryable = kind.retryable ?? isRetryableStatus;
    const timeoutMs = kind.timeoutMs ?? policy.timeoutMs;
    const failed = (statusCode: number | null, error: string, final: boolean, waitMs: number | null = null): DeliveryOutcome => {
      const next = final ? null : (waitMs ?? delay(row.attempts));
      return { status: next === null ? 'FAILED' : 'PENDING', statusCode, error, nextAttemptAtMs: deps.clock.now() + (next ?? 0) };
    };
    try {
      const response = kind.attempt
        ? await kind.attempt(row, { signal, timeoutMs })
        : await sendOutbound(
            {
              method: 'POST',
              url: row.target_url,
              headers: { ...headersOf(row), [DELIVERY_ID_HEADER]: row.uuid, 'user-agent': 'Gatehouse-Outbox/1' },
              json: JSON.parse(row.body),
              timeoutMs,
              signal,
            },
            outboundPolicy(deps.config),
          );
      if (response.status >= 200 && response.status < 300) return { status: 'DELIVERED', statusCode: response.status };
      const honoured = kind.retryAfterStatuses?.includes(response.status) ? retryAfterMs(response.retryAfter, deps.clock.now()) : null;
      const exhausted = delay(row.attempts) === null;
      return failed(response.status, `HTTP ${response.status}`, exhausted || !retryable(response.status), honoured);
    } catch (e) {
      if (signal.aborted) throw e;
      // A refused address will not become allowed by waiting.
      return failed(null, (e as Error).message.slice(0, 300), e instanceof OutboundRefused || e instanceof GiveUp);
    }
  }

  /** Makes the attempt and queues its outcome for the next record; an attempt aborted by stop() records nothing. */
  function deliver(row: DeliveryRow): void {
    const abort = new AbortController();
    inFlight.set(row.id, { row, abort });
    const startedAtMs = deps.clock.now();
    const made = attempt(row, abort.signal).then(
      (outcome) => {
        unrecorded.push({ id: row.id, claimToken: row.claim_token!, outcome, row, startedAtMs });
        // Recorded after this turn's other answers have come in, with them.
        recording ??= new Promise<void>((resolve) => setImmediate(resolve)).then(recordAll);
      },
      () => {
        inFlight.delete(row.id);
      },
    );
    attempts.add(made);
    void made.finally(() => attempts.delete(made));
  }

  /** Records the queued outcomes, a transaction at a time, until none is left; then claims again. */
  async function recordAll(): Promise<void> {
    while (unrecorded.length > 0) {
      const batch = unrecorded;
      unrecorded = [];
      const nowMs = deps.clock.now();
      let recorded = new Set<number>();
      try {
        recorded = await deps.store.transaction(async (tx) => {
          const ids = await store.recordOutcomes(tx, nowMs, batch);
          await store.insertAttempts(
            tx,
            batch
              .filter((s) => ids.has(s.id))
              .map(({ row, outcome, startedAtMs }) => ({
                delivery_id: row.id,
                attempt: row.attempts,
                at_ms: startedAtMs,
                duration_ms: nowMs - startedAtMs,
                status_code: outcome.statusCode,
                error: outcome.status === 'DELIVERED' ? null : outcome.error,
              })),
          );
          return ids;
        });
      } catch (e) {
        // Left claimed: each is attempted again when its lease runs out.
        log.error({ err: e, deliveryUuids: batch.map((s) => s.row.uuid) }, 'delivery outcomes could not be recorded');
      }
      // Every slot is freed before any kind's afterOutcome is awaited.
      for (const { row, outcome } of batch) {
        inFlight.delete(row.id);
        const fields = { deliveryUuid: row.uuid, orgUuid: row.org_uuid, kind: row.kind, attempts: row.attempts };
        if (!recorded.has(row.id)) log.warn(fields, 'delivery outcome not recorded: the claim was taken over');
        else if (outcome.status === 'DELIVERED') log.info(fields, 'delivered');
        else log.warn({ ...fields, status: outcome.status, error: outcome.error }, 'delivery attempt failed');
      }
      for (const { row, outcome } of batch) {
        if (!recorded.has(row.id)) continue;
        await kinds[row.kind]?.afterOutcome?.(row, outcome).catch((e) => log.error({ err: e, deliveryUuid: row.uuid }, 'after a delivery outcome'));
      }
      if (moreDue) claim();
    }
    recording = null;
  }

  /** Claims due deliveries while there is room in flight; a claim that comes back full claims again. */
  function claim(): void {
    moreDue = true;
    if (stopped || claiming || inFlight.size >= MAX_IN_FLIGHT) return;
    moreDue = false;
    claiming = (async () => {
      const nowMs = deps.clock.now();
      const claimToken = randomToken(96);
      const limit = Math.min(CLAIM_BATCH, MAX_IN_FLIGHT - inFlight.size);
      const rows = await store.claimDueDeliveries(deps.store.db, deps.store.dialect, { nowMs, leaseUntilMs: nowMs + policy.leaseMs, claimToken, limit });
      if (stopped) {
        await Promise.all(rows.map((r) => store.releaseClaim(deps.store.db, r.id, claimToken, nowMs)));
        return;
      }
      for (const row of rows) deliver(row);
      if (rows.length === limit) moreDue = true;
    })()
      .catch((e) => log.error({ err: e }, 'outbox poll failed'))
      .finally(() => {
        claiming = null;
        if (moreDue) claim();
      });
  }

  function poll() {
    claim();
    if (stopped) return;
    timer = setTimeout(poll, policy.pollMs);
    timer.unref();
  }

  const unsubscribe = deps.bus.subscribe('outbox.enqueued', () => claim());
  poll();

  return {
    kick: claim,
    async stop() {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      const held = [...inFlight.values()];
      for (const { abort } of held) abort.abort();
      await claiming;
      await Promise.all(attempts);
      while (recording) await recording;
      const nowMs = deps.clock.now();
      // An aborted attempt recorded nothing: its delivery goes back to PENDING (a recorded one's claim is gone).
      await Promise.all(held.map(({ row }) => store.releaseClaim(deps.store.db, row.id, row.claim_token!, nowMs).catch(() => {})));
    },
  };
}

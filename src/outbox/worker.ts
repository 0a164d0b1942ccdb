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

const BATCH = 16;
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
 * Delivers the outbox. Every instance runs one: each poll claims a batch of due deliveries (see
 * claimDueDeliveries), posts them concurrently, and records each outcome and attempt. A delivery that
 * fails is retried with exponential backoff and jitter until `maxAttempts` (or on its kind's schedule); one
 * left behind by a stopped or crashed instance is picked up again (at once after a clean stop, after its
 * lease after a crash).
 */
export function startOutboxWorker(deps: WorkerDeps, steps: Record<string, AttemptStep | DeliveryKind> = {}): OutboxWorker {
  const log = deps.log.child({ component: 'outbox' });
  const policy = deps.config.outbox;
  const inFlight = new Map<number, { claimToken: string; abort: AbortController }>();
  const kinds: Record<string, DeliveryKind> = Object.fromEntries(Object.entries(steps).map(([k, v]) => [k, typeof v === 'function' ? { attempt: v } : v]));
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
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

  async function deliver(row: DeliveryRow): Promise<void> {
    const claimToken = row.claim_token!;
    const abort = new AbortController();
    inFlight.set(row.id, { claimToken, abort });
    try {
      const startedAtMs = deps.clock.now();
      const outcome = await attempt(row, abort.signal);
      const nowMs = deps.clock.now();
      const recorded = await deps.store.transaction(async (tx) => {
        if (!(await store.recordOutcome(tx, row.id, claimToken, nowMs, outcome))) return false;
        const error = outcome.status === 'DELIVERED' ? null : outcome.error;
        await store.insertAttempt(tx, {
          delivery_id: row.id,
          attempt: row.attempts,
          at_ms: startedAtMs,
          duration_ms: nowMs - startedAtMs,
          status_code: outcome.statusCode,
          error,
        });
        return true;
      });
      const fields = { deliveryUuid: row.uuid, orgUuid: row.org_uuid, kind: row.kind, attempts: row.attempts };
      if (!recorded) log.warn(fields, 'delivery outcome not recorded: the claim was taken over');
      else if (outcome.status === 'DELIVERED') log.info(fields, 'delivered');
      else log.warn({ ...fields, status: outcome.status, error: outcome.error }, 'delivery attempt failed');
      if (recorded) await kinds[row.kind]?.afterOutcome?.(row, outcome);
    } catch (e) {
      if (!abort.signal.aborted) log.error({ err: e, deliveryUuid: row.uuid }, 'delivery could not be recorded');
    } finally {
      inFlight.delete(row.id);
    }
  }

  async function drain(): Promise<void> {
    do {
      again = false;
      const nowMs = deps.clock.now();
      const claimToken = randomToken(96);
      const rows = await store.claimDueDeliveries(deps.store.db, deps.store.dialect, {
        nowMs,
        leaseUntilMs: nowMs + policy.leaseMs,
        claimToken,
        limit: BATCH,
      });
      if (stopped) {
        await Promise.all(rows.map((r) => store.releaseClaim(deps.store.db, r.id, claimToken, nowMs)));
        return;
      }
      await Promise.all(rows.map(deliver));
      if (rows.length === BATCH) again = true;
    } while (again && !stopped);
  }

  function schedule(delayMs: number) {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, delayMs);
    timer.unref();
  }

  function run() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((e) => log.error({ err: e }, 'outbox poll failed'))
      .finally(() => {
        running = null;
        schedule(again ? 0 : policy.pollMs);
      });
  }

  const unsubscribe = deps.bus.subscribe('outbox.enqueued', () => run());
  schedule(0);

  return {
    kick: run,
    async stop() {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      const held = [...inFlight.entries()];
      for (const [, { abort }] of held) abort.abort();
      await running;
      const nowMs = deps.clock.now();
      await Promise.all(held.map(([id, { claimToken }]) => store.releaseClaim(deps.store.db, id, claimToken, nowMs).catch(() => {})));
    },
  };
}

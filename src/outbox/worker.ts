import type { Deps } from '../deps.js';
import { randomToken } from '../ids.js';
import { OutboundRefused, sendOutbound, type OutboundResponse, outboundPolicy } from '../net/outbound.js';
import { isRetryableStatus, retryDelayMs } from './backoff.js';
import { headersOf } from './service.js';
import * as store from './store.js';
import type { DeliveryOutcome, DeliveryRow } from './store.js';

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

const BATCH = 16;
export const DELIVERY_ID_HEADER = 'x-gatehouse-delivery-id';

/**
 * Delivers the outbox. Every instance runs one: each poll claims a batch of due deliveries (see
 * claimDueDeliveries), posts them concurrently, and records each outcome. A delivery that fails is retried
 * with exponential backoff and jitter until `maxAttempts`; one left behind by a stopped or crashed
 * instance is picked up again (at once after a clean stop, after its lease after a crash).
 */
export function startOutboxWorker(deps: WorkerDeps, steps: Record<string, AttemptStep> = {}): OutboxWorker {
  const log = deps.log.child({ component: 'outbox' });
  const policy = deps.config.outbox;
  const inFlight = new Map<number, { claimToken: string; abort: AbortController }>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  async function attempt(row: DeliveryRow, signal: AbortSignal): Promise<DeliveryOutcome> {
    const retryAt = () => deps.clock.now() + retryDelayMs(row.attempts, policy);
    const giveUp = row.attempts >= policy.maxAttempts;
    try {
      const step = steps[row.kind];
      const response = step
        ? await step(row, { signal, timeoutMs: policy.timeoutMs })
        : await sendOutbound(
            {
              method: 'POST',
              url: row.target_url,
              headers: { ...headersOf(row), [DELIVERY_ID_HEADER]: row.uuid, 'user-agent': 'Gatehouse-Outbox/1' },
              json: JSON.parse(row.body),
              timeoutMs: policy.timeoutMs,
              signal,
            },
            outboundPolicy(deps.config),
          );
      if (response.status >= 200 && response.status < 300) return { status: 'DELIVERED', statusCode: response.status };
      const final = giveUp || !isRetryableStatus(response.status);
      return { status: final ? 'FAILED' : 'PENDING', statusCode: response.status, error: `HTTP ${response.status}`, nextAttemptAtMs: retryAt() };
    } catch (e) {
      if (signal.aborted) throw e;
      // A refused address will not become allowed by waiting.
      const final = giveUp || e instanceof OutboundRefused;
      return { status: final ? 'FAILED' : 'PENDING', statusCode: null, error: (e as Error).message.slice(0, 300), nextAttemptAtMs: retryAt() };
    }
  }

  async function deliver(row: DeliveryRow): Promise<void> {
    const claimToken = row.claim_token!;
    const abort = new AbortController();
    inFlight.set(row.id, { claimToken, abort });
    try {
      const outcome = await attempt(row, abort.signal);
      const recorded = await store.recordOutcome(deps.store.db, row.id, claimToken, deps.clock.now(), outcome);
      const fields = { deliveryUuid: row.uuid, orgUuid: row.org_uuid, kind: row.kind, attempts: row.attempts };
      if (!recorded) log.warn(fields, 'delivery outcome not recorded: the claim was taken over');
      else if (outcome.status === 'DELIVERED') log.info(fields, 'delivered');
      else log.warn({ ...fields, status: outcome.status, error: outcome.error }, 'delivery attempt failed');
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

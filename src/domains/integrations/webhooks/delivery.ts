import type { Deps } from '../../../deps.js';
import { outboundPolicy, sendOutbound, type OutboundResponse } from '../../../net/outbound.js';
import type { DeliveryRow } from '../../../outbox/tables.js';
import { DELIVERY_ID_HEADER, GiveUp, type DeliveryKind } from '../../../outbox/worker.js';
import { signatureHeaders } from '../../../outbox/standard-webhooks.js';
import { disableIntegration, findIntegration, openSecret, type IntegrationDeps } from '../settings.js';
import { disableGoneEndpoint, findOrgEndpoint, openEndpointSecret } from './endpoints.service.js';
import { targetOfDedupeKey, WEBHOOK_KINDS } from './dispatch.js';

/** The waits before the 2nd to 8th attempt (Svix's schedule); after the 8th failure the delivery fails. */
export const RETRY_SCHEDULE_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 5 * 3600_000, 10 * 3600_000, 10 * 3600_000] as const;

/**
 * The wait after `attempts` failed attempts: the schedule's, times `scale` (config.webhooks.retryScale),
 * with ±20 % jitter so that deliveries failing together do not retry together; null once it is used up.
 */
export function webhookRetryDelayMs(attempts: number, scale: number, random: () => number = Math.random): number | null {
  const base = RETRY_SCHEDULE_MS[attempts - 1];
  if (base === undefined) return null;
  return Math.round(base * scale * (0.8 + 0.4 * random()));
}

/** The signing secret of a delivery's target, read when the attempt is made; GiveUp when the target is off or gone. */
async function targetSecret(deps: IntegrationDeps, row: DeliveryRow): Promise<string | null> {
  if (row.kind === WEBHOOK_KINDS.CLASSIC) {
    const classic = await findIntegration(deps, row.org_uuid, 'WEBHOOK');
    if (!classic?.enabled) throw new GiveUp('the webhook integration was disabled or deleted');
    return openSecret(deps, classic, 'webhookSecret');
  }
  const endpoint = await findOrgEndpoint(deps, row.org_uuid, targetOfDedupeKey(row.dedupe_key));
  if (!endpoint || endpoint.disabled) throw new GiveUp('the webhook was disabled or deleted');
  return openEndpointSecret(deps, endpoint);
}

/**
 * One attempt: the stored body, byte for byte, with the Standard Webhooks headers (`webhook-id` is the same
 * on every attempt; the signature, when the target has a secret, covers exactly the bytes sent), under
 * the outbound address policy.
 */
export async function attemptOrgWebhook(
  deps: IntegrationDeps,
  row: DeliveryRow,
  request: { signal: AbortSignal; timeoutMs: number },
): Promise<OutboundResponse> {
  const secret = await targetSecret(deps, row);
  const id = `msg_${row.uuid}`;
  const timestamp = Math.floor(deps.clock.now() / 1000);
  const signed = secret ? signatureHeaders(secret, id, timestamp, row.body) : { 'webhook-id': id, 'webhook-timestamp': String(timestamp) };
  const headers = { ...signed, [DELIVERY_ID_HEADER]: row.uuid, 'user-agent': 'Gatehouse-Webhooks/1' };
  return sendOutbound({ method: 'POST', url: row.target_url, headers, rawJson: row.body, ...request }, outboundPolicy(deps.config));
}

/** A 410 Gone disables the target (announced on the stream): the receiver has said it wants no more. */
async function onGone(deps: IntegrationDeps, row: DeliveryRow): Promise<void> {
  const operation = 'integrations.webhooks.gone';
  if (row.kind === WEBHOOK_KINDS.CLASSIC) await disableIntegration(deps, row.org_uuid, 'WEBHOOK', operation);
  else await disableGoneEndpoint(deps, row.org_uuid, targetOfDedupeKey(row.dedupe_key), operation);
}

/**
 * The outbox kinds of the organization's webhooks: 2xx is success and anything else a failure (3xx
 * included), retried on the schedule above except 410, which fails the delivery and disables its target;
 * 429 and 503 wait as their Retry-After says; every attempt has the configured timeout (15 s).
 */
export function webhookOutboxKinds(deps: IntegrationDeps & Pick<Deps, 'config'>): Record<string, DeliveryKind> {
  const kind: DeliveryKind = {
    attempt: (row, request) => attemptOrgWebhook(deps, row, request),
    timeoutMs: deps.config.webhooks.timeoutMs,
    retryDelayMs: (attempts) => webhookRetryDelayMs(attempts, deps.config.webhooks.retryScale),
    retryable: (status) => status !== 410,
    retryAfterStatuses: [429, 503],
    afterOutcome: async (row, outcome) => {
      if (outcome.statusCode === 410) await onGone(deps, row);
    },
  };
  return Object.fromEntries(Object.values(WEBHOOK_KINDS).map((k) => [k, kind]));
}

import type { Deps } from '../../../deps.js';
import { tokenCacheOf, type ClientCredentials } from '../oauth-tokens.js';
import type { RuleAction } from '../schemas.js';
import { signatureHeaders } from '../standard-webhooks.js';
import { webhookSigningSecret } from '../webhook-secret.service.js';
import { failed, succeeded, type ActionFamily } from './action.js';

type WebhookDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'secrets'>;
type Webhook = NonNullable<RuleAction['webhookActions']>[number];

/** One delivery of a rule event: the same id on every attempt, so receivers can drop duplicates. */
export interface WebhookDelivery {
  orgUuid: string;
  id: string;
  url: string;
  headers: Record<string, string>;
  oauth: ClientCredentials | null;
  body: string;
}

export function credentialsOf(w: Webhook): ClientCredentials | null {
  return w.oauthUrl && w.oauthClientId && w.oauthClientSecret
    ? { tokenUrl: w.oauthUrl, clientId: w.oauthClientId, clientSecret: w.oauthClientSecret, scope: w.oauthScope ?? null }
    : null;
}

/**
 * Makes one attempt at a delivery: signed per Standard Webhooks with the organization's secret (the
 * timestamp is the attempt's), with a bearer token when the webhook uses OAuth; a 401 gets one more try with
 * a fresh token. Throws when the target did not take it (an answer outside 2xx, or no answer).
 */
export async function attemptWebhook(deps: WebhookDeps, d: WebhookDelivery): Promise<number> {
  const secret = await webhookSigningSecret(deps, d.orgUuid);
  const tokens = tokenCacheOf(deps, () => deps.clock.now());
  const post = async (freshToken: boolean) => {
    const auth: Record<string, string> = d.oauth ? { authorization: `Bearer ${await tokens.token(d.oauth, freshToken)}` } : {};
    const signed = signatureHeaders(secret, d.id, Math.floor(deps.clock.now() / 1000), d.body);
    return fetch(d.url, {
      method: 'POST',
      headers: { ...d.headers, ...auth, ...signed, 'content-type': 'application/json', 'user-agent': 'Gatehouse-Webhooks/1' },
      body: d.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
  };
  let response = await post(false);
  if (response.status === 401 && d.oauth) {
    await response.body?.cancel();
    response = await post(true);
  }
  await response.body?.cancel();
  if (response.status < 200 || response.status >= 300) throw new Error(`${d.url} answered ${response.status}`);
  return response.status;
}

/** `webhookActions`: POST the rule event as JSON to each webhook. */
export const webhookActions: ActionFamily = ({ deps, action, event }) =>
  (action.webhookActions ?? []).map((w, i) => ({
    action: `webhookActions[${i}]`,
    async run() {
      const delivery: WebhookDelivery = {
        orgUuid: event.orgUuid,
        id: `msg_${event.firingUuid}_${i}`,
        url: w.webhookUrl!,
        headers: (w.headers ?? {}) as Record<string, string>,
        oauth: credentialsOf(w),
        body: JSON.stringify(event),
      };
      try {
        return succeeded(`${delivery.url} answered ${await attemptWebhook(deps, delivery)}`);
      } catch (e) {
        return failed((e as Error).message);
      }
    },
  }));

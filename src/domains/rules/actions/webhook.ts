import type { Deps } from '../../../deps.js';
import { sendOutbound, type OutboundResponse, outboundPolicy } from '../../../net/outbound.js';
import { addDelivery, announceDeliveries, headersOf } from '../../../outbox/service.js';
import type { DeliveryRow } from '../../../outbox/tables.js';
import type { AttemptStep } from '../../../outbox/worker.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { tokenCacheOf, type ClientCredentials } from '../oauth-tokens.js';
import { openActionSecrets, openDeliveryHeaders, sealDeliveryHeaders } from '../rule-secrets.js';

import * as generalRules from '../general/store.js';
import { toGeneralRule } from '../general/service.js';
import { toStoredRule } from '../rules.service.js';
import type { RuleAction } from '../schemas.js';
import { signatureHeaders } from '../../../outbox/standard-webhooks.js';
import * as store from '../store.js';
import { webhookSigningSecret } from '../webhook-secret.service.js';
import type { ActionFamily, Outcome, RuleEvent } from './action.js';

/** The identity a delivery's sealed headers are bound to. */
const deliveryIdentity = (orgUuid: string, dedupeKey: string) => `delivery:${orgUuid}:${dedupeKey}`;

type WebhookDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'secrets' | 'config'>;
type Webhook = NonNullable<RuleAction['webhookActions']>[number];

/** The outbox kind of a webhook action's delivery (the delivery log's `kind`). */
export const RULE_WEBHOOK_KIND = 'BUTTON_RULE_WEBHOOK';

/** The Standard Webhooks id of a firing's webhook: the outbox's dedupe key too, so one firing delivers once. */
const webhookId = (firingUuid: string, index: number) => `msg_${firingUuid}_${index}`;
const indexOf = (webhookIdValue: string) => Number(webhookIdValue.slice(webhookIdValue.lastIndexOf('_') + 1));

export function credentialsOf(w: Webhook): ClientCredentials | null {
  return w.oauthUrl && w.oauthClientId && w.oauthClientSecret
    ? { tokenUrl: w.oauthUrl, clientId: w.oauthClientId, clientSecret: w.oauthClientSecret, scope: w.oauthScope ?? null }
    : null;
}

/**
 * The OAuth credentials of a delivery's webhook, read from its rule when the attempt is made: the client
 * secret stays sealed in the rule rather than being copied into the outbox.
 */
async function deliveryCredentials(deps: WebhookDeps, row: DeliveryRow, event: RuleEvent): Promise<ClientCredentials | null> {
  const buttonRule = await store.findRule(deps.store.db, row.org_uuid, event.ruleUuid);
  const generalRule = buttonRule ? undefined : await generalRules.findRule(deps.store.db, row.org_uuid, event.ruleUuid);
  if (!buttonRule && !generalRule) throw new Error(`rule ${event.ruleUuid} was deleted`);
  const stored = buttonRule ? toStoredRule(buttonRule) : { uuid: generalRule!.uuid, sealedAction: toGeneralRule(generalRule!).sealedAction };
  const webhook = openActionSecrets(deps.secrets, stored.uuid, stored.sealedAction).webhookActions?.[indexOf(row.dedupe_key)];
  return webhook ? credentialsOf(webhook) : null;
}

/**
 * Makes one attempt at a webhook delivery (the outbox's attempt step for RULE_WEBHOOK_KIND): signed per
 * Standard Webhooks with the organization's secret (the timestamp is the attempt's, the id the delivery's),
 * with a bearer token when the webhook uses OAuth; a 401 gets one more try with a fresh token. Both requests
 * go out under the outbound address policy.
 */
export async function attemptWebhook(deps: WebhookDeps, row: DeliveryRow, request: { signal: AbortSignal; timeoutMs: number }): Promise<OutboundResponse> {
  const event = JSON.parse(row.body) as RuleEvent;
  const policy = outboundPolicy(deps.config);
  const [secret, oauth] = await Promise.all([webhookSigningSecret(deps, row.org_uuid), deliveryCredentials(deps, row, event)]);
  const tokens = tokenCacheOf(deps, () => deps.clock.now(), policy);
  const post = async (freshToken: boolean) => {
    const auth: Record<string, string> = oauth ? { authorization: `Bearer ${await tokens.token(oauth, freshToken)}` } : {};
    const signed = signatureHeaders(secret, row.dedupe_key, Math.floor(deps.clock.now() / 1000), JSON.stringify(event));
    const headers = {
      ...openDeliveryHeaders(deps.secrets, deliveryIdentity(row.org_uuid, row.dedupe_key), headersOf(row)),
      ...auth,
      ...signed,
      'user-agent': 'Gatehouse-Webhooks/1',
    };
    return sendOutbound({ method: 'POST', url: row.target_url, headers, json: event, ...request }, policy);
  };
  const response = await post(false);
  return response.status === 401 && oauth ? post(true) : response;
}

/** The outbox's attempt steps of the rules domain, for the instance's worker. */
export const ruleOutboxSteps = (deps: WebhookDeps): Record<string, AttemptStep> => ({
  [RULE_WEBHOOK_KIND]: (row, request) => attemptWebhook(deps, row, request),
});

/**
 * `webhookActions`: each webhook's delivery of the rule event goes into the durable outbox (QUEUED), which
 * retries it with backoff until the target takes it, across restarts, under the same `webhook-id`. The enqueue is
 * a write of the store only: made in a write already open (`inWrite`, the general rules' firing) or in its own.
 */
export const webhookActions: ActionFamily = ({ deps, actor, action, event }) =>
  (action.webhookActions ?? []).map((w, i) => {
    const id = webhookId(event.firingUuid, i);
    const inWrite = async (scope: WriteScope): Promise<Outcome> => {
      await addDelivery(scope, {
        orgUuid: event.orgUuid,
        kind: RULE_WEBHOOK_KIND,
        dedupeKey: id,
        targetUrl: w.webhookUrl!,
        headers: sealDeliveryHeaders(deps.secrets, deliveryIdentity(event.orgUuid, id), (w.headers ?? {}) as Record<string, string>),
        body: event,
      });
      scope.afterCommit(() => announceDeliveries(deps, event.orgUuid));
      return { status: 'QUEUED', detail: `delivery ${id}` };
    };
    return { action: `webhookActions[${i}]`, inWrite, run: () => write(deps, actor, inWrite) };
  });

import type { SecretBox } from '../../secrets.js';
import { maskSecret } from '../../secrets.js';
import type { RuleAction } from './schemas.js';

/**
 * The secrets inside a rule's action: each webhook's OAuth client secret and header values (an
 * `Authorization: Bearer ...` is a credential), and the third-party audio password. They are sealed at rest with the rule and the field as identity, opened only to act, and
 * answered masked.
 */
type SecretFn = (value: string, identity: string) => string;

const identity = (ruleUuid: string, field: string) => `rule:${ruleUuid}:${field}`;

function mapSecrets(action: RuleAction, ruleUuid: string, fn: SecretFn): RuleAction {
  const out: RuleAction = { ...action };
  if (action.webhookActions) {
    out.webhookActions = action.webhookActions.map((w, i) => {
      const mapped = { ...w };
      if (w.oauthClientSecret) mapped.oauthClientSecret = fn(w.oauthClientSecret, identity(ruleUuid, `webhookActions[${i}].oauthClientSecret`));
      if (w.headers) mapped.headers = mapHeaders(w.headers as Record<string, string>, identity(ruleUuid, `webhookActions[${i}].headers`), fn);
      return mapped;
    });
  }
  const audio = action.thirdPartyAudioPlaybackAction;
  if (audio?.password) {
    out.thirdPartyAudioPlaybackAction = { ...audio, password: fn(audio.password, identity(ruleUuid, 'thirdPartyAudioPlaybackAction.password')) };
  }
  return out;
}

/** Header values are sealed one by one under `<identity>.<header name>`; the names stay readable. */
function mapHeaders(headers: Record<string, string>, identityPrefix: string, fn: SecretFn): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, fn(String(value), `${identityPrefix}.${name.toLowerCase()}`)]));
}

const SEALED = /^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+$/;

/** Opens a sealed value; a header value stored before headers were sealed is still plaintext and is taken as is. */
const openOrPlain = (box: SecretBox) => (v: string, id: string) => (id.includes('.headers.') && !SEALED.test(v) ? v : box.open(v, id));

/** A webhook delivery's headers, sealed for the outbox row (the identity names the delivery). */
export const sealDeliveryHeaders = (box: SecretBox, deliveryIdentity: string, headers: Record<string, string>) =>
  mapHeaders(headers, `${deliveryIdentity}.headers`, (v, id) => box.seal(v, id));
export const openDeliveryHeaders = (box: SecretBox, deliveryIdentity: string, headers: Record<string, string>) =>
  mapHeaders(headers, `${deliveryIdentity}.headers`, openOrPlain(box));

export const sealActionSecrets = (box: SecretBox, ruleUuid: string, action: RuleAction) => mapSecrets(action, ruleUuid, (v, id) => box.seal(v, id));
export const openActionSecrets = (box: SecretBox, ruleUuid: string, action: RuleAction) => mapSecrets(action, ruleUuid, openOrPlain(box));

/** The action as the API answers it: a secret shows as set (masked), never its value or its sealed form. */
export const maskActionSecrets = (box: SecretBox, ruleUuid: string, action: RuleAction) =>
  mapSecrets(action, ruleUuid, (v, id) => maskSecret(openOrPlain(box)(v, id)) ?? '****');

import type { SecretBox } from '../../secrets.js';
import { maskSecret } from '../../secrets.js';
import type { RuleAction } from './schemas.js';

/**
 * The secrets inside a rule's action: each webhook's OAuth client secret and the third-party audio
 * password. They are sealed at rest with the rule and the field as identity, opened only to act, and
 * answered masked.
 */
type SecretFn = (value: string, identity: string) => string;

const identity = (ruleUuid: string, field: string) => `rule:${ruleUuid}:${field}`;

function mapSecrets(action: RuleAction, ruleUuid: string, fn: SecretFn): RuleAction {
  const out: RuleAction = { ...action };
  if (action.webhookActions) {
    out.webhookActions = action.webhookActions.map((w, i) =>
      w.oauthClientSecret ? { ...w, oauthClientSecret: fn(w.oauthClientSecret, identity(ruleUuid, `webhookActions[${i}].oauthClientSecret`)) } : w,
    );
  }
  const audio = action.thirdPartyAudioPlaybackAction;
  if (audio?.password) {
    out.thirdPartyAudioPlaybackAction = { ...audio, password: fn(audio.password, identity(ruleUuid, 'thirdPartyAudioPlaybackAction.password')) };
  }
  return out;
}

export const sealActionSecrets = (box: SecretBox, ruleUuid: string, action: RuleAction) => mapSecrets(action, ruleUuid, (v, id) => box.seal(v, id));
export const openActionSecrets = (box: SecretBox, ruleUuid: string, action: RuleAction) => mapSecrets(action, ruleUuid, (v, id) => box.open(v, id));

/** The action as the API answers it: a secret shows as set (masked), never its value or its sealed form. */
export const maskActionSecrets = (box: SecretBox, ruleUuid: string, action: RuleAction) =>
  mapSecrets(action, ruleUuid, (v, id) => maskSecret(box.open(v, id)) ?? '****');

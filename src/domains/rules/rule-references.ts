import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { deviceOfFacet } from '../../ids.js';
import type { ReadSource } from '../../store/reader.js';
import { findDoor } from '../access/service.js';
import { COMPONENT_OWNER_KINDS, isGenericRelay } from '../access/components/service.js';
import { findDevice, findLocation } from '../devices/service.js';
import { checkIntegrationUrl } from '../integrations/chat.service.js';
import type { DeviceKind } from '../devices/tables.js';
import type { ButtonRule, RuleAction } from './schemas.js';

/**
 * Checks every reference and URL of a rule against the caller's organization before it is stored, so a
 * rule never fires into a record that is not there. Another organization's record is reported exactly as a
 * missing one. Each message names the field, for example `action.audioPlaybackActions[0].audioGateways[1]`.
 */
export async function checkRuleReferences(source: ReadSource, orgUuid: string, rule: ButtonRule): Promise<void> {
  const device = async (path: string, uuid: string | null | undefined, kinds: readonly DeviceKind[]) => {
    if (!uuid) return;
    if (!(await findDevice(source, orgUuid, uuid, kinds))) throw fail('NOT_FOUND', `${path}: ${kinds.join(' or ').toLowerCase().replace(/_/g, ' ')}`);
  };
  const facet = async (path: string, id: string, kinds: readonly DeviceKind[]) => device(path, deviceOfFacet(id) ?? id, kinds);
  const door = async (path: string, uuid: string | null | undefined) => {
    if (uuid && !(await findDoor(source, orgUuid, uuid))) throw fail('NOT_FOUND', `${path}: door`);
  };

  await device('rule.sensorUuid', rule.sensorUuid, ['BUTTON']);
  // Its schedules were resolved at the edge (RuleFilters: RefUuid('schedule')).
  const a: RuleAction = rule.action ?? {};
  const at = (field: string) => `rule.action.${field}`;

  const lockdown = a.activateLocationLockdown;
  if (lockdown) {
    if (!lockdown.locationUuid) throw fail('INVALID_VALUE', `${at('activateLocationLockdown.locationUuid')}: required`);
    if (!(await findLocation(source, orgUuid, lockdown.locationUuid))) throw fail('NOT_FOUND', `${at('activateLocationLockdown.locationUuid')}: location`);
  }
  for (const [i, p] of (a.audioPlaybackActions ?? []).entries()) {
    if (!p.audioGateways?.length) throw fail('INVALID_VALUE', `${at(`audioPlaybackActions[${i}].audioGateways`)}: give at least one audio gateway`);
    for (const [j, g] of p.audioGateways.entries()) await device(at(`audioPlaybackActions[${i}].audioGateways[${j}]`), g, ['AUDIO_GATEWAY']);
  }
  const cancel = a.cancelLoopingAudioPlaybackAction;
  for (const [field, ids] of [
    ['audioDevices', cancel?.audioDevices],
    ['_audioDevices', cancel?._audioDevices],
  ] as const) {
    for (const [j, id] of (ids ?? []).entries()) await facet(at(`cancelLoopingAudioPlaybackAction.${field}[${j}]`), id, ['AUDIO_GATEWAY']);
  }
  for (const [i, c] of (a.changeComponentCompositeAccessStateActions ?? []).entries()) {
    const path = at(`changeComponentCompositeAccessStateActions[${i}]`);
    if (!c.componentCompositeUuid) throw fail('INVALID_VALUE', `${path}.componentCompositeUuid: required`);
    await door(`${path}.componentCompositeUuid`, c.componentCompositeUuid);
    if (c.expirationStrategy === 'TIME_DELAY' && !c.expireTimeDelaySeconds)
      throw fail('INVALID_VALUE', `${path}.expireTimeDelaySeconds: required by TIME_DELAY`);
    if (c.expirationStrategy === 'TIME_OF_DAY_LOCAL' && c.expireTimeOfDayLocalSeconds == null) {
      throw fail('INVALID_VALUE', `${path}.expireTimeOfDayLocalSeconds: required by TIME_OF_DAY_LOCAL`);
    }
  }
  const phone = a.connectAudioDeviceToPhoneNumberAction;
  if (phone) {
    await device(at('connectAudioDeviceToPhoneNumberAction.audioDeviceUuid'), phone.audioDeviceUuid, ['AUDIO_GATEWAY']);
    await door(at('connectAudioDeviceToPhoneNumberAction.doorUuid'), phone.doorUuid);
    if (!phone.phoneNumber || !/^\+?[0-9 ()-]{3,30}$/.test(phone.phoneNumber))
      throw fail('INVALID_VALUE', `${at('connectAudioDeviceToPhoneNumberAction.phoneNumber')}: not a phone number`);
  }
  for (const [i, c] of (a.customActions ?? []).entries()) {
    if (!c.path || !c.path.startsWith('/')) throw fail('INVALID_VALUE', `${at(`customActions[${i}].path`)}: must be a path starting with /`);
  }
  for (const [i, l] of (a.customLLMActions ?? []).entries()) {
    if (l.orgUuid && l.orgUuid !== orgUuid) throw fail('NOT_FOUND', `${at(`customLLMActions[${i}].orgUuid`)}: organization`);
    for (const [j, id] of (l.deviceFacetUuids ?? []).entries()) await facet(at(`customLLMActions[${i}].deviceFacetUuids[${j}]`), id, ['CAMERA']);
  }
  for (const [i, r] of (a.enableDisableAudioRecordActions ?? []).entries()) {
    if (!r.audioDeviceUuid) throw fail('INVALID_VALUE', `${at(`enableDisableAudioRecordActions[${i}].audioDeviceUuid`)}: required`);
    await device(at(`enableDisableAudioRecordActions[${i}].audioDeviceUuid`), r.audioDeviceUuid, ['AUDIO_GATEWAY']);
  }
  for (const [i, c] of (a.integrationCommandActions ?? []).entries()) {
    if (!c.integration) throw fail('INVALID_VALUE', `${at(`integrationCommandActions[${i}].integration`)}: required`);
  }
  for (const [i, n] of (a.integrationNotificationActions ?? []).entries()) {
    if (!n.integration) throw fail('INVALID_VALUE', `${at(`integrationNotificationActions[${i}].integration`)}: required`);
  }
  for (const [i, u] of (a.remoteDoorUnlockActions ?? []).entries()) {
    if (!u.doorId) throw fail('INVALID_VALUE', `${at(`remoteDoorUnlockActions[${i}].doorId`)}: required`);
    await door(at(`remoteDoorUnlockActions[${i}].doorId`), u.doorId);
  }
  const speaker = a.thirdPartyAudioPlaybackAction;
  if (speaker) {
    await device(at('thirdPartyAudioPlaybackAction.proxyDeviceUuid'), speaker.proxyDeviceUuid, ['AUDIO_GATEWAY', 'RELAY']);
    if (!speaker.audioFileName) throw fail('INVALID_VALUE', `${at('thirdPartyAudioPlaybackAction.audioFileName')}: required`);
  }
  for (const [i, r] of (a.triggerComponentRelayActions ?? []).entries()) {
    const path = at(`triggerComponentRelayActions[${i}]`);
    if (!r.componentUuid && !r.ownerDeviceUuid) throw fail('INVALID_VALUE', `${path}: give componentUuid or ownerDeviceUuid`);
    // A generic relay component (named with the device it is wired to, if at all), or a relay device.
    if (r.componentUuid && (await isGenericRelay(source, orgUuid, r.componentUuid))) {
      await device(`${path}.ownerDeviceUuid`, r.ownerDeviceUuid, COMPONENT_OWNER_KINDS);
      continue;
    }
    await device(`${path}.componentUuid`, r.componentUuid, ['RELAY']);
    await device(`${path}.ownerDeviceUuid`, r.ownerDeviceUuid, ['RELAY']);
  }
  for (const [i, w] of (a.webhookActions ?? []).entries()) {
    const path = at(`webhookActions[${i}]`);
    checkHttpUrl(`${path}.webhookUrl`, w.webhookUrl, true);
    checkHttpUrl(`${path}.oauthUrl`, w.oauthUrl, false);
    if (w.oauthUrl && (!w.oauthClientId || !w.oauthClientSecret)) throw fail('INVALID_VALUE', `${path}: oauthUrl needs oauthClientId and oauthClientSecret`);
    if (w.oauthGrantType && w.oauthGrantType !== 'client_credentials')
      throw fail('INVALID_VALUE', `${path}.oauthGrantType: only client_credentials is supported`);
  }
}

function checkHttpUrl(path: string, value: string | null | undefined, required: boolean): void {
  if (!value) {
    if (required) throw fail('INVALID_VALUE', `${path}: required`);
    return;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw fail('INVALID_VALUE', `${path}: not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw fail('INVALID_VALUE', `${path}: must be an http or https URL`);
  if (url.username || url.password) throw fail('INVALID_VALUE', `${path}: must not carry credentials`);
}

/**
 * The webhook and token URLs of an action must reach an address that outbound requests may reach (not a
 * private one unless the configuration allows it), as the integrations' URLs; delivery checks again when it
 * connects. Resolved before the rule's transaction, since it may wait on DNS.
 */
export async function checkWebhookAddresses(deps: Pick<Deps, 'config'>, action: RuleAction): Promise<void> {
  for (const [i, w] of (action.webhookActions ?? []).entries()) {
    for (const field of ['webhookUrl', 'oauthUrl'] as const) {
      const path = `rule.action.webhookActions[${i}].${field}`;
      checkHttpUrl(path, w[field], field === 'webhookUrl');
      if (w[field]) await checkIntegrationUrl(deps, path, w[field]);
    }
  }
}

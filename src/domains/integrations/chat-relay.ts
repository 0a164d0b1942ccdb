import type { ChangeEvent } from '../../store/change-event.js';
import { systemActor } from '../../deps.js';
import { mediaUrlPath } from '../../footage/storage.js';
import { outboundPolicy, sendOutbound } from '../../net/outbound.js';
import { addDelivery, announceDeliveries, findDelivery } from '../../outbox/service.js';
import { DELIVERY_ID_HEADER, GiveUp, type AttemptStep, type DeliveryKind } from '../../outbox/worker.js';
import type { ReadSource } from '../../store/reader.js';
import { write, type WriteScope } from '../../bus/write.js';
import { findDevice, findLocation } from '../devices/service.js';
import { POLICY_ALERT_ENTITY } from '../events/alerts/service.js';
import { createSavedClip } from '../events/clips/service.js';
import { notifiesNobody } from '../events/alerts/notification-mutes.service.js';
import { findIntegration, type Integration, type IntegrationDeps } from './settings.js';
import { chatWebhookUrl } from './chat.service.js';

export const CHAT_DELIVERY_KIND = 'CHAT_POLICY_ALERT';

/** The fields of a policy alert (as its change event carries it) that a chat message shows. */
interface AlertView {
  uuid: string;
  deviceUuid?: string | null;
  locationUuid?: string | null;
  policyAlertTriggers?: string[] | null;
  timestampMs?: number | null;
  durationSec?: number | null;
  textDescription?: string | null;
  clipLocationMapV2?: Record<string, string> | null;
  notificationsMutedUntilMs?: number | null;
}

/** One delivery per alert and chat integration, whichever instance (or replay) enqueues it first. */
export const chatDedupeKey = (integration: Integration, alertUuid: string) => `CHAT:${integration.uuid}:POLICY_ALERT:${alertUuid}`;

/** A chat incoming-webhook message (`channel`, `text`) for a policy alert. */
export async function chatMessage(source: ReadSource, integration: Integration, orgUuid: string, alert: AlertView, clipUrl: string | null) {
  const device = alert.deviceUuid ? await findDevice(source, orgUuid, alert.deviceUuid) : null;
  const locationUuid = alert.locationUuid ?? device?.locationUuid ?? null;
  const location = locationUuid ? await findLocation(source, orgUuid, locationUuid) : null;
  const triggers = alert.policyAlertTriggers?.length ? alert.policyAlertTriggers.join(', ') : 'unspecified';
  const at = alert.timestampMs ? new Date(alert.timestampMs).toISOString() : null;
  const lines = [
    `:rotating_light: **Policy alert** on **${device?.name ?? alert.deviceUuid ?? 'unknown device'}** at **${location?.name ?? 'unknown location'}**`,
    `Triggers: ${triggers}${at ? ` · ${at}` : ''}`,
    ...(alert.textDescription ? [alert.textDescription] : []),
    `Clip: ${clipUrl ?? 'none (the alert is not from a camera)'}`,
  ];
  const channel = integration.settings.channel as string | null;
  return { ...(channel ? { channel } : {}), username: 'Gatehouse', text: lines.join('\n') };
}

/**
 * The media path of the alert's clip: the saved clip the alert links (clipLocationMapV2; a camera alert's own
 * entry there is its DASH manifest, which a chat reader cannot open), else a clip saved now from the alert's
 * camera, so that the message has a video to follow. Null for an alert that is not a camera's.
 */
async function alertClipPath(w: WriteScope, region: string, alert: AlertView): Promise<string | null> {
  const linked = Object.values(alert.clipLocationMapV2 ?? {}).find((path) => !path.endsWith('.mpd'));
  if (linked) return linked;
  const camera = alert.deviceUuid ? await findDevice(w, w.actor.orgUuid, alert.deviceUuid, ['CAMERA']) : null;
  if (!camera) return null;
  const clip = await createSavedClip(w, region, {
    deviceUuid: camera.uuid,
    timestampMs: alert.timestampMs ?? w.nowMs,
    durationSec: alert.durationSec || undefined,
    sourceAlertUuid: alert.uuid,
    title: `Policy alert on ${camera.name}`,
  });
  return mediaUrlPath(clip.uuid, 'video');
}

/** Thrown inside the relay's write to undo it (the clip too) when another relay of the same alert won. */
class AlreadyRelayed extends Error {}

/** Enqueues the chat message of a new policy alert when the organization's chat integration is on (and the alert's device was not muted); true when this call enqueued it. */
export async function relayPolicyAlert(deps: IntegrationDeps, event: ChangeEvent, mediaUrl: string): Promise<boolean> {
  const orgUuid = event.orgUuid;
  const chat = await findIntegration(deps, orgUuid, 'CHAT');
  const webhookUrl = chat ? chatWebhookUrl(deps, chat) : null;
  const alert = event.update as AlertView;
  if (!chat?.enabled || !webhookUrl || notifiesNobody(alert)) return false;
  const dedupeKey = chatDedupeKey(chat, alert.uuid);
  if (await findDelivery(deps, orgUuid, dedupeKey)) return false;
  try {
    await write(deps, systemActor(orgUuid, 'integrations.chat.relay'), async (w) => {
      const clipPath = await alertClipPath(w, deps.config.region, alert);
      const body = await chatMessage(w, chat, orgUuid, alert, clipPath ? `${mediaUrl}${clipPath}` : null);
      // The incoming-webhook URL is a credential: the outbox keeps (and the delivery log shows) its host only,
      // and each attempt reads the sealed URL from the integration (chatOutboxKinds).
      const targetUrl = chat.secrets.webhookUrl?.masked ?? '****';
      if (!(await addDelivery(w, { orgUuid, kind: CHAT_DELIVERY_KIND, dedupeKey, targetUrl, body }))) throw new AlreadyRelayed();
    });
  } catch (e) {
    if (e instanceof AlreadyRelayed) return false;
    throw e;
  }
  await announceDeliveries(deps, orgUuid);
  return true;
}

/**
 * How chat messages are delivered: each attempt posts to the integration's URL as it stands, opened from its
 * seal; a chat integration disabled or deleted meanwhile ends the delivery.
 */
export function chatOutboxKinds(deps: IntegrationDeps): Record<string, DeliveryKind> {
  const attempt: AttemptStep = async (row, request) => {
    const chat = await findIntegration(deps, row.org_uuid, 'CHAT');
    const url = chat?.enabled ? chatWebhookUrl(deps, chat) : null;
    if (!url) throw new GiveUp('the chat integration was disabled or deleted');
    const headers = { [DELIVERY_ID_HEADER]: row.uuid, 'user-agent': 'Gatehouse-Outbox/1' };
    return sendOutbound({ method: 'POST', url, headers, rawJson: row.body, ...request }, outboundPolicy(deps.config));
  };
  return { [CHAT_DELIVERY_KIND]: { attempt } };
}

/** Relays every new policy alert of every organization to its chat integration; answers the unsubscribe. */
export function startChatRelay(deps: IntegrationDeps, mediaUrl: string): () => void {
  const log = deps.log.child({ component: 'integrations.chat' });
  return deps.bus.subscribe('change', (event) => {
    if (event.entity !== POLICY_ALERT_ENTITY || event.type !== 'CREATE') return;
    relayPolicyAlert(deps, event, mediaUrl).catch((e) => log.error({ err: e, orgUuid: event.orgUuid }, 'policy alert not relayed to chat'));
  });
}

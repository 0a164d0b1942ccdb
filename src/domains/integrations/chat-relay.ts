import type { ChangeEvent } from '../../bus/events.js';
import { systemActor } from '../../deps.js';
import { enqueueDelivery } from '../../outbox/service.js';
import { findDevice, findLocation } from '../devices/service.js';
import { findIntegration, type Integration, type IntegrationDeps } from './settings.js';

/** The change-event entity of policy alerts (src/domains/events). */
export const POLICY_ALERT_ENTITY = 'POLICY_ALERT';
export const CHAT_DELIVERY_KIND = 'CHAT_POLICY_ALERT';

/** The fields of a policy alert (as its change event carries it) that a chat message shows. */
interface AlertView {
  uuid: string;
  deviceUuid?: string | null;
  locationUuid?: string | null;
  policyAlertTriggers?: string[] | null;
  timestampMs?: number | null;
  textDescription?: string | null;
}

/** One delivery per alert and chat integration, whichever instance (or replay) enqueues it first. */
export const chatDedupeKey = (integration: Integration, alertUuid: string) => `CHAT:${integration.uuid}:POLICY_ALERT:${alertUuid}`;

/** A chat incoming-webhook message (`channel`, `text`) for a policy alert. */
export async function chatMessage(deps: Pick<IntegrationDeps, 'store'>, integration: Integration, orgUuid: string, alert: AlertView, clipUrl: string) {
  const device = alert.deviceUuid ? await findDevice(deps, orgUuid, alert.deviceUuid) : null;
  const locationUuid = alert.locationUuid ?? device?.locationUuid ?? null;
  const location = locationUuid ? await findLocation(deps, orgUuid, locationUuid) : null;
  const triggers = alert.policyAlertTriggers?.length ? alert.policyAlertTriggers.join(', ') : 'unspecified';
  const at = alert.timestampMs ? new Date(alert.timestampMs).toISOString() : null;
  const lines = [
    `:rotating_light: **Policy alert** on **${device?.name ?? alert.deviceUuid ?? 'unknown device'}** at **${location?.name ?? 'unknown location'}**`,
    `Triggers: ${triggers}${at ? ` · ${at}` : ''}`,
    ...(alert.textDescription ? [alert.textDescription] : []),
    `Clip: ${clipUrl}`,
  ];
  const channel = integration.settings.channel as string | null;
  return { ...(channel ? { channel } : {}), username: 'Gatehouse', text: lines.join('\n') };
}

/** Where a chat reader finds an alert's clip (the media host's clip path for the alert). */
export function alertClipUrl(mediaUrl: string | null, alertUuid: string): string {
  return `${mediaUrl ?? ''}/media/policyAlert/${alertUuid}/clip`;
}

/** Enqueues the chat message of a new policy alert when the organization's chat integration is on. */
export async function relayPolicyAlert(deps: IntegrationDeps, event: ChangeEvent, mediaUrl: string | null): Promise<boolean> {
  const chat = await findIntegration(deps, event.orgUuid, 'CHAT');
  const webhookUrl = chat?.settings.webhookUrl as string | null | undefined;
  if (!chat?.enabled || !webhookUrl) return false;
  const alert = event.update as AlertView;
  return enqueueDelivery(deps, systemActor(event.orgUuid, 'integrations.chat.relay'), {
    orgUuid: event.orgUuid,
    kind: CHAT_DELIVERY_KIND,
    dedupeKey: chatDedupeKey(chat, alert.uuid),
    targetUrl: webhookUrl,
    body: await chatMessage(deps, chat, event.orgUuid, alert, alertClipUrl(mediaUrl, alert.uuid)),
  });
}

/** Relays every new policy alert of every organization to its chat integration; answers the unsubscribe. */
export function startChatRelay(deps: IntegrationDeps, mediaUrl: string | null): () => void {
  const log = deps.log.child({ component: 'integrations.chat' });
  return deps.bus.subscribe('change', (event) => {
    if (event.entity !== POLICY_ALERT_ENTITY || event.type !== 'CREATE') return;
    relayPolicyAlert(deps, event, mediaUrl).catch((e) => log.error({ err: e, orgUuid: event.orgUuid }, 'policy alert not relayed to chat'));
  });
}

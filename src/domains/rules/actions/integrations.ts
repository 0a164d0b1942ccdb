import { newRuuid } from '../../../ids.js';
import { addDelivery, announceDeliveries } from '../../../outbox/service.js';
import { write } from '../../../bus/write.js';
import { findDevice, findLocation } from '../../devices/service.js';
import { chatWebhookUrl } from '../../integrations/chat.service.js';
import { findIntegration } from '../../integrations/settings.js';
import { failed, succeeded, type ActionContext, type ActionFamily, type ActionRun } from './action.js';

/** The outbox kind of a rule's chat post (the delivery log's `kind`). */
export const RULE_CHAT_KIND = 'CHAT_BUTTON_RULE';
/** The stream's entity name of a command a rule sends to an integration. */
export const INTEGRATION_COMMAND_ENTITY = 'INTEGRATION_COMMAND';

type Notification = NonNullable<ActionContext['action']['integrationNotificationActions']>[number];

/**
 * Queues a chat message about the firing through the organization's chat integration (the outbox posts it
 * to the integration's incoming webhook, once per firing and action); fails when chat is not enabled.
 */
async function postToChat(ctx: ActionContext, index: number, n: Notification) {
  const { deps, event } = ctx;
  const chat = await findIntegration(deps, event.orgUuid, 'CHAT');
  const webhookUrl = chat ? chatWebhookUrl(deps, chat) : null;
  if (!chat?.enabled || !webhookUrl) return failed('the organization has no enabled chat integration');
  const button = await findDevice(deps, event.orgUuid, event.sensorUuid);
  const location = event.locationUuid ? await findLocation(deps, event.orgUuid, event.locationUuid) : null;
  const channel = (n.notificationTarget ?? chat.settings.channel) as string | null;
  const text = [
    `:bell: **${ctx.rule.name ?? 'Button rule'}**: ${event.buttonPress} press of **${button?.name ?? event.sensorUuid}** at **${location?.name ?? 'unknown location'}**`,
    `${new Date(event.timestampMs).toISOString()}${n.notificationEntity ? ` · ${n.notificationEntity}` : ''}`,
  ].join('\n');
  const dedupeKey = `CHAT:${chat.uuid}:BUTTON_RULE:${event.firingUuid}:${index}`;
  await write(deps, ctx.actor, (w) =>
    addDelivery(w, {
      orgUuid: event.orgUuid,
      kind: RULE_CHAT_KIND,
      dedupeKey,
      targetUrl: webhookUrl,
      body: { ...(channel ? { channel } : {}), username: 'Gatehouse', text },
    }),
  );
  await announceDeliveries(deps, event.orgUuid);
  return { status: 'QUEUED' as const, detail: `chat delivery ${dedupeKey}` };
}

/**
 * `integrationNotificationActions` post through the organization's chat integration;
 * `integrationCommandActions` are recorded as commands to the named integration (an INTEGRATION_COMMAND
 * change, due after `delaySecs`), the payload as given.
 */
/** An INTEGRATION_COMMAND change: a command recorded for a third-party integration. */
export interface IntegrationCommandRecord {
  uuid: string;
  orgUuid: string;
  integration: string | null | undefined;
  commandPayload: string | null;
  delaySecs: number;
  dueAtMs: number;
  ruleUuid: string;
  firingUuid: string;
  status: string;
  createdAtMs: number;
}

export const integrationActions: ActionFamily = (ctx) => {
  const runs: ActionRun[] = [];
  for (const [i, n] of (ctx.action.integrationNotificationActions ?? []).entries()) {
    runs.push({ action: `integrationNotificationActions[${i}]`, run: () => postToChat(ctx, i, n) });
  }
  for (const [i, c] of (ctx.action.integrationCommandActions ?? []).entries()) {
    runs.push({
      action: `integrationCommandActions[${i}]`,
      async run() {
        const uuid = newRuuid();
        await write(ctx.deps, ctx.actor, async (w) => {
          const record = {
            uuid,
            orgUuid: ctx.event.orgUuid,
            integration: c.integration,
            commandPayload: c.commandPayload ?? null,
            delaySecs: c.delaySecs ?? 0,
            dueAtMs: w.nowMs + (c.delaySecs ?? 0) * 1000,
            ruleUuid: ctx.rule.uuid,
            firingUuid: ctx.event.firingUuid,
            status: 'SENT',
            createdAtMs: w.nowMs,
          };
          w.change({ entity: INTEGRATION_COMMAND_ENTITY, entityUuid: uuid, type: 'CREATE', deviceUuid: ctx.event.sensorUuid, update: record });
        });
        return succeeded(`command ${uuid} sent to ${c.integration}`);
      },
    });
  }
  return runs;
};

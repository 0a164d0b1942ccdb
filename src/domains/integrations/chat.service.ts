import type { CallerContext } from '../../context.js';
import { fail } from '../../errors.js';
import { checkOutboundUrl, OutboundRefused, outboundPolicy } from '../../net/outbound.js';
import type { ChatSettings } from './schemas.js';
import { openSecret, saveIntegration, type Integration, type IntegrationDeps, type UpdateResult } from './settings.js';

/** A URL an integration will call: http(s), and not a private address unless the configuration allows it. */
export async function checkIntegrationUrl(deps: Pick<IntegrationDeps, 'config'>, field: string, url: string): Promise<string> {
  try {
    await checkOutboundUrl(url, outboundPolicy(deps.config));
    return url;
  } catch (e) {
    if (e instanceof OutboundRefused) throw fail('INVALID_VALUE', `${field}: ${e.message}`);
    throw e;
  }
}

/** Saves the chat integration: enabled needs a webhookUrl that outbound requests may reach. */
export async function updateChatIntegration(deps: IntegrationDeps, ctx: CallerContext, input: ChatSettings): Promise<UpdateResult> {
  return saveIntegration(deps, ctx, 'CHAT', input, async ({ secrets }) => {
    const enabled = input.enabled ?? false;
    // The incoming-webhook URL is a credential: sealed at rest and answered by its host only (SECRET_FIELDS).
    const webhookUrl = secrets.webhookUrl;
    if (enabled && !webhookUrl) throw fail('INVALID_VALUE', 'webhookUrl: required to enable the chat integration');
    if (webhookUrl) await checkIntegrationUrl(deps, 'webhookUrl', webhookUrl);
    return { enabled, settings: { channel: input.channel ?? null } };
  });
}

/** Where the chat integration posts: its sealed webhookUrl (or, saved before it was sealed, the plain one). */
export function chatWebhookUrl(deps: Pick<IntegrationDeps, 'secrets'>, chat: Integration): string | null {
  return openSecret(deps, chat, 'webhookUrl') ?? ((chat.settings.webhookUrl as string | null | undefined) || null);
}

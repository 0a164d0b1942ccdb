import type { CallerContext } from '../../context.js';
import { fail } from '../../errors.js';
import { checkOutboundUrl, OutboundRefused, outboundPolicy } from '../../net/outbound.js';
import type { ChatSettings } from './schemas.js';
import { saveIntegration, type IntegrationDeps, type UpdateResult } from './settings.js';

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
  return saveIntegration(deps, ctx, 'CHAT', input, async () => {
    const enabled = input.enabled ?? false;
    if (enabled && !input.webhookUrl) throw fail('INVALID_VALUE', 'webhookUrl: required to enable the chat integration');
    const webhookUrl = input.webhookUrl ? await checkIntegrationUrl(deps, 'webhookUrl', input.webhookUrl) : null;
    return { enabled, settings: { channel: input.channel ?? null, webhookUrl } };
  });
}

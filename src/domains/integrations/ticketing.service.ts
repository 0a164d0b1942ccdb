import type { CallerContext } from '../../context.js';
import { fail } from '../../errors.js';
import { checkIntegrationUrl } from './chat.service.js';
import type { TicketingSettings } from './schemas.js';
import { deleteIntegration, saveIntegration, type IntegrationDeps, type UpdateResult } from './settings.js';

/** Creates or replaces the ticketing integration; enabled needs the instance URL and credentials. */
export async function updateTicketingIntegration(deps: IntegrationDeps, ctx: CallerContext, input: TicketingSettings): Promise<UpdateResult> {
  return saveIntegration(deps, ctx, 'TICKETING', input, async ({ secrets }) => {
    const enabled = input.enabled ?? false;
    if (enabled && (!input.instanceUrl || !input.username || !secrets.password)) {
      throw fail('INVALID_VALUE', 'instanceUrl, username and password: all required to enable the ticketing integration');
    }
    const instanceUrl = input.instanceUrl ? await checkIntegrationUrl(deps, 'instanceUrl', input.instanceUrl) : null;
    return { enabled, settings: { instanceUrl, username: input.username ?? null } };
  });
}

export async function deleteTicketingIntegration(deps: IntegrationDeps, ctx: CallerContext): Promise<void> {
  await deleteIntegration(deps, ctx, 'TICKETING', 'Ticketing integration');
}

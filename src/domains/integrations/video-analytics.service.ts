import type { CallerContext } from '../../context.js';
import { sendOutbound, outboundPolicy } from '../../net/outbound.js';
import { createApiKey, findUser, revokeApiKey } from '../orgs/service.js';
import type { VideoAnalyticsSettings } from './schemas.js';
import { deleteIntegration, saveIntegration, type Integration, type IntegrationDeps, type UpdateResult } from './settings.js';

const HANDOVER_TIMEOUT_MS = 5000;

/**
 * Hands the analytics system its key: `POST {GATEHOUSE_ANALYTICS_API_URL}/v1/keys` with
 * `{orgUuid, region, keyId, apiKey}`, or tells it the key is revoked (`POST .../v1/keys/revoke`, `{orgUuid, keyId}`).
 * The key travels only in this request: Gatehouse keeps its digest, as for every key.
 */
async function tellAnalytics(deps: Pick<IntegrationDeps, 'config'>, path: string, body: Record<string, unknown>): Promise<boolean> {
  const base = deps.config.analyticsApiUrl;
  if (!base) return false;
  try {
    const response = await sendOutbound(
      { method: 'POST', url: `${base.replace(/\/+$/, '')}${path}`, json: body, timeoutMs: HANDOVER_TIMEOUT_MS },
      outboundPolicy(deps.config),
    );
    return response.status >= 200 && response.status < 300;
  } catch {
    return false;
  }
}

async function revokeAnalyticsKey(deps: IntegrationDeps, ctx: CallerContext, integration: Integration): Promise<void> {
  if (!integration.apiKeyId) return;
  await revokeApiKey(deps, { orgUuid: ctx.orgUuid, keyId: integration.apiKeyId }, ctx);
  await tellAnalytics(deps, '/v1/keys/revoke', { orgUuid: ctx.orgUuid, keyId: integration.apiKeyId });
}

/**
 * Saves the video-analytics integration. While it is enabled the analytics system holds an API key scoped to
 * the organization: enabling issues one and hands it over; disabling (or deleting) revokes it. The audit map
 * is the server's own record: one sent in the request is ignored.
 */
export async function updateVideoAnalyticsIntegration(deps: IntegrationDeps, ctx: CallerContext, input: VideoAnalyticsSettings): Promise<UpdateResult> {
  return saveIntegration(deps, ctx, 'VIDEO_ANALYTICS', input, async ({ existing, failedGuids }) => {
    const enabled = input.enabled ?? false;
    if (input.orgUuid && input.orgUuid !== ctx.orgUuid) failedGuids.push(input.orgUuid);
    let userUuid = input.userUuid ?? null;
    if (userUuid && !(await findUser(deps, ctx.orgUuid, userUuid))) {
      failedGuids.push(userUuid);
      userUuid = null;
    }
    const settings = { integration: input.integration ?? 'LUMEO', orgUuid: ctx.orgUuid, userUuid };
    if (!enabled) {
      if (existing) await revokeAnalyticsKey(deps, ctx, existing);
      return { enabled, settings, apiKeyId: null };
    }
    if (existing?.apiKeyId) return { enabled, settings };
    if (!deps.config.analyticsApiUrl) {
      return { enabled, settings, apiKeyId: null, warnings: ['GATEHOUSE_ANALYTICS_API_URL is not set: no key was issued to the analytics system'] };
    }
    const { apiKey, keyId } = await createApiKey(deps, { orgUuid: ctx.orgUuid, kind: 'standard' }, ctx);
    if (await tellAnalytics(deps, '/v1/keys', { orgUuid: ctx.orgUuid, region: deps.config.region, keyId, apiKey }))
      return { enabled, settings, apiKeyId: keyId };
    await revokeApiKey(deps, { orgUuid: ctx.orgUuid, keyId }, ctx);
    return { enabled, settings, apiKeyId: null, warnings: ['the analytics system could not be reached to receive its key: save again to retry'] };
  });
}

export async function deleteVideoAnalyticsIntegration(deps: IntegrationDeps, ctx: CallerContext): Promise<void> {
  await deleteIntegration(deps, ctx, 'VIDEO_ANALYTICS', 'Video analytics integration', (existing) => revokeAnalyticsKey(deps, ctx, existing));
}

import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import { getDeliveryLog } from '../../outbox/service.js';
import { getIntegrationSettings, getIntegrationV2, getOrgIntegrations, getOrgIntegrationsV2 } from './read.service.js';
import {
  BaseIntegrationRequest,
  GetBadgeIntegrationResponse,
  GetChatIntegrationResponse,
  GetDeliveryLogRequest,
  GetDeliveryLogResponse,
  GetSmartSensorIntegrationResponse,
  GetTicketingIntegrationResponse,
  GetVideoAnalyticsIntegrationResponse,
} from './schemas.js';
import { GetOrgIntegrationsResponse, GetOrgIntegrationsV2Response } from './partners/listing.js';

const tags = ['Integrations'];
/** No settings saved: orgIntegrationV2 is left out (the catalogue's record is not nullable). */
const v2Answer = (settings: Record<string, unknown> | null) => (settings === null ? {} : { orgIntegrationV2: settings });
const read = { tags, body: BaseIntegrationRequest };

/** The read counterparts of the integration updates, the organization listings and the delivery log. */
export function readRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      ...read,
      path: '/api/integrations/IoT/getSmartSensorIntegration',
      operationId: 'getSmartSensorIntegration',
      extension: true,
      summary: 'Get the smart-sensor integration',
      response: GetSmartSensorIntegrationResponse,
    },
    async (_input, ctx) => ({ haloSettings: await getIntegrationSettings(deps, ctx, 'SMART_SENSOR') }),
  );
  operation(
    app,
    {
      ...read,
      path: '/api/integrations/getChatIntegration',
      operationId: 'getChatIntegration',
      extension: true,
      summary: 'Get the chat integration',
      response: GetChatIntegrationResponse,
    },
    async (_input, ctx) => ({ mattermostSettings: await getIntegrationSettings(deps, ctx, 'CHAT') }),
  );
  operation(
    app,
    {
      ...read,
      path: '/api/integrations/accessControl/getGeneaIntegration',
      aliases: ['/api/integrations/accessControl/getBadgeIntegration'],
      operationId: 'getGeneaIntegration',
      extension: ['/api/integrations/accessControl/getBadgeIntegration'],
      summary: 'Get the badge integration (secrets masked)',
      response: GetBadgeIntegrationResponse,
    },
    async (_input, ctx) => v2Answer(await getIntegrationV2(deps, ctx, 'BADGE')),
  );
  operation(
    app,
    {
      ...read,
      path: '/api/integrations/incidentManagement/getLumeoIntegration',
      aliases: ['/api/integrations/incidentManagement/getVideoAnalyticsIntegration'],
      operationId: 'getLumeoIntegration',
      extension: ['/api/integrations/incidentManagement/getVideoAnalyticsIntegration'],
      summary: 'Get the video-analytics integration with its audit map',
      response: GetVideoAnalyticsIntegrationResponse,
    },
    async (_input, ctx) => v2Answer(await getIntegrationV2(deps, ctx, 'VIDEO_ANALYTICS')),
  );
  operation(
    app,
    {
      ...read,
      path: '/api/integrations/incidentManagement/getTicketingIntegration',
      operationId: 'getTicketingIntegration',
      extension: true,
      summary: 'Get the ticketing integration (password masked)',
      response: GetTicketingIntegrationResponse,
    },
    async (_input, ctx) => ({ serviceNowSettings: await getIntegrationSettings(deps, ctx, 'TICKETING') }),
  );

  const listing = {
    ...read,
    operationId: 'getOrgIntegrations',
    summary: "Get the organization's integrations (secrets masked)",
    response: GetOrgIntegrationsResponse,
  };
  operation(app, { ...listing, path: '/api/integrations/org/getOrgIntegrations' }, async (_input, ctx) => ({
    orgIntegrations: await getOrgIntegrations(deps, ctx),
  }));
  // The catalogue's operationIds of the two deprecated paths.
  for (const [path, operationId] of [
    ['/api/org/getOrgIntegrations', 'DEPRECATED_getOrgIntegrations'],
    ['/api/integrations/getOrgIntegrations', 'getOrgIntegrationsDep'],
  ]) {
    operation(app, { ...listing, path, operationId, deprecated: { successor: '/api/integrations/org/getOrgIntegrations' } }, async (_input, ctx) => ({
      orgIntegrations: await getOrgIntegrations(deps, ctx),
    }));
  }
  const listingV2 = {
    ...read,
    operationId: 'getOrgIntegrationsV2',
    summary: "Get the organization's V2 integrations by name",
    response: GetOrgIntegrationsV2Response,
  };
  operation(app, { ...listingV2, path: '/api/integrations/org/getOrgIntegrationsV2' }, async (_input, ctx) => ({
    orgIntegrationsV2: await getOrgIntegrationsV2(deps, ctx),
  }));
  operation(
    app,
    {
      ...listingV2,
      path: '/api/integrations/getOrgIntegrationsV2',
      operationId: 'getOrgIntegrationsV2Dep',
      deprecated: { successor: '/api/integrations/org/getOrgIntegrationsV2' },
    },
    async (_input, ctx) => ({ orgIntegrationsV2: await getOrgIntegrationsV2(deps, ctx) }),
  );

  operation(
    app,
    {
      tags,
      path: '/api/integrations/getDeliveryLog',
      operationId: 'getDeliveryLog',
      extension: true,
      summary: "The organization's outbound deliveries (chat messages, webhooks), newest first",
      body: GetDeliveryLogRequest,
      response: GetDeliveryLogResponse,
    },
    async (input, ctx) => getDeliveryLog(deps, ctx.orgUuid, { maxResults: input.maxResults, beforeDeliveryId: input.lastDeliveryId, kind: input.kind }),
  );
}

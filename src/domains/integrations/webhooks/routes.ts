import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { EnvelopeResponse } from '../../../schemas/common.js';
import { BaseIntegrationRequest, IntegrationUpdateResponse } from '../schemas.js';
import {
  GetWebhookIntegrationResponse,
  SubscribeZapierWebhookRequest,
  SubscribeZapierWebhookResponse,
  UnsubscribeZapierWebhookRequest,
  UpdateWebhookIntegrationRequest,
  UpdateWebhookIntegrationV2Request,
  UpdateWebhookIntegrationV2Response,
} from './schemas.js';
import {
  deleteWebhookIntegration,
  deleteWebhookIntegrationV2,
  getWebhookIntegration,
  subscribeZapierWebhook,
  unsubscribeZapierWebhook,
  updateWebhookIntegration,
  updateWebhookIntegrationV2,
} from './webhooks.service.js';

const tags = ['Integrations'];
const BASE = '/api/integrations/webhooks';
/** The catalogue's older paths (without /webhooks) of each operation, as deprecated aliases. */
const older = (name: string) => [`/api/integrations/${name}`];

/** The organization's webhooks: the classic one, the V2 URLs and the event subscriptions. */
export function webhookRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: `${BASE}/updateWebhookIntegration`,
      aliases: older('updateWebhookIntegration'),
      operationId: 'updateWebhookIntegration',
      summary: 'Update the classic webhook (whole settings): every policy alert and device diagnostic is posted to webhookUrl',
      tags,
      body: UpdateWebhookIntegrationRequest,
      response: IntegrationUpdateResponse,
    },
    async (input, ctx) => updateWebhookIntegration(deps, ctx, input.webhookSettings ?? {}),
  );
  operation(
    app,
    {
      path: `${BASE}/getWebhookIntegration`,
      aliases: [...older('getWebhookIntegration'), `${BASE}/getWebhookIntegrationV2`],
      extension: [`${BASE}/getWebhookIntegrationV2`],
      operationId: 'getWebhookIntegration',
      summary: 'Get the V2 webhook URLs (orgIntegrationV2), secrets masked',
      tags,
      body: BaseIntegrationRequest,
      response: GetWebhookIntegrationResponse,
    },
    async (_input, ctx) => getWebhookIntegration(deps, ctx),
  );
  operation(
    app,
    {
      path: `${BASE}/deleteWebhookIntegration`,
      aliases: older('deleteWebhookIntegration'),
      operationId: 'deleteWebhookIntegration',
      summary: 'Delete the classic webhook',
      tags,
      body: BaseIntegrationRequest,
      response: EnvelopeResponse,
    },
    async (_input, ctx) => deleteWebhookIntegration(deps, ctx).then(() => ({})),
  );
  operation(
    app,
    {
      path: `${BASE}/updateWebhookIntegrationV2`,
      aliases: older('updateWebhookIntegrationV2'),
      operationId: 'updateWebhookIntegrationV2',
      summary: 'Add or change a V2 webhook URL (webhookUrl) or replace them all (updatedWebhookSettings); a new URL’s secret is answered once',
      tags,
      body: UpdateWebhookIntegrationV2Request,
      response: UpdateWebhookIntegrationV2Response,
    },
    async (input, ctx) => updateWebhookIntegrationV2(deps, ctx, input),
  );
  operation(
    app,
    {
      path: `${BASE}/deleteWebhookIntegrationV2`,
      aliases: older('deleteWebhookIntegrationV2'),
      operationId: 'deleteWebhookIntegrationV2',
      summary: 'Delete every V2 webhook URL',
      tags,
      body: BaseIntegrationRequest,
      response: EnvelopeResponse,
    },
    async (_input, ctx) => deleteWebhookIntegrationV2(deps, ctx).then(() => ({})),
  );
  operation(
    app,
    {
      path: `${BASE}/subscribeZapierWebhook`,
      aliases: older('subscribeZapierWebhook'),
      operationId: 'subscribeZapierWebhook',
      summary: 'Subscribe hookUrl to button, door sensor, environmental sensor or rule events, optionally of listed devices',
      tags,
      body: SubscribeZapierWebhookRequest,
      response: SubscribeZapierWebhookResponse,
    },
    async (input, ctx) => subscribeZapierWebhook(deps, ctx, input),
  );
  operation(
    app,
    {
      path: `${BASE}/unsubscribeZapierWebhook`,
      aliases: older('unsubscribeZapierWebhook'),
      operationId: 'unsubscribeZapierWebhook',
      summary: 'Remove a subscription',
      tags,
      body: UnsubscribeZapierWebhookRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => unsubscribeZapierWebhook(deps, ctx, input.webhookId).then(() => ({})),
  );
}

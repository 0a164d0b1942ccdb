import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import { EnvelopeResponse } from '../../schemas/common.js';
import { updateBadgeIntegration } from './badge.service.js';
import { updateChatIntegration } from './chat.service.js';
import { accessEventRoutes } from './access-events.routes.js';
import { readRoutes } from './read-routes.js';
import {
  BaseIntegrationRequest,
  IntegrationUpdateResponse,
  SmartSensorEventRequest,
  SmartSensorEventResponse,
  UpdateBadgeIntegrationRequest,
  UpdateChatIntegrationRequest,
  UpdateSmartSensorIntegrationRequest,
  UpdateTicketingIntegrationRequest,
  UpdateVideoAnalyticsIntegrationRequest,
} from './schemas.js';
import { deleteIntegration } from './settings.js';
import { receiveSmartSensorEvent } from './smart-sensor-events.service.js';
import { updateSmartSensorIntegration } from './smart-sensor.service.js';
import { deleteTicketingIntegration, updateTicketingIntegration } from './ticketing.service.js';
import { deleteVideoAnalyticsIntegration, updateVideoAnalyticsIntegration } from './video-analytics.service.js';

const tags = ['Integrations'];

/** The integration operations: update and delete here, reads and the delivery log in read-routes.ts. */
export function integrationRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/integrations/IoT/updateSmartSensorIntegration',
      aliases: ['/api/integrations/IoT/updateHaloIntegration'],
      operationId: 'updateSmartSensorIntegration',
      extension: ['/api/integrations/IoT/updateSmartSensorIntegration'],
      summary: 'Update the smart-sensor integration (whole settings)',
      tags,
      body: UpdateSmartSensorIntegrationRequest,
      response: IntegrationUpdateResponse,
    },
    async (input, ctx) => updateSmartSensorIntegration(deps, ctx, input.haloSettings ?? {}),
  );
  const updateChat = {
    operationId: 'updateChatIntegration',
    summary: 'Update the chat integration (whole settings): policy alerts are posted to webhookUrl',
    tags,
    body: UpdateChatIntegrationRequest,
    response: IntegrationUpdateResponse,
  };
  operation(
    app,
    {
      ...updateChat,
      path: '/api/integrations/updateChatIntegration',
      extension: ['/api/integrations/updateChatIntegration'],
      aliases: ['/api/integrations/incidentManagement/updateMattermostIntegration'],
    },
    async (input, ctx) => updateChatIntegration(deps, ctx, input.mattermostSettings ?? {}),
  );
  operation(
    app,
    {
      ...updateChat,
      path: '/api/integrations/updateMattermostIntegration',
      operationId: 'updateMattermostIntegrationDep',
      deprecated: { successor: '/api/integrations/updateChatIntegration' },
    },
    async (input, ctx) => updateChatIntegration(deps, ctx, input.mattermostSettings ?? {}),
  );
  operation(
    app,
    {
      path: '/api/integrations/accessControl/updateBadgeIntegration',
      aliases: ['/api/integrations/accessControl/updateGeneaIntegration'],
      operationId: 'updateBadgeIntegration',
      extension: ['/api/integrations/accessControl/updateBadgeIntegration'],
      summary: 'Update the badge integration (whole settings); apiToken is checked against the badge system',
      tags,
      body: UpdateBadgeIntegrationRequest,
      response: IntegrationUpdateResponse,
    },
    async (input, ctx) => updateBadgeIntegration(deps, ctx, input.geneaSettings ?? {}),
  );
  operation(
    app,
    {
      path: '/api/integrations/incidentManagement/updateVideoAnalyticsIntegration',
      aliases: ['/api/integrations/incidentManagement/updateLumeoIntegration'],
      operationId: 'updateVideoAnalyticsIntegration',
      extension: ['/api/integrations/incidentManagement/updateVideoAnalyticsIntegration'],
      summary: 'Update the video-analytics integration; while enabled the analytics system holds an organization key',
      tags,
      body: UpdateVideoAnalyticsIntegrationRequest,
      response: IntegrationUpdateResponse,
    },
    async (input, ctx) => updateVideoAnalyticsIntegration(deps, ctx, input.lumeoSettings ?? {}),
  );
  operation(
    app,
    {
      path: '/api/integrations/incidentManagement/updateServiceNowIntegration',
      aliases: ['/api/integrations/incidentManagement/updateTicketingIntegration'],
      operationId: 'updateServiceNowIntegration',
      extension: ['/api/integrations/incidentManagement/updateTicketingIntegration'],
      summary: 'Create or update the ticketing integration (whole settings)',
      tags,
      body: UpdateTicketingIntegrationRequest,
      response: IntegrationUpdateResponse,
    },
    async (input, ctx) => updateTicketingIntegration(deps, ctx, input.serviceNowSettings ?? {}),
  );

  const remove = { tags, body: BaseIntegrationRequest, response: EnvelopeResponse };
  operation(
    app,
    {
      ...remove,
      path: '/api/integrations/incidentManagement/deleteTicketingIntegration',
      aliases: ['/api/integrations/incidentManagement/deleteServiceNowIntegration'],
      operationId: 'deleteTicketingIntegration',
      extension: ['/api/integrations/incidentManagement/deleteTicketingIntegration'],
      summary: 'Delete the ticketing integration',
    },
    async (_input, ctx) => deleteTicketingIntegration(deps, ctx).then(() => ({})),
  );
  operation(
    app,
    {
      ...remove,
      path: '/api/integrations/IoT/deleteSmartSensorIntegration',
      aliases: ['/api/integrations/IoT/deleteHaloIntegration'],
      operationId: 'deleteSmartSensorIntegration',
      extension: ['/api/integrations/IoT/deleteSmartSensorIntegration'],
      summary: 'Delete the smart-sensor integration',
    },
    async (_input, ctx) => deleteIntegration(deps, ctx, 'SMART_SENSOR', 'Smart-sensor integration').then(() => ({})),
  );
  const deleteChat = { ...remove, operationId: 'deleteChatIntegration', summary: 'Delete the chat integration' };
  operation(
    app,
    {
      ...deleteChat,
      path: '/api/integrations/deleteChatIntegration',
      extension: ['/api/integrations/deleteChatIntegration'],
      aliases: ['/api/integrations/incidentManagement/deleteMattermostIntegration'],
    },
    async (_input, ctx) => deleteIntegration(deps, ctx, 'CHAT', 'Chat integration').then(() => ({})),
  );
  operation(
    app,
    {
      ...deleteChat,
      path: '/api/integrations/deleteMattermostIntegration',
      operationId: 'deleteMattermostIntegrationDep',
      deprecated: { successor: '/api/integrations/deleteChatIntegration' },
    },
    async (_input, ctx) => deleteIntegration(deps, ctx, 'CHAT', 'Chat integration').then(() => ({})),
  );
  operation(
    app,
    {
      ...remove,
      path: '/api/integrations/accessControl/deleteBadgeIntegration',
      aliases: ['/api/integrations/accessControl/deleteGeneaIntegration'],
      operationId: 'deleteBadgeIntegration',
      extension: ['/api/integrations/accessControl/deleteBadgeIntegration'],
      summary: 'Delete the badge integration (its inbound webhook stops accepting posts)',
    },
    async (_input, ctx) => deleteIntegration(deps, ctx, 'BADGE', 'Badge integration').then(() => ({})),
  );
  operation(
    app,
    {
      ...remove,
      path: '/api/integrations/incidentManagement/deleteVideoAnalyticsIntegration',
      aliases: ['/api/integrations/incidentManagement/deleteLumeoIntegration'],
      operationId: 'deleteVideoAnalyticsIntegration',
      extension: ['/api/integrations/incidentManagement/deleteVideoAnalyticsIntegration'],
      summary: "Delete the video-analytics integration and revoke the analytics system's key",
    },
    async (_input, ctx) => deleteVideoAnalyticsIntegration(deps, ctx).then(() => ({})),
  );
  operation(
    app,
    {
      path: '/api/integrations/IoT/smartSensorEvent',
      operationId: 'smartSensorEvent',
      extension: true,
      summary: "The smart-sensor system reports a sensor's event (authenticated with an API key of the organization)",
      description:
        'An event of an enabled alert type from a sensor of sensorToCamerasMap raises a policy alert on each mapped camera, saves a clip when saveClips and notifies when triggerNotification; others are answered as ignored.',
      tags,
      body: SmartSensorEventRequest,
      response: SmartSensorEventResponse,
    },
    async (input, ctx) => receiveSmartSensorEvent(deps, ctx, input),
  );
  readRoutes(app, deps);
  accessEventRoutes(app, deps);
}

import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import {
  GetIntegrationDiagnosticEventsRequest,
  GetIntegrationDiagnosticEventsResponse,
  SearchIntegrationAccessEventsRequest,
  SearchIntegrationAccessEventsResponse,
} from './access-events.schemas.js';
import { searchIntegrationAccessEvents } from './access-events.service.js';
import { getIntegrationDiagnosticEvents } from './diagnostics.service.js';

/** What the integrations recorded, read as the platform's search and report: badge-system access events, delivery failures. */
export function accessEventRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/eventSearchV2/searchIntegrationAccessEvents',
      operationId: 'searchIntegrationAccessEvents',
      summary: "Search the badge system's access events",
      description:
        "The platform's newer public spec (not in its catalogue). One event per camera that saw it, newest first; every filter applies; " +
        'page with the last event (lastTimestampMs and lastUuid, Gatehouse additions).',
      tags: ['EventSearch'],
      body: SearchIntegrationAccessEventsRequest,
      response: SearchIntegrationAccessEventsResponse,
    },
    async (input, ctx) => ({ events: await searchIntegrationAccessEvents(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/report/getIntegrationDiagnosticEvents',
      operationId: 'getIntegrationDiagnosticEvents',
      summary: "Get the integrations' failures",
      description: 'Each failed attempt to post to a webhook or the chat integration, newest first, at most 1000.',
      tags: ['Report'],
      body: GetIntegrationDiagnosticEventsRequest,
      response: GetIntegrationDiagnosticEventsResponse,
    },
    async (input, ctx) => ({ integrationDiagnosticEvents: await getIntegrationDiagnosticEvents(deps, ctx, input) }),
  );
}

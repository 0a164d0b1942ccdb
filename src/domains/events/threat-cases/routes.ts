import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as s from './schemas.js';
import * as threatCases from './service.js';

const TAGS = ['AlertMonitoring'];

/** Alert monitoring threat cases: read and deleted under /api/event/, settled under /api/alertmonitoring/. */
export function threatCaseRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/event/getAlertMonitoringThreatCase',
      operationId: 'getAlertMonitoringThreatCase',
      summary: 'Get an alert monitoring threat case',
      tags: TAGS,
      body: s.GetThreatCaseRequest,
      response: s.GetThreatCaseResponse,
    },
    async (input, ctx) => ({ threatCase: await threatCases.getThreatCase(deps, ctx, input.uuid) }),
  );
  operation(
    app,
    {
      path: '/api/event/getAlertMonitoringThreatCases',
      operationId: 'getAlertMonitoringThreatCases',
      summary: "The organization's alert monitoring threat cases, newest first",
      tags: TAGS,
      body: s.GetThreatCasesRequest,
      response: s.GetThreatCasesResponse,
    },
    (input, ctx) => threatCases.getThreatCases(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/event/deleteAlertMonitoringThreatCase',
      operationId: 'deleteAlertMonitoringThreatCase',
      summary: 'Delete alert monitoring threat cases',
      tags: TAGS,
      body: s.DeleteThreatCasesRequest,
      response: s.EmptyResponse,
    },
    async (input, ctx) => (await threatCases.deleteThreatCases(deps, ctx, input.threatCaseUuids), {}),
  );
  operation(
    app,
    {
      path: '/api/event/deleteAlertMonitoringThreatCaseByStatus',
      operationId: 'deleteAlertMonitoringThreatCaseByStatus',
      summary: 'Delete the alert monitoring threat cases in a status',
      tags: TAGS,
      body: s.DeleteThreatCasesByStatusRequest,
      response: s.EmptyResponse,
    },
    async (input, ctx) => (await threatCases.deleteThreatCasesByStatus(deps, ctx, input.status), {}),
  );
  operation(
    app,
    {
      path: '/api/alertmonitoring/cancelThreatCase',
      operationId: 'cancelThreatCase',
      summary: "Cancel a threat case with the location's monitoring pin",
      tags: TAGS,
      body: s.CancelThreatCaseRequest,
      response: s.ThreatCaseOutcomeResponse,
    },
    async (input, ctx) => (await threatCases.cancelThreatCase(deps, ctx, input), { success: true }),
  );
  operation(
    app,
    {
      path: '/api/alertmonitoring/dismissThreatCase',
      operationId: 'dismissThreatCase',
      summary: "Dismiss a threat case with the location's monitoring pin",
      tags: TAGS,
      body: s.DismissThreatCaseRequest,
      response: s.ThreatCaseOutcomeResponse,
    },
    async (input, ctx) => (await threatCases.dismissThreatCase(deps, ctx, input), { success: true }),
  );
  operation(
    app,
    {
      path: '/api/alertmonitoring/escalateThreatCaseToAlarm',
      operationId: 'escalateThreatCaseToAlarm',
      summary: 'Escalate a threat case to an alarm',
      tags: TAGS,
      body: s.EscalateThreatCaseRequest,
      response: s.EmptyResponse,
    },
    async (input, ctx) => (await threatCases.escalateThreatCase(deps, ctx, input), {}),
  );
}

import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { EmptyRequest } from '../../../schemas/common.js';
import {
  DismissAllPolicyAlertsForDeviceRequest,
  DismissPolicyAlertRequest,
  DismissPolicyAlertsRequest,
  DismissResponse,
  GetExpiringPolicyAlertsRequest,
  GetExpiringPolicyAlertsResponse,
  GetPolicyAlertCountRequest,
  GetPolicyAlertCountResponse,
  GetPolicyAlertGroupsForLocationRequest,
  GetPolicyAlertGroupsV2Request,
  GetPolicyAlertRequest,
  GetPolicyAlertResponse,
  GetPolicyAlertsRequest,
  GetPolicyAlertsResponse,
  GetUnhealthyDeviceAlertsResponse,
  PolicyAlertGroupsResponse,
} from './alert-feed.schemas.js';
import * as feed from './alert-feed.service.js';
import { getPolicyAlert } from './service.js';

const tags = ['Event'];
const GROUPING =
  'Alerts newest first, in groups as getPolicyAlertGroupsForDevice cuts them; dismissed alerts are left out. Page with the last alert of a page as the cursor.';

export function alertFeedRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/event/getPolicyAlertGroupsV2',
      operationId: 'getPolicyAlertGroupsV2',
      summary: 'Get recent policy alerts for organization, grouped by time',
      description: GROUPING,
      tags,
      deprecated: { successor: '/api/event/getPolicyAlertGroupsForLocation' },
      body: GetPolicyAlertGroupsV2Request,
      response: PolicyAlertGroupsResponse,
    },
    async (input, ctx) => ({ policyAlertGroups: await feed.getOrgAlertGroups(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/event/getPolicyAlertGroupsForLocation',
      operationId: 'getPolicyAlertGroupsForLocation',
      summary: 'Get recent policy alerts for location, grouped by time',
      description: GROUPING,
      tags,
      body: GetPolicyAlertGroupsForLocationRequest,
      response: PolicyAlertGroupsResponse,
    },
    async (input, ctx) => ({ policyAlertGroups: await feed.getLocationAlertGroups(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/event/getPolicyAlerts',
      operationId: 'getPolicyAlerts',
      summary: 'Get recent policy alerts for organization',
      description: 'Alerts newest first (dismissed ones left out); the last alert of a page is the cursor of the next.',
      tags,
      body: GetPolicyAlertsRequest,
      response: GetPolicyAlertsResponse,
    },
    async (input, ctx) => ({ policyAlerts: await feed.getPolicyAlertsV1(deps, ctx, input) }),
  );
  for (const [path, operationId, deprecated] of [
    ['/api/event/getPolicyAlert', 'getPolicyAlert', false],
    ['/api/event/getPolicyAlertV2', 'getPolicyAlertV2', true],
  ] as const) {
    operation(
      app,
      {
        path,
        operationId,
        summary: 'Get a policy alert',
        description: 'Any alert of the organization, dismissed ones included.',
        tags,
        ...(deprecated ? { deprecated: { successor: '/api/event/getPolicyAlertDetails' } } : {}),
        body: GetPolicyAlertRequest,
        response: GetPolicyAlertResponse,
      },
      async (input, ctx) => ({ policyAlert: await getPolicyAlert(deps, ctx, input.policyAlertUuid) }),
    );
  }
  operation(
    app,
    {
      path: '/api/event/getPolicyAlertCount',
      operationId: 'getPolicyAlertCount',
      summary: 'Get the number of policy alerts in the feed',
      tags,
      body: GetPolicyAlertCountRequest,
      response: GetPolicyAlertCountResponse,
    },
    async (input, ctx) => ({ count: await feed.countPolicyAlerts(deps, ctx, input.maxResultsSize) }),
  );
  operation(
    app,
    {
      path: '/api/event/dismissPolicyAlertV2',
      operationId: 'dismissPolicyAlertV2',
      summary: 'Dismiss a policy alert',
      description: 'The alert leaves the feeds (lists, groups, count) and stays readable by uuid; dismissing it again changes nothing.',
      tags,
      body: DismissPolicyAlertRequest,
      response: DismissResponse,
    },
    async (input, ctx) => feed.dismissPolicyAlerts(deps, ctx, [input.alertUuid]).then(() => ({})),
  );
  operation(
    app,
    {
      path: '/api/event/dismissPolicyAlertsV2',
      operationId: 'dismissPolicyAlertsV2',
      summary: 'Dismiss policy alerts',
      description: 'All or none: an unknown uuid refuses the call.',
      tags,
      body: DismissPolicyAlertsRequest,
      response: DismissResponse,
    },
    async (input, ctx) => feed.dismissPolicyAlerts(deps, ctx, input.alertUuids).then(() => ({})),
  );
  operation(
    app,
    {
      path: '/api/event/dismissAllPolicyAlertsV2',
      operationId: 'dismissAllPolicyAlertsV2',
      summary: 'Dismiss every policy alert in the feed',
      description: `At most ${feed.DISMISS_ALL_MAX} alerts (the oldest) per call.`,
      tags,
      body: EmptyRequest,
      response: DismissResponse,
    },
    async (_input, ctx) => feed.dismissAllPolicyAlerts(deps, ctx, null).then(() => ({})),
  );
  operation(
    app,
    {
      path: '/api/event/dismissAllPolicyAlertsForDevice',
      operationId: 'dismissAllPolicyAlertsForDevice',
      summary: 'Dismiss every policy alert of devices',
      description: `All devices must be the organization's. At most ${feed.DISMISS_ALL_MAX} alerts (the oldest) per call.`,
      tags,
      body: DismissAllPolicyAlertsForDeviceRequest,
      response: DismissResponse,
    },
    async (input, ctx) => feed.dismissAllPolicyAlerts(deps, ctx, input.deviceUuids).then(() => ({})),
  );
  operation(
    app,
    {
      path: '/api/event/getExpiringPolicyAlerts',
      extension: true,
      operationId: 'getExpiringPolicyAlerts',
      summary: 'Get policy alerts about to expire (Gatehouse)',
      description:
        'Unsaved alerts are deleted 30 days after they were recorded (or after their time, when later); saving one as a clip keeps it. Soonest first; the last alert of a page (expiresAtMs, uuid) is the cursor of the next.',
      tags,
      body: GetExpiringPolicyAlertsRequest,
      response: GetExpiringPolicyAlertsResponse,
    },
    async (input, ctx) => ({ policyAlerts: await feed.getExpiringPolicyAlerts(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/event/getUnhealthyDeviceAlerts',
      operationId: 'getUnhealthyDeviceAlerts',
      summary: 'Get unhealthy device alerts',
      description: "From each device's status: connection or health RED is DOWN, connection ORANGE or YELLOW is SLOW_INTERNET.",
      tags,
      body: EmptyRequest,
      response: GetUnhealthyDeviceAlertsResponse,
    },
    async (_input, ctx) => ({ unhealthyDeviceAlerts: await feed.getUnhealthyDeviceAlerts(deps, ctx) }),
  );
}

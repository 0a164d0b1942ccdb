import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { GROUP_MAX, GROUP_WINDOW_MS } from './alert-groups.js';
import {
  DeletePolicyAlertsRequest,
  DeletePolicyAlertsResponse,
  GetPolicyAlertDetailsRequest,
  GetPolicyAlertGroupsForDeviceRequest,
  GetPolicyAlertGroupsForDeviceResponse,
  GetPolicyAlertsV2Request,
  GetPolicyAlertsV2Response,
  GetNotificationMutesResponse,
  MuteNotificationsForDeviceRequest,
  ReportBadPolicyAlertRequest,
} from './schemas.js';
import * as alerts from './service.js';
import { GetPolicyAlertDetailsResponse } from './alert-details.schemas.js';
import { getPolicyAlertDetails } from './alert-details.service.js';
import { EmptyRequest, EnvelopeResponse } from '../../../schemas/common.js';
import * as mutes from './notification-mutes.service.js';

const tags = ['Event'];

export function alertRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/event/getPolicyAlertGroupsForDevice',
      operationId: 'getPolicyAlertGroupsForDevice',
      summary: 'Get recent policy alerts for device, grouped by time',
      description:
        `Alerts newest first, grouped: an alert joins the current group when it is at most ${GROUP_WINDOW_MS / 1000} s older than the previous alert ` +
        `and the group has fewer than ${GROUP_MAX} alerts. startTime is the group's newest alert, endTime its oldest. ` +
        'Page with the last alert of a page as the cursor (lastTimestampMs with lastUuid); pages end at group boundaries, so paging gives the same groups as one big page.',
      tags,
      body: GetPolicyAlertGroupsForDeviceRequest,
      response: GetPolicyAlertGroupsForDeviceResponse,
    },
    async (input, ctx) => ({ policyAlertGroups: await alerts.getPolicyAlertGroupsForDevice(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/event/getPolicyAlertsV2',
      operationId: 'getPolicyAlertsV2',
      summary: 'Get recent policy alerts for organization',
      description: 'Alerts newest first; oldestPolicyAlert is the last of the page, whose timestampMs and uuid are the cursor of the next page.',
      tags,
      body: GetPolicyAlertsV2Request,
      response: GetPolicyAlertsV2Response,
    },
    async (input, ctx) => {
      const policyAlerts = await alerts.getPolicyAlerts(deps, ctx, input);
      // Left out on an empty page: the catalogue's oldestPolicyAlert is not nullable.
      return { policyAlerts, oldestPolicyAlert: policyAlerts.at(-1) };
    },
  );
  operation(
    app,
    {
      path: '/api/event/getPolicyAlertDetails',
      operationId: 'getPolicyAlertDetails',
      summary: 'Get detailed information about policy alert',
      tags,
      body: GetPolicyAlertDetailsRequest,
      response: GetPolicyAlertDetailsResponse,
    },
    async (input, ctx) => ({ policyAlert: await getPolicyAlertDetails(deps, ctx, input.policyAlertUuid) }),
  );
  operation(
    app,
    {
      path: '/api/event/deletePolicyAlerts',
      operationId: 'deletePolicyAlerts',
      extension: true,
      summary: 'Delete policy alerts',
      description: 'Deletes all the alerts or none: an unknown uuid refuses the call. Clips saved from them stay.',
      tags,
      body: DeletePolicyAlertsRequest,
      response: DeletePolicyAlertsResponse,
    },
    async (input, ctx) => ({ deletedCount: await alerts.deletePolicyAlerts(deps, ctx, input.policyAlertUuids) }),
  );
  operation(
    app,
    {
      path: '/api/event/muteNotificationsForDevice',
      operationId: 'muteNotificationsForDevice',
      summary: "Mute a device's notifications for a while",
      description:
        "For durationSec from now (at most a week; 0 ends the mute) the device's policy alerts notify nobody: no user notification, webhook or chat " +
        'message. They are still recorded and listed, with notificationsMutedUntilMs. A new mute replaces the one in force.',
      tags,
      body: MuteNotificationsForDeviceRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => (await mutes.muteNotificationsForDevice(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/event/getNotificationMutes',
      operationId: 'getNotificationMutes',
      extension: true,
      summary: 'Get the devices whose notifications are muted now',
      tags,
      body: EmptyRequest,
      response: GetNotificationMutesResponse,
    },
    async (_input, ctx) => ({ mutes: await mutes.getNotificationMutes(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/event/reportBadPolicyAlert',
      operationId: 'reportBadPolicyAlert',
      summary: 'Report a policy alert as a false positive',
      description: 'The first report is kept on the alert (badAlertReport) and announced as a POLICY_ALERT UPDATE; reporting it again changes nothing.',
      tags,
      body: ReportBadPolicyAlertRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => (await alerts.reportBadPolicyAlert(deps, ctx, input.policyAlert.uuid), {}),
  );
}

import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import * as schemas from '../orgs/users/notification-settings.schemas.js';
import * as notifications from './service.js';
import * as snoozes from './snoozes.service.js';

const self = { kind: 'self' } as const;

/** The snoozes a user makes for themselves (the platform's newer spec names these paths). */
const SNOOZES = [
  ['/api/customer/snoozeDeviceNotifications', 'snoozeUserNotificationsForDevice', 'DEVICE', 'deviceUuids'],
  ['/api/customer/snoozeLocationNotifications', 'snoozeUserNotificationsForLocation', 'LOCATION', 'locationUuids'],
  ['/api/customer/snoozeComponentCompositeNotifications', 'snoozeUserNotificationsForComponentComposite', 'COMPONENT_COMPOSITE', 'componentCompositeUuids'],
] as const;

const SNOOZE_DELETES = [
  ['/api/customer/deleteAllNotificationSnoozeSettings', 'deleteAllNotificationSnoozeSettings', 'ALL', 'all notifications'],
  ['/api/customer/deleteNotificationSnoozeSettingForDevice', 'deleteNotificationSnoozeSettingForDevice', 'DEVICE', 'a device'],
  ['/api/customer/deleteNotificationSnoozeSettingForLocation', 'deleteNotificationSnoozeSettingForLocation', 'LOCATION', 'a location'],
  [
    '/api/customer/deleteNotificationSnoozeSettingForComponentComposite',
    'deleteNotificationSnoozeSettingForComponentComposite',
    'COMPONENT_COMPOSITE',
    'a door',
  ],
] as const;

/** Users' notification settings, the organization's template, and snoozes. */
export function notificationRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/customer/updateCurrentUserNotificationSettings',
      operationId: 'updateCurrentUserNotificationSettings',
      summary: "Set the key's own user's notification settings",
      tags: ['Customer'],
      body: schemas.UserNotificationSettingsRequest,
      response: schemas.NotificationEnvelope,
      permission: self,
    },
    async (input, ctx) => (await notifications.setUserNotificationSettings(deps, ctx, ctx.userUuid, input), {}),
  );
  operation(
    app,
    {
      path: '/api/user/updateUserNotificationSettings',
      operationId: 'updateUserNotificationSettings',
      summary: "Set a user's notification settings",
      description: 'From then on the user follows their own time frames, not the organization template; `timeFrames: []` asks for none.',
      tags: ['User'],
      body: schemas.UserNotificationSettingsRequest,
      response: schemas.NotificationEnvelope,
    },
    async (input, ctx) => (await notifications.setUserNotificationSettings(deps, ctx, input.userUuid ?? ctx.userUuid, input), {}),
  );
  operation(
    app,
    {
      path: '/api/user/getUserNotificationSettings',
      extension: true,
      operationId: 'getUserNotificationSettings',
      summary: "A user's notification settings as they take effect (their own, or the organization template)",
      tags: ['User'],
      body: schemas.GetUserNotificationSettingsRequest,
      response: schemas.GetUserNotificationSettingsResponse,
    },
    async (input, ctx) => {
      const s = await notifications.userNotificationSettings(deps, ctx, input.userUuid);
      return { notificationSettings: { ...s, notificationIntervalsV2: s.notificationIntervals } };
    },
  );
  operation(
    app,
    {
      path: '/api/org/getOrgNotificationTemplate',
      operationId: 'getOrgNotificationTemplate',
      summary: "The organization's notification template, V1 (minutes of the week)",
      tags: ['Org'],
      body: schemas.GetOrgTemplateRequest,
      response: schemas.GetOrgTemplateResponse,
    },
    async (_input, ctx) => {
      const t = await notifications.orgTemplate(deps, ctx.orgUuid);
      return { notificationSettings: { ...t, userUuid: null, notificationIntervalsV2: t.notificationIntervals } };
    },
  );
  operation(
    app,
    {
      path: '/api/org/updateOrgNotificationTemplate',
      operationId: 'updateOrgNotificationTemplate',
      summary: "Set the organization's notification template, V1: what users who set none of their own hear of",
      tags: ['Org'],
      body: schemas.UpdateOrgTemplateRequest,
      response: schemas.NotificationEnvelope,
      permission: { functionality: 'NOTIFICATION_ADMINISTRATION' },
    },
    async (input, ctx) => (
      await notifications.updateTemplate(deps, ctx, { notificationIntervals: input.notificationIntervalsV2, summaryEmailEnabled: input.summaryEmailEnabled }),
      {}
    ),
  );
  operation(
    app,
    {
      path: '/api/org/getOrgNotificationTemplateV2',
      operationId: 'getOrgNotificationTemplateV2',
      summary: "The organization's notification template, V2 (time frames)",
      tags: ['Org'],
      body: schemas.GetOrgTemplateRequest,
      response: schemas.GetOrgTemplateV2Response,
    },
    async (_input, ctx) => ({ notificationSettings: { ...(await notifications.orgTemplate(deps, ctx.orgUuid)), userUuid: null } }),
  );
  operation(
    app,
    {
      path: '/api/org/updateOrgNotificationTemplateV2',
      operationId: 'updateOrgNotificationTemplateV2',
      summary: "Set the organization's notification template, V2",
      tags: ['Org'],
      body: schemas.UpdateOrgTemplateV2Request,
      response: schemas.NotificationEnvelope,
      permission: { functionality: 'NOTIFICATION_ADMINISTRATION' },
    },
    async (input, ctx) => (
      await notifications.updateTemplate(deps, ctx, {
        timeFrames: input.templateUpdate?.timeFrames,
        smsPhoneNumbers: input.templateUpdate?.smsPhoneNumbers,
        summaryEmailEnabled: input.summaryEmailEnabled ?? input.templateUpdate?.summaryEmailEnabled,
      }),
      {}
    ),
  );
  operation(
    app,
    {
      path: '/api/customer/snoozeAllNotifications',
      extension: true,
      operationId: 'snoozeAllUserNotifications',
      summary: "Pause all of the key's user's notifications for a while",
      tags: ['Customer'],
      body: schemas.SnoozeAllRequest,
      response: schemas.NotificationEnvelope,
      permission: self,
    },
    async (input, ctx) => (await snoozes.snooze(deps, ctx, 'ALL', [], input), {}),
  );
  for (const [path, operationId, scope, field] of SNOOZES) {
    operation(
      app,
      {
        path,
        extension: true,
        operationId,
        summary: `Pause the key's user's notifications of some ${scope === 'COMPONENT_COMPOSITE' ? 'doors' : `${scope.toLowerCase()}s`} for a while`,
        tags: ['Customer'],
        body: schemas.SnoozeTargetsRequest,
        response: schemas.NotificationEnvelope,
        permission: self,
      },
      async (input, ctx) => (await snoozes.snooze(deps, ctx, scope, input[field] ?? [], input), {}),
    );
  }
  operation(
    app,
    {
      path: '/api/customer/getUserSnoozedNotificationSettings',
      operationId: 'getUserSnoozedNotificationSettings',
      summary: "The key's user's snoozes in force or planned",
      tags: ['Customer'],
      body: schemas.GetSnoozedRequest,
      response: schemas.GetSnoozedResponse,
      permission: self,
    },
    async (_input, ctx) => snoozes.snoozedSettings(deps, ctx),
  );
  for (const [path, operationId, scope, what] of SNOOZE_DELETES) {
    operation(
      app,
      {
        path,
        operationId,
        summary: `End one of the key's user's snoozes of ${what}`,
        tags: ['Customer'],
        body: schemas.SnoozeUuidRequest,
        response: schemas.NotificationEnvelope,
        permission: self,
      },
      async (input, ctx) => (await snoozes.deleteSnooze(deps, ctx, scope, input.uuid), {}),
    );
  }
}

/**
 * The entities the notifications domain announces on the stream, merged into the bus's typed map (src/bus/entities.ts):
 * one line each, `NAME: RecordType; // what it is`. docs/streaming.md's list is generated from these files.
 */
import type { UserNotificationRecord } from './notify.js';
import type { OrgNotificationTemplateRecord } from './service.js';
import type { NotificationSnoozeRecord } from './snoozes.service.js';

declare module '../../bus/entities.js' {
  interface ChangeEntities {
    ORG_NOTIFICATION_TEMPLATE: OrgNotificationTemplateRecord; // the notification settings of users who set none
    NOTIFICATION_SNOOZE: NotificationSnoozeRecord; // a user's pause of notifications (all, a device, a location, a door)
    USER_NOTIFICATION: UserNotificationRecord; // a notification sent to a user about a policy alert
  }
}

import { newRuuid } from '../../../ids.js';
import { write } from '../../../bus/write.js';
import { succeeded, type ActionFamily, type RuleEvent } from './action.js';

/** The stream's entity name of a live notification. */
export const LIVE_NOTIFICATION_ENTITY = 'LIVE_NOTIFICATION';

/** A LIVE_NOTIFICATION change: the rule's firing with a title and text for the organization's clients. */
export type LiveNotificationRecord = RuleEvent & { uuid: string; title: string; text: string; createdAtMs: number };

/** `liveNotificationAction`: a notification on the organization's stream (/topic/change/{org}). */
export const liveNotificationActions: ActionFamily = ({ deps, actor, action, rule, event }) =>
  action.liveNotificationAction
    ? [
        {
          action: 'liveNotificationAction',
          async run() {
            const uuid = newRuuid();
            await write(deps, actor, async (w) => {
              const notification = { uuid, title: rule.name ?? 'Button pressed', text: `${event.buttonPress} press`, createdAtMs: w.nowMs, ...event };
              w.change({ entity: LIVE_NOTIFICATION_ENTITY, entityUuid: uuid, type: 'CREATE', deviceUuid: event.sensorUuid, update: notification });
            });
            return succeeded(`notification ${uuid}`);
          },
        },
      ]
    : [];

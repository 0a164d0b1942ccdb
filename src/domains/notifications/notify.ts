import type { ChangeEvent } from '../../store/change-event.js';
import type { Deps } from '../../deps.js';
import { systemActor } from '../../deps.js';
import { newRuuid } from '../../ids.js';
import { write } from '../../bus/write.js';
import { findLocation } from '../devices/service.js';
import type { PolicyAlertRecord } from '../events/alerts/schemas.js';
import { notifiesNobody } from '../events/alerts/notification-mutes.service.js';
import { rightsOfUser } from '../orgs/permissions/service.js';
import { locationScope } from '../../edge/rights.js';
import { mediumsFor, type NotifiedEvent } from './notification-rules.js';
import * as store from './store.js';
import { listUserRecords } from '../orgs/service.js';
import { effectiveSettings, orgTemplate } from './service.js';
import { snoozeCovers } from './snoozes.service.js';
import { listUserSettings } from '../orgs/users/user-settings.js';

/** A notification sent to a user about a policy alert: what the user's clients show (APP, BROWSER, ...). */
export interface UserNotificationRecord {
  uuid: string;
  orgUuid: string;
  userUuid: string;
  sourceEntity: 'POLICY_ALERT';
  sourceUuid: string;
  deviceUuid: string;
  locationUuid: string | null;
  activities: string[];
  mediums: string[];
  title: string;
  timestampMs: number;
}

type NotifyDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'log'>;

/**
 * Notifies the users of the alert's organization who want to hear of it: their notification settings (or the
 * organization's template) cover its activities, device or location at its time on the location's wall
 * clock; their permission group sees its location; and no snooze of theirs in force now covers its device,
 * location or all notifications; and its device was not muted when it was raised. Each recipient gets one USER_NOTIFICATION on the stream, once, whichever
 * instances hear of the alert. Answers the users notified.
 */
export async function notifyOfAlert(deps: NotifyDeps, orgUuid: string, alert: PolicyAlertRecord): Promise<string[]> {
  if (notifiesNobody(alert)) return [];
  const location = alert.locationUuid ? await findLocation(deps, orgUuid, alert.locationUuid) : null;
  const event: NotifiedEvent = {
    activities: alert.policyAlertTriggers ?? [],
    deviceUuid: alert.deviceUuid,
    locationUuid: alert.locationUuid ?? null,
    timestampMs: alert.timestampMs,
    timeZone: location?.tz ?? 'UTC',
  };
  const template = await orgTemplate(deps, orgUuid);
  const own = new Map((await listUserSettings(deps, orgUuid)).map((s) => [s.userUuid, s]));
  const wanted: Array<{ userUuid: string; mediums: string[] }> = [];
  for (const user of await listUserRecords(deps, orgUuid)) {
    const settings = effectiveSettings(user.uuid, own.get(user.uuid), template);
    const mediums = mediumsFor(settings.timeFrames, settings.notificationIntervals, event);
    if (mediums.length === 0) continue;
    const scope = locationScope(await rightsOfUser(deps, user.uuid));
    if (scope && !(event.locationUuid && scope.has(event.locationUuid))) continue;
    wanted.push({ userUuid: user.uuid, mediums });
  }
  const nowMs = deps.clock.now();
  const snoozes = await store.snoozesOf(
    deps.store.db,
    orgUuid,
    wanted.map((w) => w.userUuid),
    nowMs,
    nowMs,
  );
  const recipients = wanted.filter((w) => !snoozes.some((s) => s.user_uuid === w.userUuid && snoozeCovers(s, event)));
  if (recipients.length === 0) return [];
  return write(deps, systemActor(orgUuid, 'notify.policyAlert'), async (w) => {
    const sent: string[] = [];
    for (const r of recipients) {
      const uuid = newRuuid();
      if (!(await store.claimNotification(w.tx, { uuid, org_uuid: orgUuid, user_uuid: r.userUuid, source_uuid: alert.uuid, created_at_ms: w.nowMs }))) continue;
      const record: UserNotificationRecord = {
        uuid,
        orgUuid,
        userUuid: r.userUuid,
        sourceEntity: 'POLICY_ALERT',
        sourceUuid: alert.uuid,
        deviceUuid: alert.deviceUuid,
        locationUuid: event.locationUuid,
        activities: [...event.activities],
        mediums: r.mediums,
        title: alert.textDescription ?? event.activities.join(', '),
        timestampMs: alert.timestampMs,
      };
      w.change({ entity: 'USER_NOTIFICATION', entityUuid: uuid, type: 'CREATE', deviceUuid: alert.deviceUuid, update: record });
      sent.push(r.userUuid);
    }
    return sent;
  });
}

/**
 * Notifies users of every new policy alert this instance hears of on the bus (as the chat relay relays it).
 * An alert whose announcement no instance heard (every instance down) notifies no one: notifications are
 * of the moment, not replayed.
 */
export function startUserNotifications(deps: NotifyDeps): () => void {
  const log = deps.log.child({ component: 'orgs.notify' });
  return deps.bus.subscribe('change', (event: ChangeEvent) => {
    if (event.entity !== 'POLICY_ALERT' || event.type !== 'CREATE') return;
    notifyOfAlert(deps, event.orgUuid, event.update as PolicyAlertRecord).catch((e) =>
      log.error({ err: e, orgUuid: event.orgUuid }, 'users not notified of a policy alert'),
    );
  });
}

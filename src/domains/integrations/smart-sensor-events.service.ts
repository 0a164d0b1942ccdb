import { facetId, newRuuid } from '../../ids.js';
import { mediaUrlPath } from '../../footage/storage.js';
import { write, type Actor, type WriteScope } from '../../bus/write.js';
import { findDevice } from '../devices/service.js';
import type { Activity } from '../../schemas/activities.js';
import { createPolicyAlert } from '../events/alerts/service.js';
import { createSavedClip } from '../events/clips/service.js';
import { notifiesNobody } from '../events/alerts/notification-mutes.service.js';
import type { SMART_SENSOR_ALERTS, SmartSensorEventType } from './schemas.js';
import { findIntegration, type IntegrationDeps } from './settings.js';

/** Which setting enables each smart-sensor event type, and the policy-alert trigger it raises. */
const EVENT_ALERTS: Record<SmartSensorEventType, { setting: (typeof SMART_SENSOR_ALERTS)[number]; trigger: Activity }> = {
  VAPE: { setting: 'alertVape', trigger: 'IOT_AIR_VAPE' },
  THC: { setting: 'alertTHC', trigger: 'IOT_AIR_THC' },
  GUNSHOT: { setting: 'alertGunshot', trigger: 'IOT_GUNSHOT' },
  AGGRESSION: { setting: 'alertAgression', trigger: 'IOT_SOUND_AGGRESSION' },
  HELP: { setting: 'alertHelp', trigger: 'IOT_SOUND_HELP' },
  CO: { setting: 'alertCO', trigger: 'IOT_AIR_CO' },
  CO2: { setting: 'alertCO2', trigger: 'IOT_AIR_CO2' },
  VOC: { setting: 'alertVOC', trigger: 'IOT_AIR_VOC' },
  TEMP: { setting: 'alertTemp', trigger: 'IOT_AIR_TEMP' },
  TAMPER: { setting: 'alertTamper', trigger: 'IOT_TAMPER' },
  MASKING: { setting: 'alertMasking', trigger: 'IOT_AIR_MASKING' },
};

export const NOTIFICATION_ENTITY = 'NOTIFICATION';

export interface SmartSensorEvent {
  sensorId: string;
  eventType: SmartSensorEventType;
  timestampMs?: number | null;
  value?: number | null;
}

export interface SmartSensorOutcome {
  policyAlertUuids: string[];
  savedClipUuids: string[];
  ignored: boolean;
  warningMsg: string | null;
}

const ignored = (why: string): SmartSensorOutcome => ({ policyAlertUuids: [], savedClipUuids: [], ignored: true, warningMsg: `event ignored: ${why}` });

/** A NOTIFICATION change: a title for the organization's clients about a policy alert. */
export interface NotificationRecord {
  uuid: string;
  orgUuid: string;
  policyAlertUuid: string;
  deviceUuid: string;
  title: string;
  timestampMs: number;
}

/** A notification for the organization's clients, announced on the stream with the alert it is about. */
function notify(w: WriteScope, alert: { uuid: string; deviceUuid: string }, title: string) {
  const uuid = newRuuid();
  w.change({
    entity: NOTIFICATION_ENTITY,
    entityUuid: uuid,
    deviceUuid: alert.deviceUuid,
    type: 'CREATE',
    update: { uuid, orgUuid: w.actor.orgUuid, policyAlertUuid: alert.uuid, deviceUuid: alert.deviceUuid, title, timestampMs: w.nowMs },
  });
}

/**
 * An event the smart-sensor system reports for one of its sensors. When the integration is on and the event's
 * alert type is enabled, it raises a policy alert with the matching trigger on each camera mapped to the
 * sensor, saves a clip of savedClipDurationMs on each when saveClips (the alert links it), and notifies when
 * triggerNotification. Anything else is answered as ignored, with the reason.
 */
export async function receiveSmartSensorEvent(deps: IntegrationDeps, actor: Actor, event: SmartSensorEvent): Promise<SmartSensorOutcome> {
  const orgUuid = actor.orgUuid;
  const integration = await findIntegration(deps, orgUuid, 'SMART_SENSOR');
  if (!integration?.enabled) return ignored('the smart-sensor integration is not enabled');
  const settings = integration.settings;
  const { setting, trigger } = EVENT_ALERTS[event.eventType];
  if (!settings[setting]) return ignored(`${event.eventType} alerts are disabled (${setting})`);
  const cameras = (settings.sensorToCamerasMap as Record<string, string[]> | undefined)?.[event.sensorId] ?? [];
  if (cameras.length === 0) return ignored(`sensor ${event.sensorId} is not mapped to any camera`);
  const sensorName = (settings.sensorName as string | null) ?? event.sensorId;
  const clipSec = Math.max(1, Math.round(((settings.savedClipDurationMs as number | undefined) ?? 30_000) / 1000));

  return write(deps, actor, async (w) => {
    const outcome: SmartSensorOutcome = { policyAlertUuids: [], savedClipUuids: [], ignored: false, warningMsg: null };
    const timestampMs = event.timestampMs ?? w.nowMs;
    for (const camera of cameras) {
      // A camera deleted since the mapping was saved is skipped.
      if (!(await findDevice(w, orgUuid, camera, ['CAMERA']))) continue;
      const clip = settings.saveClips
        ? await createSavedClip(w, deps.config.region, { deviceUuid: camera, timestampMs, durationSec: clipSec, title: `${event.eventType} at ${sensorName}` })
        : null;
      const alert = await createPolicyAlert(w, {
        deviceUuid: camera,
        policyAlertTriggers: [trigger],
        timestampMs,
        textDescription: `${event.eventType} reported by smart sensor ${sensorName}${event.value != null ? ` (${event.value})` : ''}`,
        notificationSent: Boolean(settings.triggerNotification),
        ...(clip ? { clipLocationMapV2: { [facetId(camera)]: mediaUrlPath(clip.uuid, 'video') } } : {}),
      });
      if (settings.triggerNotification && !notifiesNobody(alert)) notify(w, alert, `${event.eventType} at ${sensorName}`);
      outcome.policyAlertUuids.push(alert.uuid);
      if (clip) outcome.savedClipUuids.push(clip.uuid);
    }
    return outcome;
  });
}

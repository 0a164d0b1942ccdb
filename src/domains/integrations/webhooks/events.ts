import type { ChangeEvent } from '../../../store/change-event.js';
import { absoluteRecordMediaUris } from '../../../edge/media-uris.js';
import type { ReadSource } from '../../../store/reader.js';
import type { WriteScope } from '../../../bus/write.js';
import { COMPONENT_EVENT_ENTITY } from '../../access/door-events/service.js';
import type { DeviceReferenceCleaner } from '../../devices/device-references.js';
import { findDevice, findLocation } from '../../devices/service.js';
import { DEVICE_KINDS, type DeviceKind } from '../../devices/tables.js';
import { POLICY_ALERT_ENTITY } from '../../events/alerts/service.js';
import { notifiesNobody } from '../../events/alerts/notification-mutes.service.js';
import type { ZapKind } from './schemas.js';
import * as store from './store.js';

/**
 * What the organization's webhooks are told, made from the change log: policy alerts (ACTIVITY), device
 * diagnostics (DIAGNOSTIC: a device going offline or coming back), and the events subscriptions filter
 * (button presses, door position changes, environmental sensor alerts, rule firings).
 */
export type WebhookEvent =
  { family: 'ACTIVITY' | 'DIAGNOSTIC'; payload: AlertPayload; subscription?: SubscriptionEvent } | { family: 'SUBSCRIPTION'; subscription: SubscriptionEvent };

/** The platform's webhook body, version "2". */
export interface AlertPayload {
  version: '2';
  activityTrigger: string | null;
  diagnosticTrigger: string | null;
  summary: string;
  orgUuid: string;
  deviceUuid: string | null;
  timestampMs: number;
  location: string | null;
  locationUuid: string | null;
  alertUuid: string | null;
  durationSec: number | null;
  thumbnailLocation: string | null;
  /** Each device's media region: the webhook example builds `/media/metadata/<device>/<region>/<alert>/clip.mpd` from it (M10). */
  clipLocationMap: Record<string, string>;
  /** Each device's footage of the alert, absolute. */
  clipLocationMapV2: Record<string, string>;
}

export interface SubscriptionEvent {
  zapEnum: ZapKind;
  /** The devices, doors or rules the event is of: a subscription with uuids matches any of them. */
  subjects: string[];
  doorState?: string;
  temperatureC?: number;
  humidityPercent?: number;
  /** The body's event fields. */
  body: Record<string, unknown>;
}

const DEVICE_ENTITIES = new Set<string>(DEVICE_KINDS);
let entities: Set<string> | null = null;
/** Whether a change-log entity can make a webhook event (built on first use: the names come from other domains' modules). */
export function isWebhookEntity(entity: string): boolean {
  entities ??= new Set<string>([POLICY_ALERT_ENTITY, 'DOOR', COMPONENT_EVENT_ENTITY, 'BUTTON_EVENT', 'BUTTON_RULE_FIRING', ...DEVICE_KINDS]);
  return entities.has(entity);
}

const WORDS: Record<string, string> = { MOTION: 'Movement', MOTION_HUMAN: 'Person', MOTION_CAR: 'Vehicle', FACE: 'Face', PEOPLECOUNT_HIGH: 'Crowd' };
const humanize = (trigger: string) => WORDS[trigger] ?? trigger.charAt(0) + trigger.slice(1).toLowerCase().replace(/_/g, ' ');

/** The platform's diagnostic trigger of a device kind going offline or coming back. */
const DIAGNOSTICS: Record<DeviceKind, [offline: string, online: string]> = {
  CAMERA: ['CAMERA_DISCONNECTED', 'CAMERA_CONNECTED'],
  BUTTON: ['BUTTON_OFFLINE', 'BUTTON_ONLINE'],
  ENVIRONMENTAL_SENSOR: ['CLIMATE_OFFLINE', 'CLIMATE_ONLINE'],
  AUDIO_GATEWAY: ['GATEWAY_DISCONNECTED', 'GATEWAY_CONNECTED'],
  DOOR_CONTROLLER: ['DOOR_CONTROLLER_DISCONNECTED', 'DOOR_CONTROLLER_CONNECTED'],
  RELAY: ['GATEWAY_DISCONNECTED', 'GATEWAY_CONNECTED'],
  NVR: ['CAMERA_DISCONNECTED', 'CAMERA_CONNECTED'],
  ELEVATOR_LANDING: ['GATEWAY_DISCONNECTED', 'GATEWAY_CONNECTED'],
  ENVIRONMENTAL_GATEWAY: ['GATEWAY_DISCONNECTED', 'GATEWAY_CONNECTED'],
  DOOR_SENSOR: ['DOOR_OFFLINE', 'DOOR_ONLINE'],
  OCCUPANCY_SENSOR: ['OCCUPANCY_SENSOR_OFFLINE', 'OCCUPANCY_SENSOR_ONLINE'],
  BLE_TRACKER: ['BLE_DISCONNECTED', 'BLE_CONNECTED'],
  BADGE_READER: ['BADGE_READER_DISCONNECTED', 'BADGE_READER_CONNECTED'],
  KEYPAD: ['KEYPAD_OFFLINE', 'KEYPAD_ONLINE'],
  DOORBELL_CAMERA: ['CAMERA_DISCONNECTED', 'CAMERA_CONNECTED'],
};

/** A change's payload as the dispatcher reads it: any record the stream carries. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- payloads of every entity are read by field name
type Rec = Record<string, any>;
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const absolute = (mediaUrl: string, path: unknown): string | null => (typeof path !== 'string' || !path ? null : path.startsWith('/') ? mediaUrl + path : path);

async function placeOf(source: ReadSource, orgUuid: string, deviceUuid: string | null, locationUuid?: string | null) {
  const device = deviceUuid ? await findDevice(source, orgUuid, deviceUuid) : null;
  const uuid = locationUuid ?? device?.locationUuid ?? null;
  const location = uuid ? await findLocation(source, orgUuid, uuid) : null;
  return { device, locationUuid: uuid, locationName: location?.name ?? null };
}

/** An alert's temperature (°C) and relative humidity (%), from whichever of the sensor's readings it carries. */
function climateOf(alert: Rec): { temperatureC?: number; humidityPercent?: number } {
  const fixed = (v: unknown) => (num(v) === undefined ? undefined : (v as number) / 65536);
  const permyriad = (v: unknown) => (num(v) === undefined ? undefined : (v as number) / 100);
  return {
    temperatureC: num(alert.tempC) ?? fixed(alert.temperatureCelsius1616) ?? permyriad(alert.temperaturePermyriad) ?? num(alert.probeTempC),
    humidityPercent: num(alert.relHumid) ?? fixed(alert.humidityPercent1616) ?? permyriad(alert.humidityPermyriad),
  };
}

async function alertEvent(source: ReadSource, event: ChangeEvent, mediaUrl: string): Promise<WebhookEvent> {
  const alert = event.update as Rec;
  const triggers: string[] = Array.isArray(alert.policyAlertTriggers) ? alert.policyAlertTriggers : [];
  const place = await placeOf(source, event.orgUuid, alert.deviceUuid ?? event.deviceUuid, alert.locationUuid);
  const clips = (alert.clipLocationMapV2 ?? {}) as Record<string, string>;
  const regions = (alert.clipLocationMap ?? {}) as Record<string, { region?: string | null }>;
  const payload: AlertPayload = {
    version: '2',
    activityTrigger: triggers.join(','),
    diagnosticTrigger: null,
    summary: `${humanize(triggers[0] ?? 'ACTIVITY')} detected at ${place.locationName ?? place.device?.name ?? 'an unknown location'}`,
    orgUuid: event.orgUuid,
    deviceUuid: alert.deviceUuid ?? event.deviceUuid,
    timestampMs: alert.timestampMs ?? event.timestampMs,
    location: place.locationName,
    locationUuid: place.locationUuid,
    alertUuid: alert.uuid ?? event.entityUuid,
    durationSec: alert.durationSec ?? null,
    thumbnailLocation: absolute(mediaUrl, alert.thumbnailLocationV2 ?? alert.thumbnailUri),
    clipLocationMap: Object.fromEntries(Object.entries(regions).flatMap(([device, at]) => (at?.region ? [[device, at.region]] : []))),
    clipLocationMapV2: Object.fromEntries(Object.entries(clips).map(([device, path]) => [device, absolute(mediaUrl, path)!])),
  };
  const environmental = place.device?.deviceType === 'ENVIRONMENTAL_SENSOR';
  const subscription: SubscriptionEvent | undefined = environmental
    ? { zapEnum: 'ENVIRONMENTAL_SENSOR_EVENTS', subjects: [place.device!.uuid], ...climateOf(alert), body: { policyAlert: alert } }
    : undefined;
  return { family: 'ACTIVITY', payload, subscription };
}

/**
 * A device's connection changed: a diagnostic when it differs from the last state the dispatcher saw
 * (recorded in the same write as the deliveries, so a change seen twice is told once).
 */
async function diagnosticEvent(w: WriteScope, event: ChangeEvent, deviceUuid: string, online: boolean): Promise<WebhookEvent | null> {
  if (!(await store.flipDeviceStatus(w.tx, event.orgUuid, deviceUuid, online, event.id, w.nowMs))) return null;
  const place = await placeOf(w, event.orgUuid, deviceUuid);
  const kind = place.device?.deviceType ?? 'DOOR_CONTROLLER';
  const trigger = DIAGNOSTICS[kind][online ? 1 : 0];
  const name = place.device?.name ?? deviceUuid;
  const payload: AlertPayload = {
    version: '2',
    activityTrigger: null,
    diagnosticTrigger: trigger,
    summary: `${humanize(kind)} ${name} ${online ? 'is back online' : 'went offline'}${place.locationName ? ` at ${place.locationName}` : ''}`,
    orgUuid: event.orgUuid,
    deviceUuid,
    timestampMs: event.timestampMs,
    location: place.locationName,
    locationUuid: place.locationUuid,
    alertUuid: null,
    durationSec: null,
    thumbnailLocation: null,
    clipLocationMap: {},
    clipLocationMapV2: {},
  };
  return { family: 'DIAGNOSTIC', payload };
}

/** The webhook event a change makes, if any. Runs inside the dispatcher's write (diagnostics record state). */
export async function webhookEventOf(w: WriteScope, stored: ChangeEvent, mediaUrl: string): Promise<WebhookEvent | null> {
  // The records a body carries have their media links absolute, as the REST answers and the stream have them.
  const event = { ...stored, update: absoluteRecordMediaUris(stored.update, mediaUrl) };
  const u = (event.update ?? {}) as Rec;
  // An alert raised while its device was muted is told to no webhook.
  if (event.entity === POLICY_ALERT_ENTITY) return event.type === 'CREATE' && !notifiesNobody(u) ? alertEvent(w, event, mediaUrl) : null;
  if (event.entity === 'DOOR') {
    return typeof u.controllerOnline === 'boolean' && u.ownerDeviceUuid ? diagnosticEvent(w, event, u.ownerDeviceUuid, u.controllerOnline) : null;
  }
  if (DEVICE_ENTITIES.has(event.entity)) {
    return typeof u.connectionStatus === 'string' && event.type !== 'DELETE'
      ? diagnosticEvent(w, event, event.deviceUuid ?? event.entityUuid, u.connectionStatus !== 'RED')
      : null;
  }
  if (event.entity === 'BUTTON_EVENT' && event.type === 'CREATE') {
    return {
      family: 'SUBSCRIPTION',
      subscription: { zapEnum: 'BUTTON_EVENTS', subjects: [u.componentUuid, u.ownerDeviceUuid, event.deviceUuid].filter(Boolean), body: { buttonEvent: u } },
    };
  }
  if (event.entity === COMPONENT_EVENT_ENTITY && event.type === 'CREATE' && u.type === 'DoorPositionIndicatorStateChangeEvent') {
    return {
      family: 'SUBSCRIPTION',
      subscription: {
        zapEnum: 'DOOR_SENSOR_EVENTS',
        subjects: [u.componentCompositeUuid, u.ownerDeviceUuid].filter(Boolean),
        doorState: u.newState,
        body: { doorEvent: u },
      },
    };
  }
  if (event.entity === 'BUTTON_RULE_FIRING') {
    return { family: 'SUBSCRIPTION', subscription: { zapEnum: 'RULE_EVENTS', subjects: [u.ruleUuid, u.sensorUuid].filter(Boolean), body: { ruleFiring: u } } };
  }
  return null;
}

/** A deleted device's last connection state is forgotten (a device of the same uuid never comes back, but the row would linger). */
export const webhooksForgetDevice: DeviceReferenceCleaner = async (w, device) => {
  await store.deleteDeviceStatus(w.tx, device.orgUuid, device.uuid);
};

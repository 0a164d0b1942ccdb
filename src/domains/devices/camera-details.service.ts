import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { facetId } from '../../ids.js';
import { toJson } from '../../store/columns.js';
import { write, type WriteScope } from '../../store/write.js';
import { findCameraPolicy } from '../schedules/policies.service.js';
import { CAMERA_FACETS, findCamera } from './cameras.service.js';
import { updateDeviceAttributes } from './device-events.service.js';
import * as events from './device-events.store.js';
import { OFFLINE, ONLINE, reportConnection } from './sensors.service.js';
import { findLocation, type DeviceRecord } from './service.js';
import type { UPDATABLE_V2 } from './camera-details.schemas.js';

type ReadDeps = Pick<Deps, 'store'>;
type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

const CAMERA_HW = 'CAMERA_R510';
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A camera's details as getDetails answers them. */
export type CameraDetails = ReturnType<typeof toCameraDetails>;

export function toCameraDetails(camera: DeviceRecord) {
  const a = camera.attributes;
  return {
    uuid: camera.uuid,
    name: camera.name,
    description: str(a.description),
    customData: str(a.customData),
    locationUuid: camera.locationUuid,
    serialNumber: camera.serialNumber,
    hwVariation: CAMERA_HW,
    type: 'CAMERA',
    createdAtMillis: camera.createdAtMillis,
    facetNameMap: Object.fromEntries(CAMERA_FACETS.map((f) => [facetId(camera.uuid, f), camera.name])),
    floorNumber: num(a.floor),
    latitude: num(a.latitude),
    longitude: num(a.longitude),
    directionRadians: num(a.directionRadians),
    policyUuid: str(a.policyUuid),
    mummified: false,
    deleted: false,
    pending: false,
    subLocationsHierarchyKey: camera.locationUuid ? { locationUuids: [camera.locationUuid] } : null,
  };
}

async function cameraOf(source: ReadDeps | WriteScope, orgUuid: string, uuid: string): Promise<DeviceRecord> {
  const camera = await findCamera(source, orgUuid, uuid);
  if (!camera) throw fail('NOT_FOUND', 'Camera');
  return camera;
}

/** `getDetails`: the cameras asked for, in the order asked; any one the organization lacks fails the call. */
export async function getCameraDetails(deps: ReadDeps, ctx: CallerContext, uuids: readonly string[]) {
  const cameras: ReturnType<typeof toCameraDetails>[] = [];
  for (const uuid of new Set(uuids)) cameras.push(toCameraDetails(await cameraOf(deps, ctx.orgUuid, uuid)));
  return cameras;
}

export async function getCameraDetailsV2(deps: ReadDeps, ctx: CallerContext, uuid: string) {
  return toCameraDetails(await cameraOf(deps, ctx.orgUuid, uuid));
}

type DetailField = (typeof UPDATABLE_V2)[number];
export type DetailsChange = Partial<Record<DetailField, string | number | null>>;

/** Sets the given details of one camera, in the writer's transaction; a policy must be the organization's. */
async function applyDetails(w: WriteScope, uuid: string, change: DetailsChange): Promise<void> {
  const camera = await cameraOf(w, w.actor.orgUuid, uuid);
  if (change.policyUuid != null && !(await findCameraPolicy(w, w.actor.orgUuid, String(change.policyUuid)))) throw fail('NOT_FOUND', 'Camera policy');
  const updated = await applyDeviceDetails(w, camera, change);
  w.change({ entity: 'CAMERA', entityUuid: camera.uuid, deviceUuid: camera.uuid, type: 'UPDATE', update: toCameraDetails(updated) });
}

/**
 * Sets the given details of a device (name, location, and the attributes the fields name: description, floor,
 * coordinates, direction, ...), in the writer's transaction; a location must be the organization's. The caller
 * announces the device as its entity shows it.
 */
export async function applyDeviceDetails(w: WriteScope, device: DeviceRecord, change: DetailsChange): Promise<DeviceRecord> {
  if (change.locationUuid != null && !(await findLocation(w, w.actor.orgUuid, String(change.locationUuid)))) throw fail('NOT_FOUND', 'Location');
  if (change.name === null || (typeof change.name === 'string' && change.name.trim() === '')) throw fail('INVALID_VALUE', 'name: must not be empty');
  for (const [field, limit] of [
    ['latitude', 90],
    ['longitude', 180],
  ] as const) {
    const v = change[field];
    if (typeof v === 'number' && Math.abs(v) > limit) throw fail('INVALID_VALUE', `${field}: must be between -${limit} and ${limit}`);
  }
  const attributes = { ...device.attributes };
  const attribute = {
    description: 'description',
    customData: 'customData',
    floorNumber: 'floor',
    latitude: 'latitude',
    longitude: 'longitude',
    directionRadians: 'directionRadians',
    policyUuid: 'policyUuid',
  } as const;
  for (const [field, key] of Object.entries(attribute)) {
    const value = change[field as DetailField];
    if (value !== undefined) attributes[key] = value;
  }
  const updated: DeviceRecord = {
    ...device,
    name: typeof change.name === 'string' ? change.name.trim() : device.name,
    locationUuid: change.locationUuid !== undefined && change.locationUuid !== null ? String(change.locationUuid) : device.locationUuid,
    attributes,
    updatedAtMillis: w.nowMs,
  };
  await events.updateDeviceDetails(w.tx, device.uuid, {
    name: updated.name,
    locationUuid: updated.locationUuid,
    attributes: toJson(attributes)!,
    nowMs: w.nowMs,
  });
  return updated;
}

/** `updateDetails` (every field given is set) and `updateDetailsV2` (a field is set when its flag says so). */
export async function updateCameraDetails(deps: WriteDeps, ctx: CallerContext, uuid: string, change: DetailsChange) {
  await write(deps, ctx, (w) => applyDetails(w, uuid, change));
}

/** The fields of a V2 update whose `<field>Updated` flag is true. */
export function flaggedChange(input: Record<string, unknown>, fields: readonly DetailField[]): DetailsChange {
  return Object.fromEntries(fields.filter((f) => input[`${f}Updated`] === true).map((f) => [f, (input[f] ?? null) as string | number | null]));
}

/** `updateDetailsBulkV2`: every update in one transaction; one camera the organization lacks changes none. */
export async function updateCameraDetailsBulk(deps: WriteDeps, ctx: CallerContext, updates: readonly { uuid: string; change: DetailsChange }[]) {
  await write(deps, ctx, async (w) => {
    for (const u of updates) await applyDetails(w, u.uuid, u.change);
  });
}

export async function getFullCameraState(deps: ReadDeps, ctx: CallerContext, uuid: string) {
  const camera = await cameraOf(deps, ctx.orgUuid, uuid);
  const details = toCameraDetails(camera);
  const last = await events.lastEventBefore(deps.store.db, camera.uuid, 'connection', Number.MAX_SAFE_INTEGER);
  return {
    uuid: camera.uuid,
    name: camera.name,
    locationUuid: camera.locationUuid,
    serialNumber: camera.serialNumber,
    firmwareVersion: camera.firmwareVersion,
    hwVariation: CAMERA_HW,
    createdAtMillis: camera.createdAtMillis,
    connectionStatus: camera.connectionStatus,
    connectionTimestampMs: last?.ts ?? camera.createdAtMillis,
    healthStatus: camera.healthStatus,
    healthStatusDetails: camera.connectionStatus === 'RED' ? 'DISCONNECTED' : camera.healthStatus === 'GREEN' ? 'NONE' : null,
    stateUpdatedTimestampMs: camera.updatedAtMillis,
    defaultInterfaceMac: camera.macAddress,
    facetNameMap: details.facetNameMap,
    supportedFacets: [...CAMERA_FACETS],
    floorNumber: details.floorNumber,
    latitude: details.latitude,
    longitude: details.longitude,
    directionRadians: details.directionRadians,
    audioSupported: true,
    mummified: false,
    region: null,
    mediaRegion: null,
  };
}

// --- Configuration ---

const CONFIG_DEFAULTS: Record<string, unknown> = {
  img_brightness: 50,
  img_contrast: 50,
  img_saturation: 50,
  img_sharpness: 50,
  night_img_brightness: 50,
  night_img_contrast: 50,
  night_img_saturation: 50,
  night_img_sharpness: 50,
  exposure_level: 0,
  night_exposure_level: 0,
  hdr_enabled: false,
  wdr_enabled: false,
  wdr_strength: 50,
  rotation: 0,
  resolution: '1920x1080',
  snapshot_interval_secs: 60,
  media_ttl_minutes: 43_200,
  human_detection: true,
  vehicle_detection: true,
  occupancy_counting: false,
  video_persist_disabled: false,
  audio_record: true,
  audio_internal_mic_volume: 50,
  audio_internal_speaker_volume: 50,
  led_stealth_mode: false,
  face_ai_threshold: 0.5,
  face_match_threshold: 0.6,
  max_detections_per_frame: 100,
};

export function toCameraConfig(camera: DeviceRecord) {
  return {
    deviceUuid: camera.uuid,
    orgUuid: camera.orgUuid,
    lastModified: num(camera.attributes.configModifiedMs) ?? camera.createdAtMillis,
    ...CONFIG_DEFAULTS,
    ...((camera.attributes.config ?? {}) as Record<string, unknown>),
  };
}

export async function getCameraConfig(deps: ReadDeps, ctx: CallerContext, uuid: string) {
  return toCameraConfig(await cameraOf(deps, ctx.orgUuid, uuid));
}

/** Sets the settings given (the schema has checked each one's range); the others keep their values. */
export async function updateCameraConfig(deps: WriteDeps, ctx: CallerContext, input: { deviceUuid: string } & Record<string, unknown>) {
  const { deviceUuid, ...fields } = input;
  const given = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));
  await write(deps, ctx, async (w) => {
    const camera = await cameraOf(w, ctx.orgUuid, deviceUuid);
    const config = { ...((camera.attributes.config ?? {}) as Record<string, unknown>), ...given };
    await updateDeviceAttributes(
      w,
      camera,
      { ...camera.attributes, config, configModifiedMs: w.nowMs },
      { entity: 'CAMERA_USER_CONFIG', update: toCameraConfig },
    );
  });
}

// --- Reboot and uptime ---

/** How long a rebooting simulated camera stays offline. */
export const REBOOT_OFFLINE_MS = 3000;

/**
 * `reboot`: an online camera goes offline at once and comes back REBOOT_OFFLINE_MS later, both as
 * connection events (so both show on the stream and in its uptime windows). An offline camera cannot be sent
 * the command. The return is a timer in this process: a server stopped meanwhile leaves the camera offline
 * until the simulator reports it (`gatehouse simulate connection --device UUID --online`).
 */
export async function rebootCamera(deps: WriteDeps & Pick<Deps, 'log'>, ctx: CallerContext, uuid: string, offlineMs = REBOOT_OFFLINE_MS) {
  const camera = await cameraOf(deps, ctx.orgUuid, uuid);
  if (camera.connectionStatus === 'RED') return 'FAILED_CAMERA_OFFLINE' as const;
  await reportConnection(deps, { ...ctx, operation: 'rebootCamera' }, { deviceUuid: camera.uuid, online: false });
  const timer = setTimeout(() => {
    reportConnection(deps, { ...ctx, operation: 'rebootCamera.back' }, { deviceUuid: camera.uuid, online: true }).catch((e: unknown) =>
      deps.log.warn({ err: e, camera: camera.uuid }, 'a rebooted camera could not come back online'),
    );
  }, offlineMs);
  timer.unref();
  return 'SUCCESS_REBOOT_SENT' as const;
}

const MAX_WINDOW_EVENTS = 100_000;

/**
 * Windows of time the camera was online between `startSec` and `endSec`, from its connection history:
 * before its first recorded change a camera counts as online since its creation (unless it was created
 * offline and never reported), and never beyond now.
 */
export async function getUptimeWindows(
  deps: ReadDeps & Pick<Deps, 'clock'>,
  ctx: CallerContext,
  input: { cameraUuid: string; startTime: number; endTime: number },
) {
  if (input.endTime <= input.startTime) throw fail('INVALID_VALUE', 'endTime must be after startTime');
  const camera = await cameraOf(deps, ctx.orgUuid, input.cameraUuid);
  const fromMs = Math.max(input.startTime * 1000, camera.createdAtMillis);
  const toMs = Math.min(input.endTime * 1000, deps.clock.now());
  if (toMs <= fromMs) return [];
  const db = deps.store.db;
  const before = await events.lastEventBefore(db, camera.uuid, 'connection', fromMs);
  const changes = await events.listEventsOfDevices(db, {
    orgUuid: ctx.orgUuid,
    deviceUuids: [camera.uuid],
    families: ['connection'],
    fromMs: fromMs + 1,
    toMs,
    limit: MAX_WINDOW_EVENTS,
  });
  let online: boolean;
  if (before) online = before.state === ONLINE;
  else if (changes.length > 0) online = changes[0].state === OFFLINE;
  else online = camera.connectionStatus !== 'RED';
  const windows: { startSeconds: number; durationSeconds: number }[] = [];
  let since = fromMs;
  const close = (atMs: number) => {
    if (atMs > since) windows.push({ startSeconds: Math.floor(since / 1000), durationSeconds: Math.round((atMs - since) / 1000) });
  };
  for (const change of changes) {
    const nowOnline = change.state === ONLINE;
    if (online && !nowOnline) close(change.ts);
    if (!online && nowOnline) since = change.ts;
    online = nowOnline;
  }
  if (online) close(toMs);
  return windows;
}

// --- AI thresholds ---

const AI_DEFAULTS = {
  humanConfidenceThreshold: 0.5,
  vehicleConfidenceThreshold: 0.5,
  faceConfidenceThreshold: 0.6,
  faceMatchConfidenceThreshold: 0.7,
  lprConfidenceThreshold: 0.6,
  consecutiveHumanFilter: 3,
  consecutiveVehicleFilter: 3,
  maxEventDurationMs: 60_000,
};
export type AiThresholds = typeof AI_DEFAULTS;

export const toAiThresholds = (camera: DeviceRecord): AiThresholds => ({
  ...AI_DEFAULTS,
  ...((camera.attributes.aiThresholds ?? {}) as Partial<AiThresholds>),
});

export async function getCameraAIThresholds(deps: ReadDeps, ctx: CallerContext, uuid: string) {
  return toAiThresholds(await cameraOf(deps, ctx.orgUuid, uuid));
}

/** Sets the thresholds given (the schema has checked their ranges), announced as the camera's user config. */
export async function updateCameraAIThresholds(
  deps: WriteDeps,
  ctx: CallerContext,
  input: { cameraUuid: string } & Partial<Record<keyof AiThresholds, number | null>>,
) {
  const { cameraUuid, ...fields } = input;
  const given = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));
  await write(deps, ctx, async (w) => {
    const camera = await cameraOf(w, ctx.orgUuid, cameraUuid);
    const aiThresholds = { ...((camera.attributes.aiThresholds ?? {}) as Record<string, unknown>), ...given };
    await updateDeviceAttributes(
      w,
      camera,
      { ...camera.attributes, aiThresholds },
      { entity: 'CAMERA_USER_CONFIG', update: (d) => ({ deviceUuid: d.uuid, ...toAiThresholds(d) }) },
    );
  });
}

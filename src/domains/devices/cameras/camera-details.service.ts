import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet, facetId, isRuuid } from '../../../ids.js';
import { toJson } from '../../../store/columns.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { requireRecords } from '../../../records/references.js';
import { CAMERA_FACETS, findCamera, hwVariationOf } from './service.js';
import { updateDeviceAttributes } from '../device-reads/device-events.service.js';
import * as events from '../device-reads/device-events.store.js';
import { REBOOT_OFFLINE_MS, rebootDevice, uptimeWindows } from '../lifecycle/device-connection.service.js';
import { findDevice, healthDetailsOf, findDevices, findLocation, type DeviceRecord } from '../service.js';
import type { CROSSING_DIRECTIONS, CROSSING_OBJECTS, UPDATABLE_V2 } from './camera-details.schemas.js';
import type { RegionOfInterestGroups } from './regions.schemas.js';
import { checkRegionGroups } from './regions.service.js';
import { lineSides, type Point } from './region-polygons.js';

type ReadDeps = Pick<Deps, 'store'>;
type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

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
    hwVariation: hwVariationOf(camera),
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

/** The kinds whose settings camera/getConfig's state holds: a doorbell camera keeps the same settings. */
export type ConfigKind = 'CAMERA' | 'DOORBELL_CAMERA';

async function cameraOf(source: ReadDeps | WriteScope, orgUuid: string, uuid: string, kind: ConfigKind = 'CAMERA'): Promise<DeviceRecord> {
  const camera = kind === 'CAMERA' ? await findCamera(source, orgUuid, uuid) : isRuuid(uuid) ? await findDevice(source, orgUuid, uuid, [kind]) : null;
  if (!camera) throw fail('NOT_FOUND', kind === 'CAMERA' ? 'Camera' : 'Doorbell camera');
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
/** What a details update of any kind of device may set: a camera's fields, a tag's image and a sensor's cameras. */
export type DeviceDetailsChange = DetailsChange & { imageUrl?: string | null; associatedCameras?: readonly string[] | null };

/** Sets the given details of one camera, in the writer's transaction; a policy must be the organization's. */
async function applyDetails(deps: Pick<Deps, 'recordFinders'>, w: WriteScope, uuid: string, change: DetailsChange): Promise<void> {
  const camera = await cameraOf(w, w.actor.orgUuid, uuid);
  if (change.policyUuid != null) await requireRecords(deps, w, w.actor.orgUuid, 'cameraPolicy', [String(change.policyUuid)]);
  const updated = await applyDeviceDetails(w, camera, change);
  w.change({ entity: 'CAMERA', entityUuid: camera.uuid, deviceUuid: camera.uuid, type: 'UPDATE', update: toCameraDetails(updated) });
}

/** Each entry (a camera's uuid or facet id) must name a camera of the writer's organization. */
async function checkCameras(w: WriteScope, ids: readonly string[]): Promise<void> {
  const uuidOf = (id: string) => (isRuuid(id) ? id : deviceOfFacet(id));
  const cameras = await findDevices(
    w,
    w.actor.orgUuid,
    ids.map((id) => uuidOf(id) ?? ''),
    ['CAMERA'],
  );
  for (const [i, id] of ids.entries()) if (!cameras.has(uuidOf(id) ?? '')) throw fail('NOT_FOUND', `associatedCameras[${i}]: camera`);
}

/**
 * Sets the given details of a device (name, location, and the attributes the fields name: description, floor,
 * coordinates, direction, ...), in the writer's transaction; a location must be the organization's. The caller
 * announces the device as its entity shows it.
 */
export async function applyDeviceDetails(w: WriteScope, device: DeviceRecord, change: DeviceDetailsChange): Promise<DeviceRecord> {
  if (change.locationUuid != null && !(await findLocation(w, w.actor.orgUuid, String(change.locationUuid)))) throw fail('NOT_FOUND', 'Location');
  if (change.associatedCameras) await checkCameras(w, change.associatedCameras);
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
    imageUrl: 'imageUrl',
    associatedCameras: 'cameras',
  } as const;
  for (const [field, key] of Object.entries(attribute)) {
    const value = change[field as keyof typeof attribute];
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
export async function updateCameraDetails(deps: WriteDeps & Pick<Deps, 'recordFinders'>, ctx: CallerContext, uuid: string, change: DetailsChange) {
  await write(deps, ctx, (w) => applyDetails(deps, w, uuid, change));
}

/** The fields of a V2 update whose `<field>Updated` flag is true. */
export function flaggedChange(input: Record<string, unknown>, fields: readonly string[]): DeviceDetailsChange & { deleted?: boolean | null } {
  return Object.fromEntries(fields.filter((f) => input[`${f}Updated`] === true).map((f) => [f, input[f] ?? null]));
}

/** `updateDetailsBulkV2`: every update in one transaction; one camera the organization lacks changes none. */
export async function updateCameraDetailsBulk(
  deps: WriteDeps & Pick<Deps, 'recordFinders'>,
  ctx: CallerContext,
  updates: readonly { uuid: string; change: DetailsChange }[],
) {
  await write(deps, ctx, async (w) => {
    for (const u of updates) await applyDetails(deps, w, u.uuid, u.change);
  });
}

export async function getFullCameraState(deps: ReadDeps, ctx: CallerContext, uuid: string) {
  const camera = await cameraOf(deps, ctx.orgUuid, uuid);
  return fullDeviceState(deps, camera, { hwVariation: hwVariationOf(camera), facets: CAMERA_FACETS });
}

/** When the device's connection last changed (its creation when it never reported one). */
export async function connectionChangedAt(deps: ReadDeps, device: DeviceRecord): Promise<number> {
  const last = await events.lastEventBefore(deps.store.db, device.uuid, 'connection', Number.MAX_SAFE_INTEGER);
  return last?.ts ?? device.createdAtMillis;
}

/** A device's full state (the catalogue's FullDeviceStateType): cameras' and audio gateways'. */
export async function fullDeviceState(deps: ReadDeps, device: DeviceRecord, spec: { hwVariation: string; facets: readonly string[] }) {
  const a = device.attributes;
  return {
    uuid: device.uuid,
    name: device.name,
    locationUuid: device.locationUuid,
    serialNumber: device.serialNumber,
    firmwareVersion: device.firmwareVersion,
    hwVariation: spec.hwVariation,
    createdAtMillis: device.createdAtMillis,
    connectionStatus: device.connectionStatus,
    connectionTimestampMs: await connectionChangedAt(deps, device),
    healthStatus: device.healthStatus,
    healthStatusDetails: healthDetailsOf(device),
    stateUpdatedTimestampMs: device.updatedAtMillis,
    defaultInterfaceMac: device.macAddress,
    facetNameMap: Object.fromEntries(spec.facets.map((f) => [facetId(device.uuid, f), device.name])),
    supportedFacets: [...spec.facets],
    floorNumber: num(a.floor),
    latitude: num(a.latitude),
    longitude: num(a.longitude),
    directionRadians: num(a.directionRadians),
    policyUuid: str(a.policyUuid),
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
  cross_counting: false,
  cross_counting_settings: null,
  region_of_interest_groups: [],
};

/** The settings each revert puts back to their defaults (revertToDefaults: every setting, and the AI thresholds). */
const DAY_IMAGE_SETTINGS = [
  'img_brightness',
  'img_contrast',
  'img_saturation',
  'img_sharpness',
  'exposure_level',
  'hdr_enabled',
  'wdr_enabled',
  'wdr_strength',
];
const NIGHT_IMAGE_SETTINGS = ['night_img_brightness', 'night_img_contrast', 'night_img_saturation', 'night_img_sharpness', 'night_exposure_level'];
export const CAMERA_REVERTS = {
  revertDayImageSettingsToDefaults: DAY_IMAGE_SETTINGS,
  revertNightImageSettingsToDefaults: NIGHT_IMAGE_SETTINGS,
  revertCameraSettingsToDefaults: Object.keys(CONFIG_DEFAULTS),
  revertToDefaults: Object.keys(CONFIG_DEFAULTS),
} as const;

/** A counting line as the settings keep it (updateCameraLineCrossing). */
interface CountingLine {
  object_type: (typeof CROSSING_OBJECTS)[number];
  directions: Array<(typeof CROSSING_DIRECTIONS)[number]>;
  inverted: boolean;
  point_a: Point;
  point_b: Point;
}

/**
 * A camera's settings as answers carry them: the defaults, then what was set. The resolution is answered as its
 * two sides, the counting line as the catalogue's two regions (lineSides), left out while there is none (the
 * field is not nullable).
 */
export function toCameraConfig(camera: DeviceRecord) {
  const { cross_counting_settings: line, resolution, ...config } = { ...CONFIG_DEFAULTS, ...((camera.attributes.config ?? {}) as Record<string, unknown>) };
  const sides = /^(\d+)x(\d+)$/.exec(String(resolution));
  const counting = line as CountingLine | null;
  const parts = counting && lineSides(counting.point_a, counting.point_b, counting.inverted);
  return {
    deviceUuid: camera.uuid,
    orgUuid: camera.orgUuid,
    lastModified: num(camera.attributes.configModifiedMs) ?? camera.createdAtMillis,
    ...config,
    // The catalogue's resolution is its two sides.
    ...(sides ? { resolution: { width: Number(sides[1]), height: Number(sides[2]) } } : {}),
    ...(counting && parts
      ? {
          cross_counting_settings: {
            object_type: counting.object_type,
            directions: counting.directions,
            in_roi: [{ coordinates: parts.inside }],
            out_roi: [{ coordinates: parts.outside }],
          },
        }
      : {}),
  };
}

export async function getCameraConfig(deps: ReadDeps, ctx: CallerContext, uuid: string, kind: ConfigKind = 'CAMERA') {
  return toCameraConfig(await cameraOf(deps, ctx.orgUuid, uuid, kind));
}

/**
 * Sets the settings given (the schema has checked each one's range); the others keep their values. Regions of
 * interest replace the camera's list as a whole, once their polygons pass checkRegionGroups.
 */
export async function updateCameraConfig(
  deps: WriteDeps,
  ctx: CallerContext,
  input: { deviceUuid: string } & Record<string, unknown>,
  kind: ConfigKind = 'CAMERA',
) {
  const { deviceUuid, ...fields } = input;
  const given = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));
  if (typeof given.resolution === 'object') {
    // The catalogue's two sides, kept as WIDTHxHEIGHT; half of a resolution is refused.
    const sides = given.resolution as { width?: number | null; height?: number | null };
    if ((sides.width == null) !== (sides.height == null)) throw fail('INVALID_VALUE', 'resolution: give both width and height');
    if (sides.width == null) delete given.resolution;
    else given.resolution = `${sides.width}x${sides.height}`;
  }
  await write(deps, ctx, async (w) => {
    const camera = await cameraOf(w, ctx.orgUuid, deviceUuid, kind);
    if (given.region_of_interest_groups)
      given.region_of_interest_groups = await checkRegionGroups(w, camera, given.region_of_interest_groups as RegionOfInterestGroups);
    const config = { ...((camera.attributes.config ?? {}) as Record<string, unknown>), ...given };
    await updateDeviceAttributes(
      w,
      camera,
      { ...camera.attributes, config, configModifiedMs: w.nowMs },
      { entity: 'CAMERA_USER_CONFIG', update: toCameraConfig },
    );
  });
}

/** Writes a camera's settings (and AI thresholds) as `change` makes them, announced as its user config. */
async function changeCameraConfig(deps: WriteDeps, ctx: CallerContext, uuid: string, change: (camera: DeviceRecord) => Record<string, unknown>) {
  await write(deps, ctx, async (w) => {
    const camera = await cameraOf(w, ctx.orgUuid, uuid);
    await updateDeviceAttributes(w, camera, { ...change(camera), configModifiedMs: w.nowMs }, { entity: 'CAMERA_USER_CONFIG', update: toCameraConfig });
  });
}

/** The four reverts: the settings of the operation go back to their defaults (revertToDefaults: the AI thresholds too). */
export async function revertCameraSettings(deps: WriteDeps, ctx: CallerContext, uuid: string, revert: keyof typeof CAMERA_REVERTS) {
  const reverted = new Set<string>(CAMERA_REVERTS[revert]);
  await changeCameraConfig(deps, ctx, uuid, (camera) => {
    const config = Object.fromEntries(Object.entries((camera.attributes.config ?? {}) as Record<string, unknown>).filter(([k]) => !reverted.has(k)));
    const { aiThresholds: _ai, ...rest } = camera.attributes;
    return revert === 'revertToDefaults' ? { ...rest, config } : { ...camera.attributes, config };
  });
}

export interface LineCrossingInput {
  cameraUuid: string;
  objectType?: string | null;
  directions?: string[] | null;
  inverted?: boolean | null;
  pointA?: { x?: number | null; y?: number | null } | null;
  pointB?: { x?: number | null; y?: number | null } | null;
}

/**
 * `updateCameraLineCrossingThresholds`: the line the camera counts crossings of, kept in its settings as
 * `cross_counting_settings` (and `cross_counting` on). Both points set the line; a point left out turns
 * line crossing off. The two points must differ (a line needs two).
 */
export async function updateCameraLineCrossing(deps: WriteDeps, ctx: CallerContext, input: LineCrossingInput) {
  const point = (p: LineCrossingInput['pointA']) => (p && p.x != null && p.y != null ? { x: p.x, y: p.y } : null);
  const a = point(input.pointA);
  const b = point(input.pointB);
  if (a && b && a.x === b.x && a.y === b.y) throw fail('INVALID_VALUE', 'pointB: must differ from pointA');
  const settings =
    a && b
      ? {
          object_type: input.objectType ?? 'HUMAN',
          directions: [...new Set(input.directions ?? ['INGRESS', 'EGRESS'])],
          inverted: input.inverted ?? false,
          point_a: a,
          point_b: b,
        }
      : null;
  await changeCameraConfig(deps, ctx, input.cameraUuid, (camera) => ({
    ...camera.attributes,
    config: { ...((camera.attributes.config ?? {}) as Record<string, unknown>), cross_counting: settings !== null, cross_counting_settings: settings },
  }));
}

// --- Reboot and uptime ---

/**
 * `reboot`: an online camera goes offline and comes back a few seconds later (rebootDevice); an offline camera
 * cannot be sent the command.
 */
export async function rebootCamera(deps: WriteDeps & Pick<Deps, 'log'>, ctx: CallerContext, uuid: string, offlineMs = REBOOT_OFFLINE_MS) {
  const camera = await cameraOf(deps, ctx.orgUuid, uuid);
  return (await rebootDevice(deps, ctx, camera, offlineMs)) ? ('SUCCESS_REBOOT_SENT' as const) : ('FAILED_CAMERA_OFFLINE' as const);
}

/** Windows of time the camera was online between `startTime` and `endTime` (epoch seconds), from its connection history. */
/** Epoch seconds, or milliseconds when 10^11 or more (seconds reach that in the year 5138; milliseconds passed it in 1973). */
const epochMsOf = (t: number) => (t >= 1e11 ? t : t * 1000);

export async function getUptimeWindows(
  deps: ReadDeps & Pick<Deps, 'clock'>,
  ctx: CallerContext,
  input: { cameraUuid: string; startTime: number; endTime: number },
) {
  const [startMs, endMs] = [epochMsOf(input.startTime), epochMsOf(input.endTime)];
  if (endMs <= startMs) throw fail('INVALID_VALUE', 'endTime must be after startTime');
  const camera = await cameraOf(deps, ctx.orgUuid, input.cameraUuid);
  return uptimeWindows(deps, camera, startMs, endMs);
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

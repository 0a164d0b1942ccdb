import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { getCameraConfig, toCameraConfig, updateCameraConfig, type ConfigKind } from './camera-details.service.js';
import { CAMERA_FACETS } from './service.js';
import type { Static } from 'typebox';
import { AUDIO_SETTINGS, DEVICE_SETTINGS, VIDEO_SETTINGS, type FacetedUserConfig } from './faceted-config.schemas.js';
import type { DeviceRecord } from '../service.js';

type ReadDeps = Pick<Deps, 'store'>;
type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;
type Settings = Record<string, unknown>;
type Faceted = Static<typeof FacetedUserConfig>;
type CameraConfig = ReturnType<typeof toCameraConfig> & Settings;

const pick = (config: Settings, keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, config[k] ?? null]));

/**
 * A camera's settings (camera/getConfig's) grouped as the faceted view has them: the video and audio settings
 * under each of its facets (`v0`), the LED and retention under the device. (Each setting was checked against its
 * schema when it was set, hence the casts.)
 */
export function toFacetedConfig(config: CameraConfig): Faceted {
  const video = {
    ...pick(config, VIDEO_SETTINGS),
    resolution: config.resolution,
    cross_counting: config.cross_counting,
    cross_counting_settings: config.cross_counting_settings,
  };
  return {
    deviceUuid: config.deviceUuid,
    orgUuid: config.orgUuid,
    lastModified: config.lastModified,
    videoFacetSettings: Object.fromEntries(CAMERA_FACETS.map((f) => [f, video])) as Faceted['videoFacetSettings'],
    audioFacetSettings: Object.fromEntries(CAMERA_FACETS.map((f) => [f, pick(config, AUDIO_SETTINGS)])) as Faceted['audioFacetSettings'],
    deviceSettings: pick(config, DEVICE_SETTINGS) as Faceted['deviceSettings'],
  };
}

export const facetedConfigOf = (camera: DeviceRecord) => toFacetedConfig(toCameraConfig(camera));

/** A camera's (or a doorbell camera's: doorbellcamera/getConfig) settings in the faceted view. */
export async function getFacetedConfig(deps: ReadDeps, ctx: CallerContext, deviceUuid: string, kind: ConfigKind = 'CAMERA') {
  return toFacetedConfig(await getCameraConfig(deps, ctx, deviceUuid, kind));
}

export interface FacetedConfigUpdate {
  deviceUuid: string;
  videoFacetSettings?: Record<string, Settings> | null;
  audioFacetSettings?: Record<string, Settings> | null;
  deviceSettings?: Settings | null;
}

/** The settings a facet map sets; a facet the camera does not have is refused, naming it. */
function facetSettings(map: Record<string, Settings> | null | undefined, field: string): Settings {
  const settings: Settings = {};
  for (const [facet, given] of Object.entries(map ?? {})) {
    if (!CAMERA_FACETS.includes(facet)) throw fail('INVALID_VALUE', `${field}.${facet}: the camera has no facet ${facet} (it has ${CAMERA_FACETS.join(', ')})`);
    Object.assign(settings, given);
  }
  return settings;
}

/**
 * `updateFacetedConfig`: sets the settings given (not null) and leaves the others, through camera/updateConfig's
 * path (one transaction, announced as the camera's CAMERA_USER_CONFIG). The schema has checked each range.
 */
export async function updateFacetedConfig(deps: WriteDeps, ctx: CallerContext, update: FacetedConfigUpdate, kind: ConfigKind = 'CAMERA') {
  const { resolution, updatedSetMethodMap: _video, ...video } = facetSettings(update.videoFacetSettings, 'videoFacetSettings');
  const { updatedSetMethodMap: _audio, ...audio } = facetSettings(update.audioFacetSettings, 'audioFacetSettings');
  const { updatedSetMethodMap: _device, ...device } = update.deviceSettings ?? {};
  // camera/updateConfig's path takes the resolution's two sides as they come.
  const flat: Settings = { ...video, ...audio, ...device, resolution };
  await updateCameraConfig(deps, ctx, { ...flat, deviceUuid: update.deviceUuid }, kind);
}

import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { facetId } from '../../../ids.js';
import { toCameraConfig, toCameraDetails } from './camera-details.service.js';
import { CAMERA_FACETS, hwVariationOf, toMinimalCameraState } from './service.js';
import type { CameraConfigOptions } from '../../orgs/schemas.js';
import type { ReadSource } from '../../../store/reader.js';
import { cameraList, UPTIME_SPAN_MS } from './camera-list-cache.js';
import * as liveShareStore from '../live-shares/store.js';
import { uptimeWindowsOfDevices, type UptimeDevice } from '../lifecycle/device-connection.service.js';
import { facetedConfigOf } from './faceted-config.service.js';
import { listDevices, listDevicesAt, type DeviceRecord } from '../service.js';

type ReadDeps = Pick<Deps, 'store'>;

/** Whether one of a camera's settings (camera/getConfig's, its default when never set) is on. */
const settingOn = (camera: DeviceRecord, setting: 'occupancy_counting' | 'cross_counting') =>
  (toCameraConfig(camera) as Record<string, unknown>)[setting] === true;

/** `getOccupancyEnabledCameras`: the cameras whose settings have occupancy counting on (camera/updateConfig). */
export async function getOccupancyEnabledCameras(deps: ReadDeps, ctx: CallerContext) {
  const cameras = await listDevices(deps, ctx.orgUuid, ['CAMERA']);
  return cameras
    .filter((camera) => settingOn(camera, 'occupancy_counting'))
    .map((camera) => ({ ...toCameraDetails(camera), deviceUuid: facetId(camera.uuid, CAMERA_FACETS[0]) }));
}

/**
 * `getLineCrossingEnabledCamerasForLocation`: the location's cameras that count crossings of a line
 * (camera/updateCameraLineCrossingThresholds), each with its faceted settings, where the line is.
 */
export async function getLineCrossingEnabledCameras(deps: ReadDeps, ctx: CallerContext, locationUuid: string) {
  const cameras = await listDevicesAt(deps, ctx.orgUuid, locationUuid, ['CAMERA']);
  return Object.fromEntries(cameras.filter((camera) => settingOn(camera, 'cross_counting')).map((camera) => [camera.uuid, facetedConfigOf(camera)]));
}

/** `getUptimeWindowsForOrg`: every camera's uptime windows (as camera/getUptimeWindows), in a fixed number of queries. */
export async function getUptimeWindowsForOrg(deps: ReadDeps & Pick<Deps, 'clock'>, ctx: CallerContext, input: { startTimeMs: number; endTimeMs: number }) {
  if (input.endTimeMs <= input.startTimeMs) throw fail('INVALID_VALUE', 'endTimeMs must be after startTimeMs');
  const cameras = await listDevices(deps, ctx.orgUuid, ['CAMERA']);
  const windows = await uptimeWindowsOfDevices(deps, ctx.orgUuid, cameras, input.startTimeMs, input.endTimeMs);
  return cameras.map((camera) => ({ deviceUuid: camera.uuid, uptimeWindows: windows.get(camera.uuid) ?? [], uptimeSource: 'HARDWARE' as const }));
}

/**
 * `getMinimalCameraStateList`: every camera of the caller's organization, by name, and each one's online windows
 * of the last day (uuid to windows, from its connection history). A caller limited to some locations gets the
 * windows of the cameras it sees (the permission hook drops the others' states; a map it cannot read).
 */
export async function getMinimalCameraStateList(deps: Pick<Deps, 'store' | 'clock'>, ctx: CallerContext, scope: ReadonlyMap<string, unknown>) {
  const cameras = await listDevices(deps, ctx.orgUuid, ['CAMERA']);
  const shared = await liveShareStore.sharedDeviceUuids(deps.store.db, ctx.orgUuid, deps.clock.now());
  const seen = cameras.filter((c) => c.locationUuid === null || scope.has(c.locationUuid));
  return {
    cameraStates: cameras.map((c) => toMinimalCameraState(c, shared.has(c.uuid))),
    uptimeWindows: await uptimeOfLastDay(deps, ctx.orgUuid, seen),
  };
}

/** The same list with its states as JSON text, written by the database: for a caller who sees every location. */
export async function getMinimalCameraStateListJson(deps: Pick<Deps, 'store' | 'clock'>, ctx: CallerContext) {
  const list = await cameraList(deps, ctx.orgUuid);
  return { cameraStates: list.states, uptimeWindows: list.uptimeWindows };
}

async function uptimeOfLastDay(deps: Pick<Deps, 'store' | 'clock'>, orgUuid: string, cameras: readonly UptimeDevice[]) {
  const nowMs = deps.clock.now();
  return Object.fromEntries(await uptimeWindowsOfDevices(deps, orgUuid, cameras, nowMs - UPTIME_SPAN_MS, nowMs));
}

/**
 * getOrgV2's `cameraConfigOptions`: by hardware model among the organization's cameras (a camera that never said
 * its model is the default one), the video resolutions its cameras are set to (camera/updateConfig, `resolution`).
 */
export async function cameraConfigOptions(source: ReadSource, orgUuid: string): Promise<CameraConfigOptions> {
  // Each model's resolutions by their WIDTHxHEIGHT, each once.
  const byModel = new Map<string, Map<string, { width: number; height: number }>>();
  for (const camera of await listDevices(source, orgUuid, ['CAMERA'])) {
    const model = hwVariationOf(camera);
    const sides = toCameraConfig(camera).resolution;
    if (sides) byModel.set(model, (byModel.get(model) ?? new Map()).set(`${sides.width}x${sides.height}`, sides));
  }
  return Object.fromEntries(
    [...byModel].map(([model, resolutions]) => [model, [...resolutions].sort(([a], [b]) => a.localeCompare(b)).map(([, resolution]) => ({ resolution }))]),
  );
}

import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { facetId } from '../../../ids.js';
import { toCameraConfig, toCameraDetails } from './camera-details.service.js';
import { CAMERA_FACETS } from './service.js';
import { uptimeWindowsOfDevices } from '../lifecycle/device-connection.service.js';
import { facetedConfigOf } from './faceted-config.service.js';
import { findLocation, listDevices, listDevicesAt, type DeviceRecord } from '../service.js';

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
  if (!(await findLocation(deps, ctx.orgUuid, locationUuid))) throw fail('NOT_FOUND', 'Location');
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

import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as s from './camera-fleet.schemas.js';
import * as fleet from './camera-fleet.service.js';

/** Reads over every camera of the organization: occupancy and line-crossing counting, and uptime (issue 19). */
export function cameraFleetRoutes(app: ApiApp, deps: Deps): void {
  const tags = ['Camera'];
  operation(
    app,
    {
      path: '/api/camera/getOccupancyEnabledCameras',
      operationId: 'getOccupancyEnabledCameras',
      summary: 'The cameras whose settings have occupancy counting on',
      tags,
      body: s.GetOccupancyEnabledCamerasRequest,
      response: s.GetOccupancyEnabledCamerasResponse,
    },
    async (_input, ctx) => ({ cameras: await fleet.getOccupancyEnabledCameras(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/camera/getLineCrossingEnabledCamerasForLocation',
      operationId: 'getLineCrossingEnabledCamerasForLocation',
      summary: "A location's cameras that count line crossings, each with its faceted settings",
      tags,
      body: s.GetLineCrossingEnabledCamerasForLocationRequest,
      response: s.GetLineCrossingEnabledCamerasForLocationResponse,
    },
    async (input, ctx) => ({ camerasToConfigs: await fleet.getLineCrossingEnabledCameras(deps, ctx, input.locationUuid) }),
  );
  operation(
    app,
    {
      path: '/api/camera/getUptimeWindowsForOrg',
      operationId: 'getUptimeWindowsForOrg',
      summary: "Every camera's uptime windows over a range, from its connection history",
      tags,
      body: s.GetUptimeWindowsForOrgRequest,
      response: s.GetUptimeWindowsForOrgResponse,
    },
    async (input, ctx) => ({ uptimeByDevice: await fleet.getUptimeWindowsForOrg(deps, ctx, input) }),
  );
}

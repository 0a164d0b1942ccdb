import type { Deps } from '../../../deps.js';
import { JsonFields, operation, type ApiApp } from '../../../edge/operation.js';
import * as schemas from './schemas.js';
import * as cameras from './service.js';
import * as fleet from './camera-fleet.service.js';

/** Cameras and third-party camera discoveries. */
export function cameraRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/camera/getMinimalCameraStateList',
      operationId: 'getMinimalCameraStateList',
      summary: 'Get basic state information about all cameras in the organization',
      tags: ['Camera'],
      body: schemas.GetMinimalCameraStateListRequest,
      response: schemas.GetMinimalCameraStateListResponse,
    },
    // The database writes the list as JSON (10,000 cameras under 100 ms); a caller limited to some locations gets
    // records, which the permission hook filters.
    async (_input, ctx, request) =>
      request.locationScope
        ? await fleet.getMinimalCameraStateList(deps, ctx, request.locationScope)
        : new JsonFields(await fleet.getMinimalCameraStateListJson(deps, ctx)),
  );
  operation(
    app,
    {
      path: '/api/relay/deleteThirdPartyCameraDiscovery',
      operationId: 'deleteThirdPartyCameraDiscovery',
      summary: 'Delete a third-party camera discovery if it has no assignments',
      description: 'Answers {} on success; a discovery with assignments is refused with error true and the reason.',
      tags: ['Relay'],
      body: schemas.DeleteThirdPartyCameraDiscoveryRequest,
      response: schemas.DeleteThirdPartyCameraDiscoveryResponse,
      envelope: false,
    },
    async (input, ctx) => {
      await cameras.deleteThirdPartyCameraDiscovery(deps, ctx, input.thirdPartyCameraMacAddress);
      return {};
    },
  );
}

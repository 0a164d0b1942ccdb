import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as schemas from './schemas.js';
import * as walls from './service.js';

const tags = ['Camera'];

/** Video walls: grids of camera facets, owned by a user, optionally shared and editable by others. */
export function videoWallRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/camera/createVideoWall',
      operationId: 'createVideoWall',
      summary: 'Create a video wall for the caller',
      tags,
      body: schemas.CreateVideoWallRequest,
      response: schemas.CreateVideoWallResponse,
    },
    async (input, ctx) => ({ uuid: (await walls.createVideoWall(deps, ctx, input.videoWall)).uuid }),
  );
  operation(
    app,
    {
      path: '/api/camera/updateVideoWalls',
      operationId: 'updateVideoWalls',
      summary: 'Update a video wall',
      description: 'Every deviceList entry must be a facet id of a camera of the organization; only the owner may change a wall unless othersCanEdit.',
      tags,
      body: schemas.UpdateVideoWallsRequest,
      response: schemas.UpdateVideoWallsResponse,
    },
    async (input, ctx) => {
      await walls.updateVideoWall(deps, ctx, input.videoWall);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/camera/getVideoWalls',
      operationId: 'getVideoWalls',
      summary: "Get the caller's video walls and the shared ones",
      tags,
      body: schemas.GetVideoWallsRequest,
      response: schemas.GetVideoWallsResponse,
    },
    (_input, ctx) => walls.getVideoWalls(deps, ctx),
  );
  operation(
    app,
    {
      path: '/api/camera/deleteVideoWall',
      operationId: 'deleteVideoWall',
      summary: 'Delete a video wall',
      tags,
      body: schemas.DeleteVideoWallRequest,
      response: schemas.DeleteVideoWallResponse,
    },
    async (input, ctx) => {
      await walls.deleteVideoWall(deps, ctx, input.uuid);
      return {};
    },
  );
}

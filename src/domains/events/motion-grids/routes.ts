import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as s from './schemas.js';
import * as grids from './service.js';

/** A camera's motion by grid cell: the cells per second, the heat map, and the seconds with motion in given cells. */
export function motionGridRoutes(app: ApiApp, deps: Deps): void {
  const tags = ['Event'];
  operation(
    app,
    {
      path: '/api/event/getMotionGrid',
      operationId: 'getMotionGrid',
      summary: `The cells of a camera's ${s.GRID.cols}x${s.GRID.rows} grid with motion, by second, over a window`,
      tags,
      body: s.MotionGridRequest,
      response: s.GetMotionGridResponse,
    },
    async (input, ctx) => ({ motionCells: await grids.getMotionGrid(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/event/getMotionHeatMap',
      operationId: 'getMotionHeatMap',
      summary: "How many detections covered each cell of a camera's grid over a window",
      tags,
      body: s.MotionGridRequest,
      response: s.GetMotionHeatMapResponse,
    },
    async (input, ctx) => ({ countGrid: await grids.getMotionHeatMap(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/event/searchMotionGrid',
      operationId: 'searchMotionGrid',
      summary: 'The seconds of a window with motion in any of the cells searched',
      tags,
      body: s.SearchMotionGridRequest,
      response: s.SearchMotionGridResponse,
    },
    async (input, ctx) => ({ timeUtcSecsList: await grids.searchMotionGrid(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/event/searchMotionGridWithActivities',
      operationId: 'searchMotionGridWithActivities',
      summary: 'The seconds of a window with motion in any of the cells searched, with what was seen',
      tags,
      body: s.SearchMotionGridRequest,
      response: s.SearchMotionGridWithActivitiesResponse,
    },
    async (input, ctx) => ({ timeUtcSecsToActivityMap: await grids.searchMotionGridWithActivities(deps, ctx, input) }),
  );
}

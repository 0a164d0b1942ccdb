import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as schemas from './footage-boxes.schemas.js';
import * as footage from './footage-boxes.service.js';

/** Boxes around what a camera saw, written by analytics and read back over a time range. */
export function footageBoxRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/camera/createFootageBoundingBoxes',
      operationId: 'createFootageBoundingBoxes',
      summary: 'Create activity bounding boxes for a camera',
      description: 'Edges are permyriad of the image (0..10000) with l < r and t < b; all boxes are stored, or none.',
      tags: ['Camera'],
      body: schemas.CreateFootageBoundingBoxesRequest,
      response: schemas.CreateFootageBoundingBoxesResponse,
    },
    async (input, ctx) => {
      await footage.createFootageBoundingBoxes(deps, ctx, input);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/camera/getFootageBoundingBoxes',
      operationId: 'getCameraFootageBoundingBoxes',
      summary: 'Get the bounding boxes of a camera over a time range',
      description: 'Boxes with startTime <= ts < startTime + duration (seconds), oldest first.',
      tags: ['Camera'],
      body: schemas.GetFootageBoundingBoxesRequest,
      response: schemas.GetFootageBoundingBoxesResponse,
    },
    (input, ctx) => footage.getFootageBoundingBoxes(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/camera/getFootageBoundingBoxesForMultiple',
      operationId: 'getFootageBoundingBoxesForMultiple',
      summary: 'Get the bounding boxes of several cameras over a time range',
      description: "Boxes with startTimeSec <= ts < startTimeSec + durationSec, by instant and camera; every camera must be the organization's.",
      tags: ['Camera'],
      body: schemas.GetFootageBoundingBoxesForMultipleRequest,
      response: schemas.GetFootageBoundingBoxesForMultipleResponse,
    },
    (input, ctx) => footage.getFootageBoundingBoxesForMultiple(deps, ctx, input),
  );
}

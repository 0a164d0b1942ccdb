import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { EnvelopeResponse } from '../../../schemas/common.js';
import * as s from './schemas.js';
import * as shares from './service.js';

const LINK =
  'The links are paths on the media host that answer without an API key (a protected one asks for its password in the x-share-password header) until they expire (then 410); once deleted, 404. The page lists the cameras and their live HLS playlists.';
const UNSUPPORTED = 'scheduleUuid and ssoProtected are refused (not supported); includeAudio, audioGatewayUuid and vodEnabled are kept.';

/** Shared live video streams of cameras and doorbell cameras (issue 19). */
export function sharedLiveStreamRoutes(app: ApiApp, deps: Deps): void {
  for (const [path, operationId, summary, protection] of [
    ['/api/camera/createSharedLiveVideoStream', 'createCameraSharedLiveVideoStream', "Share a camera's live video through a link", 'none'],
    [
      '/api/camera/createProtectedSharedLiveVideoStream',
      'createProtectedSharedLiveVideoStream',
      "Share a camera's live video through a link with a password",
      'required',
    ],
  ] as const) {
    operation(
      app,
      {
        path,
        operationId,
        summary,
        description: `${LINK} ${UNSUPPORTED}`,
        tags: ['Camera'],
        body: s.CreateSharedLiveVideoStreamRequest,
        response: s.CreateSharedLiveVideoStreamResponse,
      },
      async ({ cameraUuid, ...input }, ctx) => shares.createStreamShare(deps, ctx, 'CAMERA', { ...input, deviceRef: cameraUuid }, protection),
    );
  }
  operation(
    app,
    {
      path: '/api/doorbellcamera/createSharedLiveVideoStream',
      operationId: 'createDoorbellCameraSharedLiveVideoStream',
      summary: "Share a doorbell camera's live video through a link (with a password when one is given)",
      description: `${LINK} ${UNSUPPORTED}`,
      tags: ['Doorbell Camera'],
      body: s.CreateDoorbellSharedLiveVideoStreamRequest,
      response: s.CreateSharedLiveVideoStreamResponse,
    },
    async ({ doorbellCameraUuid, ...input }, ctx) =>
      shares.createStreamShare(deps, ctx, 'DOORBELL_CAMERA', { ...input, deviceRef: doorbellCameraUuid }, 'optional'),
  );
  operation(
    app,
    {
      path: '/api/camera/findSharedLiveVideoStreams',
      operationId: 'findCameraSharedLiveVideoStreams',
      summary: "A camera's shared live video streams",
      tags: ['Camera'],
      body: s.FindSharedLiveVideoStreamsRequest,
      response: s.FindSharedLiveVideoStreamsResponse,
    },
    async (input, ctx) => ({ sharedLiveVideoStreams: await shares.findStreamShares(deps, ctx, 'CAMERA', input.cameraUuid) }),
  );
  operation(
    app,
    {
      path: '/api/doorbellcamera/findSharedLiveVideoStreams',
      operationId: 'findDoorbellCameraSharedLiveVideoStreams',
      summary: "A doorbell camera's shared live video streams",
      tags: ['Doorbell Camera'],
      body: s.FindDoorbellSharedLiveVideoStreamsRequest,
      response: s.FindSharedLiveVideoStreamsResponse,
    },
    async (input, ctx) => ({ sharedLiveVideoStreams: await shares.findStreamShares(deps, ctx, 'DOORBELL_CAMERA', input.doorbellCameraUuid) }),
  );
  operation(
    app,
    {
      path: '/api/camera/findAllSharedLiveVideoStreams',
      operationId: 'findAllSharedLiveVideoStreams',
      summary: "Every shared live video stream of the organization's cameras and doorbell cameras",
      tags: ['Camera'],
      body: s.FindAllSharedLiveVideoStreamsRequest,
      response: s.FindSharedLiveVideoStreamsResponse,
    },
    async (_input, ctx) => ({ sharedLiveVideoStreams: await shares.findAllStreamShares(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/camera/deleteSharedLiveVideoStream',
      operationId: 'deleteSharedLiveVideoStream',
      summary: 'Delete a shared live video stream: its link answers 404',
      tags: ['Camera'],
      body: s.DeleteSharedLiveVideoStreamRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => {
      await shares.deleteStreamShare(deps, ctx, { uuid: input.uuid, deviceRef: input.cameraUuid });
      return {};
    },
  );
  sharedVideoWallRoutes(app, deps);
}

/** Shared video walls: links to the live video of a wall's cameras. */
function sharedVideoWallRoutes(app: ApiApp, deps: Deps): void {
  for (const [path, operationId, summary, protection] of [
    ['/api/camera/createSharedVideoWall', 'createSharedVideoWall', "Share a video wall's live video through a link", 'none'],
    [
      '/api/camera/createProtectedSharedVideoWall',
      'createProtectedSharedVideoWall',
      "Share a video wall's live video through a link with a password",
      'required',
    ],
  ] as const) {
    operation(
      app,
      {
        path,
        operationId,
        summary,
        description: `${LINK} The page lists the wall's cameras as the wall holds them when it is opened. Only a wall the caller may change is shared. scheduleUuid is refused (not supported).`,
        tags: ['Camera'],
        body: s.CreateSharedVideoWallRequest,
        response: s.CreateSharedVideoWallResponse,
      },
      async (input, ctx) => shares.createWallShare(deps, ctx, input, protection),
    );
  }
  operation(
    app,
    {
      path: '/api/camera/findSharedVideoWalls',
      operationId: 'findSharedVideoWalls',
      summary: "A video wall's share links",
      tags: ['Camera'],
      body: s.FindSharedVideoWallsRequest,
      response: s.FindSharedVideoWallsResponse,
    },
    async (input, ctx) => ({ sharedVideoWalls: await shares.findWallShares(deps, ctx, input.videoWallUuid) }),
  );
  operation(
    app,
    {
      path: '/api/camera/deleteSharedVideoWall',
      operationId: 'deleteSharedVideoWall',
      summary: 'Delete a shared video wall: its link answers 404',
      tags: ['Camera'],
      body: s.DeleteSharedVideoWallRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => {
      await shares.deleteWallShare(deps, ctx, input);
      return {};
    },
  );
}

import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as s from './schemas.js';
import * as media from './service.js';
import * as mediaDevices from './media-devices.service.js';
import * as audioSchemas from './audio-gateway-media.schemas.js';
import * as audio from './audio-gateway-media.service.js';

/** Camera and audio gateway media URIs, exact frames and federated session tokens (issue 19). */
export function cameraMediaRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/camera/getMediaUris',
      operationId: 'getCameraMediaUris',
      summary: "Where a camera's video is on the media host",
      tags: ['Camera'],
      body: s.GetCameraMediaUrisRequest,
      response: s.GetCameraMediaUrisResponse,
      // The platform's MCP calls the operation by its operationId as the path.
      aliases: ['/api/camera/getCameraMediaUris'],
      platformSource: { '/api/camera/getCameraMediaUris': 'newer' },
    },
    async (input, ctx) => media.getCameraMediaUris(deps, ctx, input.cameraUuid),
  );
  operation(
    app,
    {
      path: '/api/doorbellcamera/getMediaUris',
      operationId: 'getDoorbellCameraMediaUris',
      summary: "Where a doorbell camera's video and live audio are on the media host",
      tags: ['Doorbell Camera'],
      body: s.GetDoorbellCameraMediaUrisRequest,
      response: s.GetDoorbellCameraMediaUrisResponse,
      platformSource: 'newer',
    },
    async (input, ctx) => media.getDoorbellCameraMediaUris(deps, ctx, input.deviceUuid),
  );
  operation(
    app,
    {
      path: '/api/audiogateway/getMediaUris',
      operationId: 'getAudioGatewayMediaUris',
      summary: "Where an audio gateway's live audio is on the media host",
      tags: ['Audio Gateway'],
      body: audioSchemas.GetAudioGatewayMediaUrisRequest,
      response: audioSchemas.GetAudioGatewayMediaUrisResponse,
    },
    async (input, ctx) => audio.getAudioGatewayMediaUris(deps, ctx, input.gatewayUuid),
  );
  operation(
    app,
    {
      path: '/api/video/getExactFrameUri',
      operationId: 'getExactFrameUri',
      summary: "The media host's URI of a camera's JPEG frame at an instant",
      tags: ['Video'],
      body: s.GetExactFrameUriRequest,
      response: s.GetExactFrameUriResponse,
    },
    async (input, ctx) => ({
      frameUri: await media.getExactFrameUri(deps, ctx, input),
      responseMessage: null,
    }),
  );
  operation(
    app,
    {
      path: '/api/video/getExactFrameData',
      operationId: 'getExactFrameData',
      summary: "A camera's JPEG frame at an instant, or a part of it, in the answer (base64)",
      tags: ['Video'],
      body: s.GetExactFrameDataRequest,
      response: s.GetExactFrameDataResponse,
      platformSource: 'newer',
    },
    async (input, ctx) => ({ frameData: (await media.exactFrameData(deps, ctx, input)).toString('base64'), responseMessage: null }),
  );
  operation(
    app,
    {
      path: '/api/org/generateFederatedSessionToken',
      operationId: 'generateFederatedSessionToken',
      summary: 'A short-lived token the media host accepts as the x-auth-ft header or cookie',
      tags: ['Org'],
      body: s.GenerateFederatedSessionTokenRequest,
      response: s.GenerateFederatedSessionTokenResponse,
    },
    async (input, ctx) => ({ federatedSessionToken: media.generateFederatedSessionToken(deps, ctx, input.durationSec) }),
  );
  operation(
    app,
    {
      path: '/api/mediadevice/getBulkMediaDeviceDetails',
      operationId: 'getBulkMediaDeviceDetails',
      summary: 'Names, time zones and media URIs of several cameras',
      tags: ['Camera'],
      body: s.GetBulkMediaDeviceDetailsRequest,
      response: s.GetBulkMediaDeviceDetailsResponse,
    },
    async (input, ctx) => ({ mediaDeviceDetails: await mediaDevices.getBulkMediaDeviceDetails(deps, ctx, input.devices) }),
  );
  operation(
    app,
    {
      path: '/api/rapidsos/getNearbyFeeds',
      operationId: 'getNearbyFeeds',
      summary: 'Live video of the cameras near an emergency',
      description: 'HLS playlists of the cameras within width metres of the point, nearest first, each openable without a key for an hour.',
      tags: ['RapidSOS'],
      body: s.GetNearbyFeedsRequest,
      response: s.GetNearbyFeedsResponse,
    },
    async (input, ctx) => ({ streamUrls: await mediaDevices.nearbyFeeds(deps, ctx, input) }),
  );
}

import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { findClipMedia, uploadClipMedia } from '../domains/events/clips/service.js';
import { isGatehouseError } from '../errors.js';
import { errorBody, handleError } from '../edge/errors.js';
import { RUUID_PATTERN } from '../ids.js';
import { baseFastifyOptions } from '../edge/fastify-options.js';
import { audioGatewayLiveAudio } from '../domains/devices/media-uris/audio-gateway-media.service.js';
import { audioClipBytes } from '../domains/devices/audio-playback/service.js';
import { uploadedImage } from '../domains/orgs/uploads/service.js';
import { cameraClip, cameraFrame } from '../domains/devices/media-uris/service.js';
import { mediaCaller, mediaStatus } from './caller.js';
import { createLiveSegments } from '../footage/live.js';
import { AUDIO_LIMITS } from '../footage/render-audio.js';
import { header, sendBuffer, sendStoredFile } from './send.js';
import { shareRoutes } from './share-routes.js';
import { footageRoutes } from './footage-routes.js';
import { metadataRoutes } from './metadata-routes.js';
import { faceRoutes } from './face-routes.js';
import { audioRoutes } from './audio-routes.js';
import { realtimeSockets } from './realtime-sockets.js';
import { allowBrowsers } from './cors.js';
import { absoluteMediaUri } from '../edge/media-uris.js';
import { MEDIA_PARTS, type MediaPart } from '../footage/storage.js';

function handleMediaError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (isGatehouseError(error) && mediaStatus(error) !== error.status) return reply.status(mediaStatus(error)).send(errorBody(error.message));
  return handleError(error, request, reply);
}

interface MediaParams {
  clip: string;
  part: MediaPart;
}
/** A path parameter holding a RUUID. */
const ruuidParam = { type: 'string', pattern: RUUID_PATTERN };
const paramsSchema = {
  type: 'object',
  properties: { clip: ruuidParam, part: { type: 'string', enum: [...MEDIA_PARTS] } },
  required: ['clip', 'part'],
};

/**
 * The media host: clip videos and thumbnails, for callers with the same API-key headers as the REST API.
 * `PUT /media/clips/{clip}/{video|thumbnail}` streams the body into the clip's file (the camera's upload);
 * `GET` serves it, honouring a single-range `Range` header (206, or 416 past the end). Share links and raw
 * streams answer without a key (src/media/share-routes.ts).
 */
export async function buildMediaApp(deps: Deps) {
  const app = Fastify(baseFastifyOptions(deps.log, 'media'));
  app.setErrorHandler(handleMediaError);
  app.setNotFoundHandler(async (request, reply) => reply.status(404).send(errorBody(`Unknown media path ${request.url.split('?')[0]}`)));
  app.get('/healthz', async () => ({ status: 'ok' }));
  allowBrowsers(app);
  await app.register(shareRoutes(deps, createLiveSegments()));
  // The realtime video sockets (client-calls.md M16), on the same listener.
  app.addHook('preClose', realtimeSockets(app.server, deps));

  // Upload bodies are streamed to disk by the handler, never buffered: no parser reads them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  await app.register(async (media) => {
    media.decorateRequest('caller', null as never);
    media.addHook('onRequest', async (request) => {
      const query = request.query as Record<string, unknown>;
      request.caller = await mediaCaller(
        deps,
        { header: (name) => header(request, name), query: (name) => (typeof query[name] === 'string' ? query[name] : undefined) },
        { requestId: String(request.id), operation: `media.${request.method.toLowerCase()}` },
      );
    });

    media.put<{ Params: MediaParams }>('/media/clips/:clip/:part', { schema: { params: paramsSchema } }, async (request) => {
      const savedClip = await uploadClipMedia(deps, request.caller, {
        clipUuid: request.params.clip,
        part: request.params.part,
        contentType: header(request, 'content-type') ?? 'application/octet-stream',
        body: request.raw,
      });
      // Its links absolute, as the REST answers have them (src/edge/media-uris.ts).
      const absolute = <T>(path: T) => absoluteMediaUri(deps.mediaHost.base, path);
      return {
        error: false,
        savedClip: { ...savedClip, clipLocationV2: absolute(savedClip.clipLocationV2), thumbnailLocationV2: absolute(savedClip.thumbnailLocationV2) },
      };
    });

    media.get<{ Params: MediaParams }>('/media/clips/:clip/:part', { schema: { params: paramsSchema } }, async (request, reply) => {
      const media = await findClipMedia(deps, request.caller.orgUuid, request.params.clip, request.params.part);
      if (!media) return reply.status(404).send(errorBody(`No ${request.params.part} for clip ${request.params.clip}`));
      return sendStoredFile(request, reply, media, request.params.part);
    });

    // DASH and HLS footage, live and VOD (src/media/footage-routes.ts).
    const serveWindow = footageRoutes(media, deps);
    // The paths the clients build: alert thumbnails and clips, saved clips, timelapses, frame thumbnails.
    metadataRoutes(media, deps, serveWindow);
    // Audio gateways' recorded audio as DASH (src/media/audio-routes.ts).
    audioRoutes(media, deps);
    // Face and plate images by the keys the REST API answers (src/media/face-routes.ts).
    faceRoutes(media, deps);

    // The simulated cameras' pictures, rendered on demand (src/footage/render.ts).
    media.get<{ Params: { camera: string }; Querystring: { timestampMs: number; downscaleFactor?: number; jpgQuality?: number } }>(
      '/media/cameras/:camera/frame.jpg',
      { schema: { params: cameraParams, querystring: frameQuery } },
      async (request, reply) => {
        const jpeg = await cameraFrame(deps, request.caller.orgUuid, { cameraUuid: request.params.camera, ...request.query });
        return reply.header('content-type', 'image/jpeg').header('cache-control', 'private, max-age=3600').header('content-length', jpeg.length).send(jpeg);
      },
    );
    media.get<{ Params: { camera: string }; Querystring: { startTimeMs?: number; durationSec?: number; downscaleFactor?: number } }>(
      '/media/cameras/:camera/clip.mp4',
      { schema: { params: cameraParams, querystring: clipQuery } },
      async (request, reply) =>
        sendBuffer(request, reply, await cameraClip(deps, request.caller.orgUuid, { cameraUuid: request.params.camera, ...request.query }), 'video/mp4'),
    );
    // Audio clips made for the audio gateways (audioplayback/uploadAudioText).
    media.get<{ Params: { clip: string } }>('/media/audioclips/:clip', { schema: { params: clipParams } }, async (request, reply) => {
      const bytes = await audioClipBytes(deps, request.caller.orgUuid, request.params.clip);
      if (!bytes) return reply.status(404).send(errorBody(`No audio clip ${request.params.clip}`));
      return sendBuffer(request, reply, bytes, 'audio/ogg');
    });
    // Images the organization uploaded (logos, floor plans, badge template images, profile photos).
    media.get<{ Params: { image: string } }>('/media/uploads/:image', { schema: { params: imageParams } }, async (request, reply) => {
      const image = await uploadedImage(deps, request.caller.orgUuid, request.params.image);
      if (!image) return reply.status(404).send(errorBody(`No uploaded image ${request.params.image}`));
      return sendBuffer(request, reply, image.bytes, image.contentType);
    });
    // The simulated audio gateways' live audio, rendered on demand (src/footage/render-audio.ts).
    media.get<{ Params: { gateway: string }; Querystring: { durationSec?: number } }>(
      '/media/audiogateways/:gateway/live.opus',
      { schema: { params: gatewayParams, querystring: audioQuery } },
      async (request, reply) =>
        sendBuffer(
          request,
          reply,
          await audioGatewayLiveAudio(deps, request.caller.orgUuid, { gatewayUuid: request.params.gateway, ...request.query }),
          'audio/ogg',
          'no-store',
        ),
    );
  });
  return app;
}

const clipParams = { type: 'object', properties: { clip: ruuidParam }, required: ['clip'] };
const imageParams = { type: 'object', properties: { image: ruuidParam }, required: ['image'] };
const gatewayParams = { type: 'object', properties: { gateway: ruuidParam }, required: ['gateway'] };
const audioQuery = { type: 'object', properties: { durationSec: { type: 'integer', minimum: 1, maximum: AUDIO_LIMITS.maxDurationSec } } };
const cameraParams = { type: 'object', properties: { camera: ruuidParam }, required: ['camera'] };
const frameQuery = {
  type: 'object',
  properties: {
    timestampMs: { type: 'integer', minimum: 0 },
    downscaleFactor: { type: 'integer', minimum: 1, maximum: 16 },
    jpgQuality: { type: 'integer', minimum: 1, maximum: 100 },
  },
  required: ['timestampMs'],
};
const clipQuery = {
  type: 'object',
  properties: {
    startTimeMs: { type: 'integer', minimum: 0 },
    durationSec: { type: 'integer', minimum: 1, maximum: 120 },
    downscaleFactor: { type: 'integer', minimum: 1, maximum: 16 },
  },
};

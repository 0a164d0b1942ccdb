import { createReadStream } from 'node:fs';
import Fastify, { type FastifyError, type FastifyPluginAsync, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { authenticate } from '../domains/orgs/authenticate.js';
import { findClipMedia, uploadClipMedia, type ClipMedia } from '../domains/events/clips.service.js';
import { openSharedGroup, sharedClipMedia, sharedGroupPage } from '../domains/events/shared-clip-groups.service.js';
import { isGatehouseError, type ErrorCode } from '../errors.js';
import { errorBody, handleError } from '../http/errors.js';
import { baseFastifyOptions } from '../http/fastify-options.js';
import { cameraClip, cameraFrame } from '../domains/devices/camera-media.service.js';
import { federatedTokenCookie, verifyFederatedToken } from './federated-token.js';
import { parseRange } from './range.js';
import { MEDIA_PARTS, type MediaPart } from './storage.js';

/**
 * On the media host a missing record is a 404 (another organization's media included, answered the same),
 * not the REST API's HTTP 200 with `error: true`.
 */
const MEDIA_STATUS: Partial<Record<ErrorCode, number>> = { NOT_FOUND: 404, CONFLICT: 409, INVALID_VALUE: 400, NOT_ALLOWED: 403 };

function handleMediaError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  const status = isGatehouseError(error) ? MEDIA_STATUS[error.code] : undefined;
  if (status) return reply.status(status).send(errorBody(error.message));
  return handleError(error, request, reply);
}

const header = (request: FastifyRequest, name: string) => {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

interface MediaParams {
  clip: string;
  part: MediaPart;
}
const paramsSchema = {
  type: 'object',
  properties: { clip: { type: 'string', pattern: '^[A-Za-z0-9_-]{22}$' }, part: { type: 'string', enum: [...MEDIA_PARTS] } },
  required: ['clip', 'part'],
};

/**
 * The media host: clip videos and thumbnails, for callers with the same API-key headers as the REST API.
 * `PUT /media/clips/{clip}/{video|thumbnail}` streams the body into the clip's file (the camera's upload);
 * `GET` serves it, honouring a single-range `Range` header (206, or 416 past the end).
 */
export async function buildMediaApp(deps: Deps) {
  const app = Fastify(baseFastifyOptions(deps.log, 'media'));
  app.setErrorHandler(handleMediaError);
  app.setNotFoundHandler(async (request, reply) => reply.status(404).send(errorBody(`Unknown media path ${request.url.split('?')[0]}`)));
  app.get('/healthz', async () => ({ status: 'ok' }));
  await app.register(sharedLinkRoutes(deps));

  // Upload bodies are streamed to disk by the handler, never buffered: no parser reads them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  await app.register(async (media) => {
    media.decorateRequest('caller', null as never);
    media.addHook('onRequest', async (request) => {
      // A browser presents a federated session token (org/generateFederatedSessionToken) instead of a key.
      const federated = header(request, 'x-auth-ft') ?? federatedTokenCookie(header(request, 'cookie'));
      if (federated !== undefined) {
        const orgUuid = verifyFederatedToken(deps, federated);
        request.caller = {
          orgUuid,
          userUuid: null,
          apiKeyId: null,
          partnerOrgUuid: null,
          keyKind: 'standard',
          requestId: String(request.id),
          operation: `media.${request.method.toLowerCase()}`,
        };
        return;
      }
      request.caller = await authenticate(
        deps,
        {
          scheme: header(request, 'x-auth-scheme'),
          apiKey: header(request, 'x-auth-apikey'),
          orgHeader: header(request, 'x-auth-org'),
          clientCertFingerprint: null,
        },
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
      return { error: false, savedClip };
    });

    media.get<{ Params: MediaParams }>('/media/clips/:clip/:part', { schema: { params: paramsSchema } }, async (request, reply) => {
      const media = await findClipMedia(deps, request.caller.orgUuid, request.params.clip, request.params.part);
      if (!media) return reply.status(404).send(errorBody(`No ${request.params.part} for clip ${request.params.clip}`));
      return sendStoredMedia(request, reply, media, request.params.part);
    });

    // The simulated cameras' pictures, rendered on demand (src/media/render.ts).
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
  });
  return app;
}

const cameraParams = { type: 'object', properties: { camera: { type: 'string', pattern: '^[A-Za-z0-9_-]{22}$' } }, required: ['camera'] };
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

/** Sends a rendered file, honouring a single-range `Range` header as the stored clips do. */
function sendBuffer(request: FastifyRequest, reply: FastifyReply, body: Buffer, contentType: string) {
  reply.header('accept-ranges', 'bytes').header('content-type', contentType).header('cache-control', 'private, max-age=3600');
  const range = parseRange(header(request, 'range'), body.length);
  if (range.kind === 'unsatisfiable') {
    return reply
      .status(416)
      .header('content-range', `bytes */${body.length}`)
      .header('content-type', 'application/json')
      .send(errorBody(`Range not satisfiable: the video has ${body.length} bytes`));
  }
  if (range.kind === 'whole') return reply.header('content-length', body.length).send(body);
  return reply
    .status(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${body.length}`)
    .header('content-length', range.end - range.start + 1)
    .send(body.subarray(range.start, range.end + 1));
}

/** Sends a stored clip file, honouring a single-range `Range` header (206, or 416 past the end). */
function sendStoredMedia(request: FastifyRequest, reply: FastifyReply, media: ClipMedia, part: MediaPart, cacheControl = 'private, max-age=3600') {
  reply.header('accept-ranges', 'bytes').header('content-type', media.contentType).header('cache-control', cacheControl);
  if (media.etag) reply.header('etag', media.etag);
  const range = parseRange(header(request, 'range'), media.size);
  if (range.kind === 'unsatisfiable') {
    return reply
      .status(416)
      .header('content-range', `bytes */${media.size}`)
      .header('content-type', 'application/json')
      .send(errorBody(`Range not satisfiable: the ${part} has ${media.size} bytes`));
  }
  if (range.kind === 'whole') return reply.header('content-length', media.size).send(createReadStream(media.file));
  return reply
    .status(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${media.size}`)
    .header('content-length', range.end - range.start + 1)
    .send(createReadStream(media.file, { start: range.start, end: range.end }));
}

const SHARE_REFUSALS = {
  missing: [404, 'No such shared link (or it was deleted)'],
  expired: [410, 'This shared link has expired'],
  password: [401, 'This shared link needs its password (x-share-password header)'],
} as const;
const shareParams = {
  type: 'object',
  properties: { token: { type: 'string', pattern: '^[A-Za-z0-9_-]{16,64}$' }, clip: paramsSchema.properties.clip, part: paramsSchema.properties.part },
  required: ['token'],
};

/**
 * Share links (createSharedClipGroupV3): no API key, only the link's secret token (and its password, when set),
 * until the group expires (410) or is deleted (404).
 */
function sharedLinkRoutes(deps: Deps): FastifyPluginAsync {
  return async (app) => {
    const open = async (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
      const access = await openSharedGroup(deps, request.params.token, header(request, 'x-share-password'));
      if (access.kind !== 'open') {
        const [status, message] = SHARE_REFUSALS[access.kind];
        void reply.status(status).header('cache-control', 'no-store').send(errorBody(message));
        return null;
      }
      return access;
    };
    app.get<{ Params: { token: string } }>('/media/shared/:token', { schema: { params: shareParams } }, async (request, reply) => {
      const access = await open(request, reply);
      if (!access) return reply;
      return reply.header('cache-control', 'no-store').send({ error: false, ...sharedGroupPage(request.params.token, access.group, access.clips) });
    });
    app.get<{ Params: { token: string; clip: string; part: MediaPart } }>(
      '/media/shared/:token/clips/:clip/:part',
      { schema: { params: { ...shareParams, required: ['token', 'clip', 'part'] } } },
      async (request, reply) => {
        const access = await open(request, reply);
        if (!access) return reply;
        const media = await sharedClipMedia(deps, access, request.params.clip, request.params.part);
        if (!media) return reply.status(404).send(errorBody(`No ${request.params.part} for clip ${request.params.clip} under this link`));
        return sendStoredMedia(request, reply, media, request.params.part, 'no-store');
      },
    );
  };
}

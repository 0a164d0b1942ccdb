import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { absoluteMediaUri } from '../edge/media-uris.js';
import { openLiveShare, liveSharePage, type LiveShareAccess } from '../domains/devices/live-shares/service.js';
import { openSharedGroup, openSharedGroupById, sharedClipMedia, sharedGroupPage } from '../domains/events/shared-groups.js';
import { errorBody } from '../edge/errors.js';
import { RUUID_PATTERN } from '../ids.js';
import { LIVE, LIVE_SIZES, LiveBusyError, livePlaylist, segmentServable, type LiveSegments } from '../footage/live.js';
import { rawStreamRoutes } from './raw-stream-routes.js';
import { header, sendBuffer, sendStoredFile } from './send.js';
import type { ShareRefusal } from '../footage/share-links.js';
import { MEDIA_PARTS, type MediaPart } from '../footage/storage.js';

/**
 * The media host's key-less routes: share links (shared clip and timelapse groups, shared live video streams and
 * video walls) and raw HTTP streams. A link answers by its secret token alone (and its password, when set, in
 * the x-share-password header) until it expires (410) or is deleted (404); what it serves is only what it shares.
 */
const REFUSALS: Record<ShareRefusal, readonly [number, string]> = {
  missing: [404, 'No such shared link (or it was deleted)'],
  expired: [410, 'This shared link has expired'],
  password: [401, 'This shared link needs its password (x-share-password header)'],
};

/** Answers a link that does not open, with the status of why. */
function refuse(reply: FastifyReply, why: ShareRefusal): FastifyReply {
  const [status, message] = REFUSALS[why];
  return reply.status(status).header('cache-control', 'no-store').send(errorBody(message));
}

const TOKEN = { type: 'string', pattern: '^[A-Za-z0-9_-]{16,64}$' };
const UUID = { type: 'string', pattern: RUUID_PATTERN };
const params = (properties: Record<string, object>) => ({ type: 'object', properties, required: Object.keys(properties) });
const password = (request: FastifyRequest) => header(request, 'x-share-password');

/** The links of a share page, absolute under the public media base as every URI handed out is. */
const absoluteIn = (deps: Deps) => (path: string | null) => absoluteMediaUri(deps.mediaHost.base, path);

export function shareRoutes(deps: Deps, live: LiveSegments): FastifyPluginAsync {
  return async (app) => {
    clipGroupLinks(app, deps);
    liveLinks(app, deps, live);
    await app.register(rawStreamRoutes(deps, live));
  };
}

/** Shared clip and timelapse groups (createSharedClipGroupV3, createSharedTimelapseGroup). */
function clipGroupLinks(app: FastifyInstance, deps: Deps) {
  const absolute = absoluteIn(deps);
  // The raw download of a shared group's (first) clip, named by the group's uuid (client-calls.md M12).
  app.get<{ Params: { file: string }; Querystring: Record<string, string | undefined> }>('/media/clips/share/:file', async (request, reply) => {
    const uuid = request.params.file.replace(/\.mp4$/, '');
    const shareId = request.query['x-share-id'];
    if (!new RegExp(RUUID_PATTERN).test(uuid) || (shareId !== undefined && shareId !== uuid)) return refuse(reply, 'missing');
    const access = await openSharedGroupById(deps, uuid, password(request));
    if (access.kind !== 'open') return refuse(reply, access.kind);
    const clip = access.clips[0];
    const media = clip && (await sharedClipMedia(deps, access, clip.uuid, 'video'));
    if (!media) return reply.status(404).header('cache-control', 'no-store').send(errorBody('This shared clip has no video yet'));
    return sendStoredFile(request, reply, media, 'video', 'no-store');
  });
  app.get<{ Params: { token: string } }>('/media/shared/:token', { schema: { params: params({ token: TOKEN }) } }, async (request, reply) => {
    const access = await openSharedGroup(deps, request.params.token, password(request));
    if (access.kind !== 'open') return refuse(reply, access.kind);
    const page = sharedGroupPage(request.params.token, access.group, access.clips);
    const clips = page.clips.map((c) => ({ ...c, videoUrl: absolute(c.videoUrl), thumbnailUrl: absolute(c.thumbnailUrl) }));
    return reply.header('cache-control', 'no-store').send({ error: false, ...page, clips });
  });
  app.get<{ Params: { token: string; clip: string; part: MediaPart } }>(
    '/media/shared/:token/clips/:clip/:part',
    { schema: { params: params({ token: TOKEN, clip: UUID, part: { type: 'string', enum: [...MEDIA_PARTS] } }) } },
    async (request, reply) => {
      const access = await openSharedGroup(deps, request.params.token, password(request));
      if (access.kind !== 'open') return refuse(reply, access.kind);
      const media = await sharedClipMedia(deps, access, request.params.clip, request.params.part);
      if (!media) return reply.status(404).send(errorBody(`No ${request.params.part} for clip ${request.params.clip} under this link`));
      return sendStoredFile(request, reply, media, request.params.part, 'no-store');
    },
  );
}

/**
 * Shared live video streams and video walls: the page (what the link shows), each camera's live HLS playlist,
 * and its segments, rendered on demand (src/footage/live.ts). Only a camera the link shows is served.
 */
function liveLinks(app: FastifyInstance, deps: Deps, live: LiveSegments) {
  const absolute = absoluteIn(deps);
  const open = async (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
    const access = await openLiveShare(deps, request.params.token, password(request));
    if (access.kind === 'open') return access;
    refuse(reply, access.kind);
    return null;
  };
  const cameraOf = (access: Extract<LiveShareAccess, { kind: 'open' }>, camera: string, reply: FastifyReply) => {
    const found = access.cameras.find((c) => c.uuid === camera);
    if (!found)
      void reply
        .status(404)
        .header('cache-control', 'no-store')
        .send(errorBody(`Camera ${camera} is not shown by this link`));
    return found;
  };
  app.get<{ Params: { token: string } }>('/media/live/:token', { schema: { params: params({ token: TOKEN }) } }, async (request, reply) => {
    const access = await open(request, reply);
    if (!access) return reply;
    const page = liveSharePage(access);
    const cameras = page.cameras.map((c) => ({ ...c, playlistUrl: absolute(c.playlistUrl) }));
    return reply.header('cache-control', 'no-store').send({ error: false, ...page, cameras });
  });
  app.get<{ Params: { token: string; camera: string } }>(
    '/media/live/:token/:camera/live.m3u8',
    { schema: { params: params({ token: TOKEN, camera: UUID }) } },
    async (request, reply) => {
      const access = await open(request, reply);
      if (!access || !cameraOf(access, request.params.camera, reply)) return reply;
      return reply.header('content-type', 'application/vnd.apple.mpegurl').header('cache-control', 'no-store').send(livePlaylist(deps.clock.now()));
    },
  );
  app.get<{ Params: { token: string; camera: string; segment: string } }>(
    '/media/live/:token/:camera/:segment',
    { schema: { params: params({ token: TOKEN, camera: UUID, segment: { type: 'string', pattern: '^[0-9]{1,15}\\.ts$' } }) } },
    async (request, reply) => {
      const access = await open(request, reply);
      const camera = access && cameraOf(access, request.params.camera, reply);
      if (!camera) return reply;
      const seq = Number(request.params.segment.slice(0, -3));
      if (!segmentServable(seq, deps.clock.now())) {
        return reply
          .status(404)
          .header('cache-control', 'no-store')
          .send(errorBody(`Segment ${seq} is not live (yet, or any more)`));
      }
      const segment = await live.segment(camera, seq, LIVE_SIZES.sd).catch((e: unknown) => {
        if (e instanceof LiveBusyError) return null;
        throw e;
      });
      if (!segment) return reply.status(503).header('retry-after', String(LIVE.segmentSec)).send(errorBody(new LiveBusyError().message));
      // Not kept by the player's cache either: a link deleted or expired serves nothing more.
      return sendBuffer(request, reply, segment, 'video/mp2t', 'no-store');
    },
  );
}

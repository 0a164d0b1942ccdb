import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { footageDevice } from '../domains/devices/media-uris/service.js';
import { errorBody } from '../edge/errors.js';
import { isGatehouseError } from '../errors.js';
import { RUUID_PATTERN } from '../ids.js';
import { FOOTAGE_ROOT } from '../footage/footage-paths.js';
import { codecsOf, liveMpd, livePlaylist, liveServable, MANIFEST, segmentCount, vodMpd, vodPlaylist } from '../footage/manifests.js';
import { SegmentBusyError } from '../footage/segment-cache.js';
import { footageInit, placeSegment, SEGMENT, SEGMENT_MS } from '../footage/segments.js';
import { footageSegment } from './footage-segments.js';
import { sendBuffer } from './send.js';

/**
 * A camera's footage as DASH and HLS (client-calls.md M2 to M7, M17): the manifests of src/footage/manifests.ts
 * and their fMP4 segments, encoded on demand (src/footage/segments.ts) and kept in the process's segment cache.
 * Paths in src/footage/footage-paths.ts. Bad windows, durations and segment numbers are 400 or 404 in the media
 * host's error shape; an encoder that fails or is overrun is 503 with Retry-After.
 */
const CAMERA = new RegExp(`^${RUUID_PATTERN.replace(/^\^|\$$/g, '')}$`);
const SEGMENT_FILE = /^seg_(\d{1,12})\.m4v$/;
const VOD_CACHE = 'private, max-age=86400';
const LIVE_MANIFEST_CACHE = 'no-cache';
const LIVE_SEGMENT_CACHE = 'private, max-age=60';

/** A request the media host answers with `status` and the message (a bad window, an unknown file). */
export class MediaRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface Window {
  startSec: number;
  durationSec: number;
}

/** A VOD window from its two path values: whole seconds, not in the future, not older than retention. */
export function parseWindow(start: string, duration: string, nowMs: number): Window {
  if (!/^\d{1,12}$/.test(start)) throw new MediaRequestError(400, `START_TIME must be epoch seconds, got "${start.slice(0, 40)}"`);
  if (!/^\d{1,7}$/.test(duration)) throw new MediaRequestError(400, `DURATION must be whole seconds, got "${duration.slice(0, 40)}"`);
  const startSec = Number(start);
  const durationSec = Number(duration);
  if (durationSec < 1 || durationSec > MANIFEST.maxWindowSec) {
    throw new MediaRequestError(400, `DURATION must be 1 to ${MANIFEST.maxWindowSec} seconds, got ${durationSec}`);
  }
  if ((startSec + durationSec) * 1000 > nowMs) throw new MediaRequestError(400, 'The window ends in the future: footage is not recorded yet');
  if (startSec * 1000 < nowMs - MANIFEST.retentionMs) {
    throw new MediaRequestError(404, `The window starts before the footage kept (${MANIFEST.retentionMs / 86_400_000} days)`);
  }
  return { startSec, durationSec };
}

function segmentNumber(file: string): number | null {
  const match = SEGMENT_FILE.exec(file);
  return match ? Number(match[1]) : null;
}

/** Serves the files of a window of a device's footage (manifests, seg_init.mp4, seg_<n>.m4v), with the media host's errors. */
export type WindowServer = (
  request: FastifyRequest,
  reply: FastifyReply,
  device: { uuid: string; name: string },
  window: { startMs: number; durationSec: number },
  file: string,
  manifests: Record<string, 'mpd' | 'm3u8'>,
) => Promise<unknown>;

/**
 * Runs `work` with the media host's answers to what goes wrong: a MediaRequestError as its status, an encoder that
 * fails (logged) or is overrun as 503 with Retry-After and no encoder text; a Gatehouse error goes to the error handler.
 */
export async function serveMedia(deps: Deps, reply: FastifyReply, work: () => Promise<unknown>): Promise<unknown> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof MediaRequestError) return reply.status(e.status).header('cache-control', 'no-store').send(errorBody(e.message));
    if (isGatehouseError(e)) throw e;
    if (!(e instanceof SegmentBusyError)) deps.log.error({ err: e, url: reply.request.url.split('?')[0] }, 'footage could not be encoded');
    return reply
      .status(503)
      .header('retry-after', String(SEGMENT.seconds))
      .header('cache-control', 'no-store')
      .send(errorBody(e instanceof SegmentBusyError ? e.message : 'The footage could not be encoded just now; try again shortly'));
  }
}

/** A plain text answer (a manifest) with its type and cache policy. */
export const sendText = (reply: FastifyReply, type: string, body: string, cache: string) =>
  reply.header('content-type', type).header('cache-control', cache).send(body);

export function footageRoutes(app: FastifyInstance, deps: Deps): WindowServer {
  const camera = async (request: FastifyRequest, id: string) => {
    if (!CAMERA.test(id)) throw new MediaRequestError(404, `Unknown camera ${id.slice(0, 40)}`);
    return footageDevice(deps, request.caller.orgUuid, id);
  };

  /** The segment of `device` starting at `atMs`, placed at `decodeMs` as number `n`. */
  const segment = async (device: { uuid: string; name: string }, atMs: number, decodeMs: number, n: number) =>
    placeSegment(await footageSegment(deps, device, atMs), decodeMs, n);

  const serve = (reply: FastifyReply, work: () => Promise<unknown>) => serveMedia(deps, reply, work);

  const text = sendText;

  /** A VOD window's files: its manifests (MPD, and the m3u8 of the WAN form), seg_init.mp4 and seg_<n>.m4v. */
  const vod = async (request: FastifyRequest, reply: FastifyReply, id: string, window: Window, file: string, manifests: Record<string, 'mpd' | 'm3u8'>) =>
    serveWindow(request, reply, await camera(request, id), { startMs: window.startSec * 1000, durationSec: window.durationSec }, file, manifests);

  /** The files of `durationSec` of a device's footage from `startMs`. */
  const serveWindow = async (
    request: FastifyRequest,
    reply: FastifyReply,
    device: { uuid: string; name: string },
    window: { startMs: number; durationSec: number },
    file: string,
    manifests: Record<string, 'mpd' | 'm3u8'>,
  ) => {
    const kind = manifests[file];
    if (kind === 'mpd') return text(reply, 'application/dash+xml', vodMpd(window.durationSec, codecsOf(await footageInit())), VOD_CACHE);
    if (kind === 'm3u8') return text(reply, 'application/vnd.apple.mpegurl', vodPlaylist(window.durationSec), VOD_CACHE);
    if (file === 'seg_init.mp4') return sendBuffer(request, reply, await footageInit(), 'video/mp4', VOD_CACHE);
    const n = segmentNumber(file);
    if (n === null) throw new MediaRequestError(404, `Unknown file ${file.slice(0, 60)}`);
    if (n < 1 || n > segmentCount(window.durationSec))
      throw new MediaRequestError(404, `No segment ${n} in a window of ${window.durationSec} s (seg_1 to seg_${segmentCount(window.durationSec)})`);
    const bytes = await segment(device, window.startMs + (n - 1) * SEGMENT_MS, (n - 1) * SEGMENT_MS, n);
    return sendBuffer(request, reply, bytes, 'video/iso.segment', VOD_CACHE);
  };

  type Params = { camera: string; start: string; duration: string; window: string; file: string };
  app.get<{ Params: Params }>(`${FOOTAGE_ROOT}/:camera/:start/:duration/vod/:file`, async (request, reply) =>
    serve(reply, async () => {
      const window = parseWindow(request.params.start, request.params.duration, deps.clock.now());
      return vod(request, reply, request.params.camera, window, request.params.file, { 'file.mpd': 'mpd', 'file.m3u8': 'm3u8' });
    }),
  );
  app.get<{ Params: Params }>(`${FOOTAGE_ROOT}/:camera/lan/:window/:file`, async (request, reply) =>
    serve(reply, async () => {
      const [start, duration, extra] = request.params.window.split('_');
      if (duration === undefined || extra !== undefined) throw new MediaRequestError(400, 'The LAN window is <START_TIME>_<DURATION>');
      return vod(request, reply, request.params.camera, parseWindow(start, duration, deps.clock.now()), request.params.file, { 'clip.mpd': 'mpd' });
    }),
  );
  app.get<{ Params: Params }>(`${FOOTAGE_ROOT}/:camera/live/:file`, async (request, reply) =>
    serve(reply, async () => {
      const device = await camera(request, request.params.camera);
      const file = request.params.file;
      const now = deps.clock.now();
      if (file === 'live.mpd' || file === 'file.mpd')
        return text(reply, 'application/dash+xml', liveMpd(now, codecsOf(await footageInit())), LIVE_MANIFEST_CACHE);
      if (file === 'file.m3u8' || file === 'live.m3u8') return text(reply, 'application/vnd.apple.mpegurl', livePlaylist(now), LIVE_MANIFEST_CACHE);
      if (file === 'seg_init.mp4') return sendBuffer(request, reply, await footageInit(), 'video/mp4', VOD_CACHE);
      const n = segmentNumber(file);
      if (n === null) throw new MediaRequestError(404, `Unknown file ${file.slice(0, 60)}`);
      if (!liveServable(n, now)) throw new MediaRequestError(404, `Live segment ${n} is not available (yet, or any more)`);
      return sendBuffer(request, reply, await segment(device, n * SEGMENT_MS, n * SEGMENT_MS, n), 'video/iso.segment', LIVE_SEGMENT_CACHE);
    }),
  );
  return (request, reply, device, window, file, manifests) => serve(reply, () => serveWindow(request, reply, device, window, file, manifests));
}

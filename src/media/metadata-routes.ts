import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { cameraFrame, footageDevice } from '../domains/devices/media-uris/service.js';
import { findPolicyAlert } from '../domains/events/alerts/service.js';
import { findClipMedia } from '../domains/events/clips/service.js';
import { errorBody } from '../edge/errors.js';
import { deviceOfFacet, RUUID_PATTERN } from '../ids.js';
import type { WindowServer } from './footage-routes.js';
import { sendStoredFile } from './send.js';

/**
 * The media paths the platform's clients build themselves (client-calls.md M8 to M11, M13, M15), for the caller's
 * organization only (another organization's ids answer 404, as unknown ones):
 *
 * - `/media/metadata/<region>/<alert>.jpeg`: an alert's thumbnail (its camera at the alert's time); for a saved
 *   clip's uuid, the clip's thumbnail. `/media/metadata/<region>/<clip>.mp4`: a saved clip's video.
 * - `/media/metadata/<device>/<region>/<alert>/clip.mpd`, `seg_init.mp4`, `seg_<n>.m4v`: the alert's footage as DASH,
 *   from its time for its duration (2-second segments from seg_1).
 * - `/media/timelapse/<clip>.mp4`: a timelapse's video.
 * - `/media/frame/<camera>/<timestampMs>/thumb.jpeg`: the camera's frame at that instant, as a thumbnail.
 *
 * `<region>` is the one the records answer (`clipLocation.region`, `thumbnailLocation.region`); the media is found
 * by its uuid whatever the region says.
 */
const UUID = new RegExp(`^${RUUID_PATTERN.replace(/^\^|\$$/g, '')}$`);
const REGION = /^[A-Za-z0-9_-]{1,32}$/;
/** An alert's footage: its duration when it has one, within these bounds. */
const ALERT_CLIP = { defaultSec: 10, minSec: 2, maxSec: 120 } as const;
const THUMBNAIL_DOWNSCALE = 4;

const notFound = (reply: FastifyReply, what: string) =>
  reply
    .status(404)
    .header('cache-control', 'no-store')
    .send(errorBody(`${what} not found`));

function uuidAndExtension(file: string): [string, string] | null {
  const dot = file.lastIndexOf('.');
  if (dot < 0) return null;
  const uuid = file.slice(0, dot);
  return UUID.test(uuid) ? [uuid, file.slice(dot + 1)] : null;
}

export function metadataRoutes(app: FastifyInstance, deps: Deps, serveWindow: WindowServer): void {
  const jpeg = (reply: FastifyReply, bytes: Buffer) =>
    reply.header('content-type', 'image/jpeg').header('cache-control', 'private, max-age=3600').header('content-length', bytes.length).send(bytes);

  const alertOf = async (request: FastifyRequest, uuid: string) => (UUID.test(uuid) ? findPolicyAlert(deps, request.caller.orgUuid, uuid) : null);

  app.get<{ Params: { region: string; file: string } }>('/media/metadata/:region/:file', async (request, reply) => {
    const parsed = REGION.test(request.params.region) ? uuidAndExtension(request.params.file) : null;
    if (!parsed || !['jpeg', 'jpg', 'mp4'].includes(parsed[1])) return notFound(reply, 'Media');
    const [uuid, extension] = parsed;
    const orgUuid = request.caller.orgUuid;
    if (extension === 'mp4') {
      const video = await findClipMedia(deps, orgUuid, uuid, 'video');
      return video ? sendStoredFile(request, reply, video, 'video') : notFound(reply, 'Clip');
    }
    const alert = await alertOf(request, uuid);
    if (alert) {
      const camera = deviceOfFacet(alert.deviceUuid) ?? alert.deviceUuid;
      return jpeg(reply, await cameraFrame(deps, orgUuid, { cameraUuid: camera, timestampMs: alert.timestampMs, downscaleFactor: THUMBNAIL_DOWNSCALE }));
    }
    const thumbnail = await findClipMedia(deps, orgUuid, uuid, 'thumbnail');
    return thumbnail ? sendStoredFile(request, reply, thumbnail, 'thumbnail') : notFound(reply, 'Alert or clip');
  });

  app.get<{ Params: { device: string; region: string; alert: string; file: string } }>(
    '/media/metadata/:device/:region/:alert/:file',
    async (request, reply) => {
      const { device: deviceRef, region, alert: alertUuid, file } = request.params;
      const deviceUuid = deviceOfFacet(deviceRef) ?? deviceRef;
      if (!UUID.test(deviceUuid) || !REGION.test(region)) return notFound(reply, 'Alert clip');
      const alert = await alertOf(request, alertUuid);
      if (!alert || (deviceOfFacet(alert.deviceUuid) ?? alert.deviceUuid) !== deviceUuid) return notFound(reply, 'Alert clip');
      const device = await footageDevice(deps, request.caller.orgUuid, deviceUuid);
      const durationSec = Math.min(ALERT_CLIP.maxSec, Math.max(ALERT_CLIP.minSec, alert.durationSec ?? ALERT_CLIP.defaultSec));
      return serveWindow(request, reply, device, { startMs: alert.timestampMs, durationSec }, file, {
        'clip.mpd': 'mpd',
        'file.mpd': 'mpd',
        'file.m3u8': 'm3u8',
      });
    },
  );

  app.get<{ Params: { file: string } }>('/media/timelapse/:file', async (request, reply) => {
    const parsed = uuidAndExtension(request.params.file);
    const video = parsed && (await findClipMedia(deps, request.caller.orgUuid, parsed[0], 'video'));
    return video ? sendStoredFile(request, reply, video, 'video') : notFound(reply, 'Timelapse');
  });

  app.get<{ Params: { camera: string; ms: string } }>('/media/frame/:camera/:ms/thumb.jpeg', async (request, reply) => {
    if (!/^\d{1,15}$/.test(request.params.ms)) return reply.status(400).send(errorBody('The timestamp is epoch milliseconds'));
    const camera = deviceOfFacet(request.params.camera) ?? request.params.camera;
    if (!UUID.test(camera)) return notFound(reply, 'Camera');
    return jpeg(
      reply,
      await cameraFrame(deps, request.caller.orgUuid, { cameraUuid: camera, timestampMs: Number(request.params.ms), downscaleFactor: THUMBNAIL_DOWNSCALE }),
    );
  });
}

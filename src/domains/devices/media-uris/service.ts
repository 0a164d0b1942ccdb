import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet, isRuuid } from '../../../ids.js';
import { issueFederatedToken } from '../../../footage/federated-token.js';
import { mediaUrl } from '../../../footage/media-host.js';
import { footagePaths, realtimeSocketPath, socketBase } from '../../../footage/footage-paths.js';
import { renderClip, renderFrame, type FrameCrop } from '../../../footage/render.js';
import type { DrawnBox } from '../../../footage/segments.js';
import { findCamera } from '../cameras/service.js';
import { doorbellLiveOpusUri } from './audio-gateway-media.service.js';
import { listCameraBoxes } from '../cameras/footage-boxes.service.js';
import { findDevice, type DeviceRecord } from '../service.js';

type ReadDeps = Pick<Deps, 'store'>;
type UriDeps = Pick<Deps, 'store' | 'mediaHost'>;

/** The full frame of a simulated camera; a downscale factor divides both sides. */
export const FRAME_SIZE = { width: 1920, height: 1080 };
/** Clips on the media host: at most this long, and at this downscale unless asked otherwise. */
export const CLIP_LIMITS = { maxDurationSec: 120, defaultDurationSec: 10, defaultDownscale: 4 };

/** Media host paths (relative to the media host, as the clips' locations are). */
export const cameraMediaPath = (cameraUuid: string, file: 'frame.jpg' | 'clip.mp4') => `/media/cameras/${cameraUuid}/${file}`;

async function cameraOf(deps: ReadDeps, orgUuid: string, uuid: string): Promise<DeviceRecord> {
  const camera = await findCamera(deps, orgUuid, uuid);
  if (!camera) throw fail('NOT_FOUND', 'Camera');
  return camera;
}

/**
 * `getMediaUris`: where a camera's video is on the media host, as absolute URIs (src/footage/footage-paths.ts):
 * DASH and HLS, VOD templates with `{START_TIME}` (epoch seconds) and `{DURATION}` (seconds), the WAN form ending
 * in `file.mpd` and the LAN form in `clip.mpd`, and the live MPD and playlist. The live H.264 fields are the realtime
 * sockets (`ws:`/`wss:`, src/media/realtime-sockets.ts); the VOD H.264 template is plain MP4 over HTTP (in ms).
 */
export async function getCameraMediaUris(deps: UriDeps, ctx: CallerContext, uuid: string) {
  const camera = await footageDevice(deps, ctx.orgUuid, uuid);
  const clip = mediaUrl(deps, cameraMediaPath(camera.uuid, 'clip.mp4'));
  const paths = footagePaths(camera.uuid);
  const url = (path: string) => mediaUrl(deps, path);
  const realtime = `${socketBase(deps.mediaHost.base)}${realtimeSocketPath(camera.uuid)}`;
  return {
    wanLiveH264Uri: realtime,
    wanLiveM3u8Uri: url(paths.liveM3u8),
    wanLiveMpdUri: url(paths.liveMpd),
    wanVodH264UriTemplate: `${clip}?startTimeMs={START_TIME_MS}&durationSec={DURATION_SEC}`,
    wanVodM3u8UriTemplate: url(paths.vodM3u8Template),
    wanVodMpdUriTemplate: url(paths.vodMpdTemplate),
    lanLiveH264Uris: [realtime],
    lanLiveM3u8Uris: [url(paths.liveM3u8)],
    lanLiveMpdUris: [url(paths.liveMpd)],
    lanVodM3u8UrisTemplates: [url(paths.vodM3u8Template)],
    lanVodMpdUrisTemplates: [url(paths.lanVodMpdTemplate)],
    lanCheckUrls: [],
  };
}

/** `doorbellcamera/getMediaUris`: the doorbell's video as a camera's, and its live audio (Ogg Opus over HTTP). */
export async function getDoorbellCameraMediaUris(deps: UriDeps, ctx: CallerContext, uuid: string) {
  const doorbell = await findDevice(deps, ctx.orgUuid, uuid, ['DOORBELL_CAMERA']);
  if (!doorbell) throw fail('NOT_FOUND', 'Doorbell camera');
  return { ...(await getCameraMediaUris(deps, ctx, doorbell.uuid)), wanLiveOpusUri: doorbellLiveOpusUri(deps, doorbell.uuid), lanLiveOpusUris: [] };
}

/** The footage devices: cameras and doorbell cameras. */
const FOOTAGE_KINDS = ['CAMERA', 'DOORBELL_CAMERA'] as const;

/** The organization's camera or doorbell camera (by uuid or facet id); another organization's is NOT_FOUND. */
export async function footageDevice(deps: ReadDeps, orgUuid: string, ref: string): Promise<DeviceRecord> {
  const uuid = isRuuid(ref) ? ref : deviceOfFacet(ref);
  const device = uuid ? await findDevice(deps, orgUuid, uuid, FOOTAGE_KINDS) : null;
  if (!device) throw fail('NOT_FOUND', 'Camera');
  return device;
}

/** The detections stored for a camera (already checked to be the caller's) over [fromMs, toMs), as drawn on its footage. */
export async function footageBoxes(deps: ReadDeps, cameraUuid: string, fromMs: number, toMs: number): Promise<DrawnBox[]> {
  const boxes = await listCameraBoxes(deps, cameraUuid, fromMs, toMs);
  return boxes.map((b) => ({ ts: b.ts, l: b.l, t: b.t, r: b.r, b: b.b, label: b.a }));
}

/** `getExactFrameUri`: the media host's URI of the camera's frame at that instant. */
export async function getExactFrameUri(
  deps: UriDeps,
  ctx: CallerContext,
  input: { cameraUuid: string; timestampMs: number; downscaleFactor?: number | null; jpgQuality?: number | null },
) {
  const camera = await cameraOf(deps, ctx.orgUuid, input.cameraUuid);
  const query = new URLSearchParams({ timestampMs: String(input.timestampMs) });
  if (input.downscaleFactor != null) query.set('downscaleFactor', String(input.downscaleFactor));
  if (input.jpgQuality != null) query.set('jpgQuality', String(input.jpgQuality));
  return mediaUrl(deps, `${cameraMediaPath(camera.uuid, 'frame.jpg')}?${query}`);
}

export function generateFederatedSessionToken(deps: Pick<Deps, 'secrets' | 'clock'>, ctx: CallerContext, durationSec?: number | null) {
  return issueFederatedToken(deps, ctx.orgUuid, durationSec);
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);
const sizeOf = (downscale: number) => ({ width: even(FRAME_SIZE.width / downscale), height: even(FRAME_SIZE.height / downscale) });

/** The JPEG the media host serves for a frame URI; only a camera of the caller's organization. */
export async function cameraFrame(
  deps: ReadDeps,
  orgUuid: string,
  input: { cameraUuid: string; timestampMs: number; downscaleFactor?: number; jpgQuality?: number; crop?: FrameCrop },
): Promise<Buffer> {
  const camera = await cameraOf(deps, orgUuid, input.cameraUuid);
  return renderFrame({ cameraName: camera.name, atMs: input.timestampMs, ...sizeOf(input.downscaleFactor ?? 1), quality: input.jpgQuality, crop: input.crop });
}

type Maybe = number | null | undefined;
interface FrameDataInput {
  cameraUuid: string;
  timestampMs: number;
  downscaleFactor?: Maybe;
  jpgQuality?: Maybe;
  permyriadCropX?: Maybe;
  permyriadCropY?: Maybe;
  permyriadCropWidth?: Maybe;
  permyriadCropHeight?: Maybe;
}

/** The part of the frame asked for (permyriad); none when no crop field is given. A part past the frame's edge is refused. */
function cropOf(input: FrameDataInput): FrameCrop | undefined {
  const { permyriadCropX: x, permyriadCropY: y, permyriadCropWidth: width, permyriadCropHeight: height } = input;
  if (x == null && y == null && width == null && height == null) return undefined;
  const crop = { x: x ?? 0, y: y ?? 0, width: width ?? 10000 - (x ?? 0), height: height ?? 10000 - (y ?? 0) };
  if (crop.width < 1 || crop.height < 1) throw fail('INVALID_VALUE', 'permyriadCropWidth and permyriadCropHeight must be at least 1');
  if (crop.x + crop.width > 10000) throw fail('INVALID_VALUE', 'permyriadCropX + permyriadCropWidth is past the right edge (10000)');
  if (crop.y + crop.height > 10000) throw fail('INVALID_VALUE', 'permyriadCropY + permyriadCropHeight is past the bottom edge (10000)');
  return crop;
}

/** `getExactFrameData`: the JPEG that getExactFrameUri's URI serves, cropped as asked, for the answer itself. */
export async function exactFrameData(deps: ReadDeps, ctx: CallerContext, input: FrameDataInput): Promise<Buffer> {
  const crop = cropOf(input);
  return cameraFrame(deps, ctx.orgUuid, {
    cameraUuid: input.cameraUuid,
    timestampMs: input.timestampMs,
    downscaleFactor: input.downscaleFactor ?? undefined,
    jpgQuality: input.jpgQuality ?? undefined,
    crop,
  });
}

/** The MP4 the media host serves for a clip URI (the latest `durationSec` when no start is given). */
export async function cameraClip(
  deps: ReadDeps & Pick<Deps, 'clock'>,
  orgUuid: string,
  input: { cameraUuid: string; startTimeMs?: number; durationSec?: number; downscaleFactor?: number },
): Promise<Buffer> {
  const camera = await cameraOf(deps, orgUuid, input.cameraUuid);
  const durationSec = Math.min(input.durationSec ?? CLIP_LIMITS.defaultDurationSec, CLIP_LIMITS.maxDurationSec);
  const startMs = input.startTimeMs ?? deps.clock.now() - durationSec * 1000;
  return renderClip({ cameraName: camera.name, atMs: startMs, durationSec, ...sizeOf(input.downscaleFactor ?? CLIP_LIMITS.defaultDownscale) });
}

import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { issueFederatedToken } from '../../../footage/federated-token.js';
import { renderClip, renderFrame } from '../../../footage/render.js';
import { findCamera } from '../cameras/service.js';
import type { DeviceRecord } from '../service.js';

type ReadDeps = Pick<Deps, 'store'>;

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
 * `getMediaUris`: where a camera's video is on the media host. The simulated camera serves MP4 (H.264)
 * only: a live URI is its latest ten seconds, and the VOD template takes `{START_TIME_MS}` and
 * `{DURATION_SEC}`. HLS and DASH are not served (those fields are null, the LAN lists empty).
 */
export async function getCameraMediaUris(deps: ReadDeps, ctx: CallerContext, uuid: string) {
  const camera = await cameraOf(deps, ctx.orgUuid, uuid);
  const clip = cameraMediaPath(camera.uuid, 'clip.mp4');
  return {
    wanLiveH264Uri: `${clip}?durationSec=${CLIP_LIMITS.defaultDurationSec}`,
    wanLiveM3u8Uri: null,
    wanLiveMpdUri: null,
    wanVodH264UriTemplate: `${clip}?startTimeMs={START_TIME_MS}&durationSec={DURATION_SEC}`,
    wanVodM3u8UriTemplate: null,
    wanVodMpdUriTemplate: null,
    lanLiveH264Uris: [],
    lanLiveM3u8Uris: [],
    lanLiveMpdUris: [],
    lanVodM3u8UrisTemplates: [],
    lanVodMpdUrisTemplates: [],
    lanCheckUrls: [],
  };
}

/** `getExactFrameUri`: the media host's URI of the camera's frame at that instant. */
export async function getExactFrameUri(
  deps: ReadDeps,
  ctx: CallerContext,
  input: { cameraUuid: string; timestampMs: number; downscaleFactor?: number | null; jpgQuality?: number | null },
) {
  const camera = await cameraOf(deps, ctx.orgUuid, input.cameraUuid);
  const query = new URLSearchParams({ timestampMs: String(input.timestampMs) });
  if (input.downscaleFactor != null) query.set('downscaleFactor', String(input.downscaleFactor));
  if (input.jpgQuality != null) query.set('jpgQuality', String(input.jpgQuality));
  return `${cameraMediaPath(camera.uuid, 'frame.jpg')}?${query}`;
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
  input: { cameraUuid: string; timestampMs: number; downscaleFactor?: number; jpgQuality?: number },
): Promise<Buffer> {
  const camera = await cameraOf(deps, orgUuid, input.cameraUuid);
  return renderFrame({ cameraName: camera.name, atMs: input.timestampMs, ...sizeOf(input.downscaleFactor ?? 1), quality: input.jpgQuality });
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

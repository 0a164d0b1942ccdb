import { createHash } from 'node:crypto';
import type { Deps } from '../deps.js';
import { footageBoxes } from '../domains/devices/media-uris/service.js';
import { BOX_SHOWN_MS, footageInit, SEGMENT_MS } from '../footage/segments.js';
import { encodeAudioSegment } from '../footage/audio-segments.js';

/**
 * The media part of the footage segment of `device` starting at `atMs` (at time 0; the caller places it): from the
 * segment cache, else encoded once with the detections stored for that time drawn in. DASH, HLS and the realtime
 * socket all take their pictures from here.
 */
export async function footageSegment(deps: Deps, device: { uuid: string; name: string }, atMs: number): Promise<Buffer> {
  const boxes = await footageBoxes(deps, device.uuid, atMs - BOX_SHOWN_MS, atMs + SEGMENT_MS);
  const drawn = createHash('sha256').update(JSON.stringify(boxes)).digest('hex').slice(0, 16);
  const key = `${device.uuid}|${device.name}|${atMs}|${drawn}`;
  return deps.mediaHost.segments.get(key, async () => {
    const [encoded, init] = await Promise.all([deps.mediaHost.encode({ cameraName: device.name, atMs, boxes }), footageInit()]);
    if (!encoded.init.equals(init))
      deps.log.warn({ cameraUuid: device.uuid, atMs }, 'a footage segment was encoded with other parameter sets than seg_init.mp4');
    return encoded.media;
  });
}

/** The media part of the audio segment of a device starting at `atMs` (src/footage/audio-segments.ts), from the same cache. */
export const audioSegment = (deps: Deps, deviceUuid: string, atMs: number): Promise<Buffer> =>
  deps.mediaHost.segments.get(`audio|${deviceUuid}|${atMs}`, async () => (await encodeAudioSegment(atMs)).media);

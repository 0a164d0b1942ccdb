import { renderClip } from './render.js';

/**
 * Live video of the simulated cameras, as HLS: the wall clock is cut into segments of `segmentSec` seconds
 * (segment n covers [n, n + 1) x segmentSec from the epoch), and a segment is rendered by ffmpeg on demand once
 * its time has passed: the camera's test pattern with its name and the segment's time burnt in, H.264 in
 * MPEG-TS, its time stamps continuing from the segment before so that the segments play on as one stream.
 * The live playlist lists the latest `windowSegments`; a segment stays available `retainSegments` back, for a
 * player that fell behind, and never before its time (404). Rendered segments are kept in a cache bounded in
 * count, identical requests share one render, and at most `renders` ffmpeg processes run at once (a request
 * beyond `queue` waiting ones is refused: the machine is not overrun by viewers).
 */
export const LIVE = { segmentSec: 2, windowSegments: 4, retainSegments: 30, fps: 10, cacheSegments: 96, renders: 2, queue: 32 } as const;

export interface LiveCamera {
  uuid: string;
  name: string;
}

export interface SegmentSize {
  width: number;
  height: number;
}

/** The sizes served: HD for a raw stream's main video, SD for its low-resolution one and for shared live streams (cheaper to render). */
export const LIVE_SIZES = { hd: { width: 1280, height: 720 }, sd: { width: 640, height: 360 } } as const;

export class LiveBusyError extends Error {
  constructor() {
    super('Too many live segments are being rendered; try again shortly');
  }
}

const SEGMENT_MS = LIVE.segmentSec * 1000;

/** The newest segment whose time has fully passed at `nowMs`. */
export const latestSegment = (nowMs: number) => Math.floor(nowMs / SEGMENT_MS) - 1;

/** Whether segment `seq` may be served at `nowMs`: its time has passed, and not too long ago. */
export function segmentServable(seq: number, nowMs: number): boolean {
  const latest = latestSegment(nowMs);
  return Number.isSafeInteger(seq) && seq <= latest && seq > latest - LIVE.retainSegments;
}

/** Milliseconds until segment `seq` can be rendered (0: now). */
export const msUntilSegment = (seq: number, nowMs: number) => Math.max(0, (seq + 1) * SEGMENT_MS - nowMs);

/** The live playlist at `nowMs` (RFC 8216 media playlist, no end tag): segment URIs relative to the playlist. */
export function livePlaylist(nowMs: number): string {
  const latest = latestSegment(nowMs);
  const first = latest - LIVE.windowSegments + 1;
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${LIVE.segmentSec}`, `#EXT-X-MEDIA-SEQUENCE:${first}`];
  for (let seq = first; seq <= latest; seq++) lines.push(`#EXTINF:${LIVE.segmentSec.toFixed(3)},`, `${seq}.ts`);
  return `${lines.join('\n')}\n`;
}

export interface LiveSegments {
  /** Segment `seq` of the camera at that size (rendered, or from the cache). */
  segment(camera: LiveCamera, seq: number, size: SegmentSize): Promise<Buffer>;
}

/** The segment renderer of one media host: its cache, its shared renders and its limit on ffmpeg processes. */
export function createLiveSegments(limits: { renders: number; queue: number; cacheSegments: number } = LIVE): LiveSegments {
  const cache = new Map<string, Buffer>();
  const rendering = new Map<string, Promise<Buffer>>();
  const waiting: Array<() => void> = [];
  let running = 0;

  const slot = async () => {
    if (running < limits.renders) {
      running++;
      return;
    }
    if (waiting.length >= limits.queue) throw new LiveBusyError();
    // The slot is handed over by the render that ends (running stays counted).
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  const remember = (key: string, segment: Buffer) => {
    cache.set(key, segment);
    // A Map iterates in insertion order: the first key is the oldest.
    while (cache.size > limits.cacheSegments) cache.delete(cache.keys().next().value as string);
  };

  return {
    segment(camera, seq, size) {
      // The name is in the key: a camera renamed shows its new name from the next render on.
      const key = `${camera.uuid}|${camera.name}|${seq}|${size.width}x${size.height}`;
      const cached = cache.get(key);
      if (cached) return Promise.resolve(cached);
      let pending = rendering.get(key);
      if (!pending) {
        pending = (async () => {
          await slot();
          try {
            const atMs = seq * SEGMENT_MS;
            const segment = await renderClip({
              cameraName: camera.name,
              atMs,
              durationSec: LIVE.segmentSec,
              fps: LIVE.fps,
              ...size,
              container: 'mpegts',
              timestampOffsetSec: atMs / 1000,
            });
            remember(key, segment);
            return segment;
          } finally {
            release();
          }
        })().finally(() => rendering.delete(key));
        rendering.set(key, pending);
      }
      return pending;
    },
  };
}

import { join } from 'node:path';
import type { Config } from '../config.js';
import { createSegmentCache, type SegmentCache } from './segment-cache.js';
import { encodeSegment } from './segments.js';

/**
 * What every part of one process shares about the media host: the public base URL that starts every media URI
 * handed out (absolute, as the platform's clients need them), and the cache of encoded footage segments.
 */
export interface MediaHost {
  /** `--public-media-url`, else the media listener's own address (set once it listens). */
  base: string;
  segments: SegmentCache;
  /** The segment encoder (src/footage/segments.ts; a test may put a failing one in its place). */
  encode: typeof encodeSegment;
}

declare module '../deps.js' {
  interface Deps {
    mediaHost: MediaHost;
  }
}

export function createMediaHost(config: Config): MediaHost {
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    base: config.publicMediaUrl ?? `http://${host}:${config.mediaPort}`,
    segments: createSegmentCache({ dir: join(config.dataDir, 'media-cache'), maxBytes: config.mediaCacheBytes }),
    encode: encodeSegment,
  };
}

/** The absolute URL of a media host path (`/media/...`). */
export const mediaUrl = (deps: { mediaHost: MediaHost }, path: string) => `${deps.mediaHost.base}${path}`;

import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SizedLru } from '../sized-lru.js';

/**
 * The encoded footage segments of one process, kept on disk (`<data-dir>/media-cache/`) up to a bound in bytes
 * (GATEHOUSE_MEDIA_CACHE_MB), the least recently used going first. A segment asked for while it is being encoded
 * waits for that encoding (never two encodings of one segment at once); at most `encoders` ffmpeg processes run
 * at once and at most `queue` encodings wait for one, beyond which a request is refused (503) rather than the
 * machine overrun. The directory is emptied when the process stores its first segment: the index lives in memory.
 * The most recently used segments, up to `memoryBytes`, are also held in memory: many viewers of one camera's
 * live edge ask for the same few segments, and a file's open, stat, read and close cost more than serving it.
 */
export const SEGMENT_CACHE = { encoders: 2, queue: 64, memoryBytes: 32 * 1024 * 1024 } as const;

export class SegmentBusyError extends Error {
  constructor() {
    super('Too many footage segments are being encoded; try again shortly');
  }
}

export interface SegmentCacheStats {
  /** Encodings started since the process began. */
  encodes: number;
  /** Requests answered from the cache. */
  hits: number;
  /** Bytes and segments on disk now. */
  bytes: number;
  entries: number;
  /** The most encodings of one key that ran at the same time (1 unless single-flight is broken). */
  maxConcurrentSameKey: number;
}

export interface SegmentCache {
  readonly maxBytes: number;
  /** The bytes of `key`: from the cache, from the encoding under way, or encoded now by `encode`. */
  get(key: string, encode: () => Promise<Buffer>): Promise<Buffer>;
  stats(): SegmentCacheStats;
}

export function createSegmentCache(options: { dir: string; maxBytes: number; encoders?: number; queue?: number; memoryBytes?: number }): SegmentCache {
  const { dir, maxBytes } = options;
  const memoryBytes = Math.min(maxBytes, options.memoryBytes ?? SEGMENT_CACHE.memoryBytes);
  const encoders = options.encoders ?? SEGMENT_CACHE.encoders;
  const queue = options.queue ?? SEGMENT_CACHE.queue;
  // Emptied on the first segment stored, not before: a CLI command opening the same data dir touches nothing.
  let ready = false;
  /** In least-recently-used order (a Map iterates in insertion order; a hit moves its key to the end). */
  const index = new Map<string, { file: string; size: number }>();
  /** The bytes of the most recently used of them, within memoryBytes. */
  const hot = new SizedLru<Buffer>(memoryBytes);
  const pending = new Map<string, Promise<Buffer>>();
  const running = new Map<string, number>();
  const waiting: Array<() => void> = [];
  let active = 0;
  const stats = { encodes: 0, hits: 0, bytes: 0, maxConcurrentSameKey: 0 };

  const slot = async () => {
    if (active < encoders) {
      active++;
      return;
    }
    if (waiting.length >= queue) throw new SegmentBusyError();
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };

  const evict = async () => {
    while (stats.bytes > maxBytes && index.size > 0) {
      const [key, entry] = index.entries().next().value as [string, { file: string; size: number }];
      index.delete(key);
      hot.delete(key);
      stats.bytes -= entry.size;
      await unlink(entry.file).catch(() => {});
    }
  };

  const store = async (key: string, bytes: Buffer) => {
    if (bytes.length > maxBytes) return;
    if (!ready) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      ready = true;
    }
    const file = join(dir, `${createHash('sha256').update(key).digest('hex')}.m4s`);
    const temporary = `${file}.${randomBytes(4).toString('hex')}`;
    await writeFile(temporary, bytes);
    await rename(temporary, file);
    const old = index.get(key);
    if (old) stats.bytes -= old.size;
    index.delete(key);
    index.set(key, { file, size: bytes.length });
    stats.bytes += bytes.length;
    hot.set(key, bytes);
    await evict();
  };

  const encodeOnce = (key: string, encode: () => Promise<Buffer>) => {
    let flight = pending.get(key);
    if (flight) return flight;
    flight = (async () => {
      await slot();
      try {
        stats.encodes++;
        const now = (running.get(key) ?? 0) + 1;
        running.set(key, now);
        stats.maxConcurrentSameKey = Math.max(stats.maxConcurrentSameKey, now);
        try {
          const bytes = await encode();
          await store(key, bytes);
          return bytes;
        } finally {
          const left = (running.get(key) ?? 1) - 1;
          if (left === 0) running.delete(key);
          else running.set(key, left);
        }
      } finally {
        release();
      }
    })().finally(() => pending.delete(key));
    pending.set(key, flight);
    return flight;
  };

  return {
    maxBytes,
    async get(key, encode) {
      const entry = index.get(key);
      if (entry) {
        index.delete(key);
        index.set(key, entry);
        const held = hot.get(key);
        if (held) {
          stats.hits++;
          return held;
        }
        try {
          const bytes = await readFile(entry.file);
          stats.hits++;
          if (index.get(key) === entry) hot.set(key, bytes);
          return bytes;
        } catch {
          // Evicted meanwhile (or removed by hand): encoded again.
          if (index.get(key) === entry) {
            index.delete(key);
            stats.bytes -= entry.size;
          }
        }
      }
      return encodeOnce(key, encode);
    },
    stats: () => ({ ...stats, entries: index.size }),
  };
}

import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where media bytes live: files under `<data-dir>/media/<org>/clips/<clip>/<part>`. (An S3-compatible
 * bucket is not implemented: the media host only keeps files in the data dir.) Only the media service
 * and the media host name these paths; records carry the media host's URL path instead.
 */
export const MEDIA_PARTS = ['video', 'thumbnail'] as const;
export type MediaPart = (typeof MEDIA_PARTS)[number];

export function mediaFile(dataDir: string, orgUuid: string, clipUuid: string, part: MediaPart): string {
  return join(dataDir, 'media', orgUuid, 'clips', clipUuid, part);
}

/** The path a clip's part is served at on the media host. */
export const mediaUrlPath = (clipUuid: string, part: MediaPart) => `/media/clips/${clipUuid}/${part}`;

export class MediaTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`media larger than ${limit} bytes`);
  }
}

export interface StoredMedia {
  sha256Hex: string;
  byteCount: number;
}

/**
 * Streams `body` into the file, hashing as it goes: written to a temporary name and renamed into place
 * only once complete, so a reader never sees half a file and a failed upload leaves the old one.
 */
export async function storeMedia(file: string, body: Readable, maxBytes: number): Promise<StoredMedia> {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.upload-${randomBytes(6).toString('hex')}`;
  const hash = createHash('sha256');
  let byteCount = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      byteCount += chunk.length;
      if (byteCount > maxBytes) return done(new MediaTooLargeError(maxBytes));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(body, meter, createWriteStream(temporary));
    await rename(temporary, file);
  } catch (e) {
    await rm(temporary, { force: true });
    throw e;
  }
  return { sha256Hex: hash.digest('hex'), byteCount };
}

/** A stored file as the media host serves it. */
export interface StoredFile {
  file: string;
  size: number;
  contentType: string;
  /** Strong validator, when the file has one (a clip video's SHA-256). */
  etag: string | null;
}

/** The size of a stored file, or null when there is none. */
export function mediaSize(file: string): number | null {
  try {
    return statSync(file).size;
  } catch {
    return null;
  }
}

import { Readable } from 'node:stream';

/**
 * An answer sent as its parts, in order, without being joined first: a kept list's bytes (the camera list's states,
 * held between calls) go to the socket as they are. Joined, every call copied the whole list into a new buffer,
 * and a megabyte of buffers a call was what set off most of the garbage collector's full collections under load
 * (docs/performance.md). Its length is known, so it is sent with a content-length, not in chunks.
 */
export class JsonParts extends Readable {
  /** The answer's length in bytes. */
  readonly byteLength: number;

  constructor(private readonly parts: readonly (string | Buffer)[]) {
    super();
    this.byteLength = parts.reduce((n, part) => n + (typeof part === 'string' ? Buffer.byteLength(part) : part.length), 0);
  }

  override _read(): void {
    for (const part of this.parts) this.push(part);
    this.push(null);
  }

  /** The answer's first `max` bytes (at most), for the request journal. */
  head(max: number): Buffer {
    const chunks: Buffer[] = [];
    let left = max;
    for (const part of this.parts) {
      if (left <= 0) break;
      const bytes = typeof part === 'string' ? Buffer.from(part.slice(0, left)) : part;
      chunks.push(bytes.subarray(0, left));
      left -= Math.min(left, bytes.length);
    }
    return Buffer.concat(chunks);
  }
}

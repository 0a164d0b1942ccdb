import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFfmpeg } from '../../src/footage/render.js';

/** What a real decoder (the packaged ffmpeg) makes of a media file: its codec, size and duration. */
export interface DecodedMedia {
  codec: string;
  width: number;
  height: number;
  durationSec: number | null;
  frames: number;
}

/**
 * Decodes every frame of `bytes` with ffmpeg (to the null muxer) and reads the stream's codec, size and
 * duration from its report: a file that does not decode throws.
 */
export async function decodeMedia(bytes: Uint8Array, extension: string): Promise<DecodedMedia> {
  const dir = mkdtempSync(join(tmpdir(), 'gh-decode-'));
  try {
    const file = join(dir, `media.${extension}`);
    writeFileSync(file, bytes);
    return report((await runFfmpeg(['-loglevel', 'info', '-xerror', '-i', file, '-f', 'null', '-'])).stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Plays a URL as a player does (ffmpeg's own HTTP and HLS clients, the headers sent with every request, the
 * playlist's segments included) for at most `seconds`, decoding every frame; a stream that does not play throws.
 */
export async function decodeUrl(url: string, seconds: number, headers: Record<string, string> = {}): Promise<DecodedMedia> {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return report(
    (await runFfmpeg(['-loglevel', 'info', ...(lines.length ? ['-headers', lines.join('')] : []), '-i', url, '-t', String(seconds), '-f', 'null', '-'])).stderr,
  );
}

/** What a real decoder makes of an audio file: its codec, sample rate, channels and duration (decoding every packet). */
export async function decodeAudio(bytes: Uint8Array, extension: string): Promise<{ codec: string; sampleRate: number; channels: string; durationSec: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'gh-decode-'));
  try {
    const file = join(dir, `audio.${extension}`);
    writeFileSync(file, bytes);
    const { stderr } = await runFfmpeg(['-loglevel', 'info', '-xerror', '-i', file, '-f', 'null', '-']);
    const stream = /Stream #0:0.*?: Audio: (\w+).*?, (\d+) Hz, (\w+)/.exec(stderr);
    const time = [...stderr.matchAll(/time=(\d+):(\d+):(\d+\.\d+)/g)].pop();
    if (!stream || !time) throw new Error(`no decoded audio in the decoder's report: ${stderr.slice(0, 500)}`);
    return {
      codec: stream[1],
      sampleRate: Number(stream[2]),
      channels: stream[3],
      durationSec: Number(time[1]) * 3600 + Number(time[2]) * 60 + Number(time[3]),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(stderr: string): DecodedMedia {
  const stream = /Stream #0:0.*?: Video: (\w+).*?, (\d+)x(\d+)/.exec(stderr);
  if (!stream) throw new Error(`no video stream in the decoder's report: ${stderr.slice(0, 500)}`);
  const duration = /Duration: (\d+):(\d+):(\d+\.\d+)/.exec(stderr);
  const frames = [...stderr.matchAll(/frame=\s*(\d+)/g)].pop();
  return {
    codec: stream[1],
    width: Number(stream[2]),
    height: Number(stream[3]),
    durationSec: duration ? Number(duration[1]) * 3600 + Number(duration[2]) * 60 + Number(duration[3]) : null,
    frames: frames ? Number(frames[1]) : 0,
  };
}

/** The width and height in a JPEG's start-of-frame segment (read from the bytes, independently of ffmpeg). */
export function jpegSize(bytes: Buffer): { width: number; height: number } {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) throw new Error('not a JPEG (no SOI marker)');
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) throw new Error(`bad JPEG segment at ${offset}`);
    const marker = bytes[offset + 1];
    const length = bytes.readUInt16BE(offset + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  throw new Error('no start-of-frame segment in the JPEG');
}

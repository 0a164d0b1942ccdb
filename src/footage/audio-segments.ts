import { fragmentSamples, placeFragment, splitFragmented } from './fmp4.js';
import { renderFile } from './render.js';

/**
 * Recorded audio of the simulated audio gateways, as DASH (client-calls.md M18, historical): 2-second segments of
 * Opus (48 kHz mono) in fragmented MP4, encoded on demand by the packaged ffmpeg. The sound is a tone whose pitch
 * steps up each segment through a scale of twelve (named by the wall clock, so that a listener hears time pass),
 * with a beep at each segment's start. Every segment is exactly 100 Opus frames of 20 ms: the tone is cut short by
 * the encoder's priming (312 samples), so that the segments tile the time line without overlap.
 */
export const AUDIO_SEGMENT = { seconds: 2, sampleRate: 48_000, frameMs: 20, bitrate: '32k' } as const;
const PRIMING_SAMPLES = 312;
const TONE_SEC = (AUDIO_SEGMENT.seconds * AUDIO_SEGMENT.sampleRate - PRIMING_SAMPLES) / AUDIO_SEGMENT.sampleRate;
export const AUDIO_CODECS = 'opus';

const ENCODING = [
  '-ac',
  '1',
  '-c:a',
  'libopus',
  '-b:a',
  AUDIO_SEGMENT.bitrate,
  // Opus in MP4 is still marked experimental by the packaged ffmpeg's muxer.
  '-strict',
  '-2',
  '-fflags',
  '+bitexact',
  '-flags:a',
  '+bitexact',
  '-movflags',
  'empty_moov+default_base_moof+frag_custom',
  '-f',
  'mp4',
];

const toneOf = (atMs: number) => Math.round(220 * 2 ** ((Math.floor(atMs / (AUDIO_SEGMENT.seconds * 1000)) % 12) / 12));

/** The segment starting at `atMs`: its initialization part (the same for all) and its media part at time 0. */
export async function encodeAudioSegment(atMs: number): Promise<{ init: Buffer; media: Buffer }> {
  const file = await renderFile('audio.mp4', () => [
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${toneOf(atMs)}:beep_factor=2:sample_rate=${AUDIO_SEGMENT.sampleRate}:duration=${TONE_SEC}`,
    ...ENCODING,
  ]);
  return splitFragmented(file);
}

let init: Promise<Buffer> | null = null;
/** `seg_init.mp4` of the audio (encoded once a process). */
export function audioInit(): Promise<Buffer> {
  init ??= encodeAudioSegment(0)
    .then((encoded) => encoded.init)
    .catch((e: unknown) => {
      init = null;
      throw e;
    });
  return init;
}

/** A media part placed as segment `number` at `decodeMs` from the presentation's start. */
export const placeAudioSegment = (media: Buffer, decodeMs: number, number: number) =>
  placeFragment(media, (decodeMs * AUDIO_SEGMENT.sampleRate) / 1000, number);

/**
 * The same segment as the web SDK's own decoder reads it when the browser cannot play Opus through DASH
 * (`seg_<n>.mpd`): the segment's time (epoch ms, 8 bytes big-endian), then each 20 ms Opus frame after its
 * 2-byte big-endian length.
 */
export function audioFrameEnvelope(atMs: number, media: Buffer): Buffer {
  const frames = fragmentSamples(media);
  const head = Buffer.alloc(8);
  head.writeBigUInt64BE(BigInt(atMs));
  return Buffer.concat([
    head,
    ...frames.flatMap((frame) => {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(frame.length);
      return [length, frame];
    }),
  ]);
}

import { H264, pattern, renderFile, textFilters } from './render.js';
import { placeFragment, splitFragmented } from './fmp4.js';

/**
 * The footage segments of DASH and HLS (src/footage/dash.ts): 2-second pieces of a camera's synthetic footage,
 * H.264 in fragmented MP4, encoded on demand by the packaged ffmpeg. A segment shows the camera's name, the
 * wall-clock time of each frame and the detections stored for that camera at that time (their boxes drawn where
 * they say, labelled with their activity). Every segment of one size shares one initialization segment
 * (`seg_init.mp4`): the encoder's settings are the same for all, so its parameter sets are too.
 */
export const SEGMENT = { seconds: 2, fps: 10, timescale: 1000, width: 1280, height: 720 } as const;
export const SEGMENT_MS = SEGMENT.seconds * 1000;
/** Frames in one segment. */
export const SEGMENT_FRAMES = SEGMENT.seconds * SEGMENT.fps;

/** A detection drawn on the footage: its box in permyriad of the picture, shown for a second from `ts`. */
export interface DrawnBox {
  ts: number;
  l: number;
  t: number;
  r: number;
  b: number;
  label: string;
}
export const BOX_SHOWN_MS = 1000;

export interface SegmentSpec {
  cameraName: string;
  /** Epoch ms of the segment's first frame. */
  atMs: number;
  boxes: readonly DrawnBox[];
}

/**
 * The encoder's settings, identical for every segment: one key frame a segment, no scene-cut key frames. `zerolatency`
 * drops x264's look-ahead and encodes with sliced threads: a cold segment is wanted as soon as possible, and
 * measured about a third faster on the development machine (bench/media.bench.ts).
 */
const SEGMENT_ENCODING = [
  ...H264,
  '-tune',
  'zerolatency',
  '-crf',
  '28',
  '-g',
  String(SEGMENT_FRAMES),
  '-keyint_min',
  String(SEGMENT_FRAMES),
  '-sc_threshold',
  '0',
  '-fflags',
  '+bitexact',
  '-flags:v',
  '+bitexact',
  '-video_track_timescale',
  String(SEGMENT.timescale),
  '-movflags',
  'frag_keyframe+empty_moov+default_base_moof',
  '-f',
  'mp4',
];

const COLORS = ['red', 'yellow', 'cyan', 'lime', 'magenta'];

/** The drawbox filters of the detections within the segment (times relative to its start). */
function boxFilters(spec: SegmentSpec): string[] {
  const px = (permyriad: number, side: number) => Math.round((permyriad / 10_000) * side);
  return spec.boxes.slice(0, 50).map((box, i) => {
    const from = Math.max(0, (box.ts - spec.atMs) / 1000);
    const to = Math.min(SEGMENT.seconds, (box.ts + BOX_SHOWN_MS - spec.atMs) / 1000);
    const x = px(box.l, SEGMENT.width);
    const y = px(box.t, SEGMENT.height);
    const w = Math.max(2, px(box.r, SEGMENT.width) - x);
    const h = Math.max(2, px(box.b, SEGMENT.height) - y);
    return `drawbox=x=${x}:y=${y}:w=${w}:h=${h}:color=${COLORS[i % COLORS.length]}@0.9:t=4:enable='between(t\\,${from.toFixed(3)}\\,${to.toFixed(3)})'`;
  });
}

/**
 * The test pattern is drawn at half the size and scaled up before the boxes and the text: its fine detail at full
 * size is what cost x264 most (a cold segment took about 0.5 s of its 2 s on the development machine, half size
 * about 0.2 s), while the boxes and the burnt-in text stay sharp.
 */
const PATTERN_SIZE = { width: SEGMENT.width / 2, height: SEGMENT.height / 2 };
const UPSCALE = `scale=${SEGMENT.width}:${SEGMENT.height}:flags=fast_bilinear`;

/** Encodes one segment: its initialization part (the same for every segment) and its media part at time 0. */
export async function encodeSegment(spec: SegmentSpec): Promise<{ init: Buffer; media: Buffer }> {
  const file = await renderFile('segment.mp4', (drawText, dir) => {
    const text = drawText ? textFilters(dir, { cameraName: spec.cameraName, atMs: spec.atMs, width: SEGMENT.width, height: SEGMENT.height }) : null;
    const filters = [UPSCALE, ...boxFilters(spec), ...(text ? [text] : [])];
    return ['-f', 'lavfi', '-i', pattern(PATTERN_SIZE, SEGMENT.fps, SEGMENT.seconds), '-vf', filters.join(','), ...SEGMENT_ENCODING];
  });
  return splitFragmented(file);
}

let initSegment: Promise<Buffer> | null = null;

/** `seg_init.mp4`: the initialization segment of every footage segment (encoded once a process). */
export function footageInit(): Promise<Buffer> {
  initSegment ??= renderFile('init.mp4', () => [
    '-f',
    'lavfi',
    '-i',
    `color=black:size=${SEGMENT.width}x${SEGMENT.height}:rate=${SEGMENT.fps}:duration=0.1`,
    ...SEGMENT_ENCODING,
  ])
    .then((file) => splitFragmented(file).init)
    .catch((e: unknown) => {
      initSegment = null;
      throw e;
    });
  return initSegment;
}

/** A media part placed on the presentation's time line: its decode time in ms from the presentation's start, and its number. */
export const placeSegment = (media: Buffer, decodeTimeMs: number, number: number) => placeFragment(media, decodeTimeMs * (SEGMENT.timescale / 1000), number);

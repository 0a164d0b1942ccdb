import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, chmodSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The simulated cameras' pictures: a moving test pattern with the camera's name and the time burnt in,
 * encoded by the ffmpeg binary that ships inside the `@ffmpeg-installer` npm package (nothing is
 * downloaded at run time). Frames are JPEG; clips are H.264 in MP4 (faststart), playable in a browser, or in
 * MPEG-TS for the live segments (src/footage/live.ts). The events domain renders clip videos with `renderClip`
 * and timelapses with `renderTimelapse` (src/footage/render-timelapse.ts).
 */
const require = createRequire(import.meta.url);
let binary: string | null = null;

/** The packaged ffmpeg, made executable if the package manager dropped the mode bit. */
export function ffmpegPath(): string {
  if (binary) return binary;
  const path = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  if ((statSync(path).mode & 0o100) === 0) chmodSync(path, 0o755);
  binary = path;
  return path;
}

const RENDER_TIMEOUT_MS = 60_000;
const MAX_OUTPUT = 256 * 1024 * 1024;

/** Runs the packaged ffmpeg; answers its standard output (a pipe) and error output. */
export function runFfmpeg(args: string[]): Promise<{ stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      ffmpegPath(),
      ['-hide_banner', '-nostdin', ...args],
      { encoding: 'buffer', maxBuffer: MAX_OUTPUT, timeout: RENDER_TIMEOUT_MS },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new Error(
              `ffmpeg failed: ${
                stderr
                  .toString('utf8')
                  .split('\n')
                  .filter((l) => l && !l.startsWith('Fontconfig'))
                  .slice(-3)
                  .join(' ') || error.message
              }`,
            ),
          );
        else resolve({ stdout, stderr: stderr.toString('utf8') });
      },
    );
  });
}

/** A font for the burnt-in text: a common system font, else fontconfig's default. */
const FONT_CANDIDATES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/TTF/DejaVuSans.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
  '/System/Library/Fonts/Supplemental/Arial.ttf',
];
const fontFile = FONT_CANDIDATES.find((f) => existsSync(f));
/** Whether drawtext works here (no font at all makes it fail): then the pattern is rendered without text. */
let textWorks = true;

export interface PictureSpec {
  cameraName: string;
  /** Epoch ms of the (first) frame: the burnt-in clock starts there. */
  atMs: number;
  width: number;
  height: number;
}

/** What is burnt into the picture: the camera's name and the clock (both unless told otherwise). */
export interface TextSpec {
  name?: boolean;
  clock?: boolean;
}

/**
 * The drawtext filters of a picture (null when nothing is to be drawn). The clock reads the frame's own time
 * stamp from `atMs`, so a filter that moves the time stamps first (the timelapse) moves the clock with them;
 * `tag` keeps the name files of several pictures in one render apart.
 */
export function textFilters(dir: string, spec: PictureSpec, text: TextSpec = {}, tag = ''): string | null {
  const nameFile = join(dir, `name${tag}.txt`);
  writeFileSync(nameFile, spec.cameraName.replace(/[\r\n]+/g, ' ').slice(0, 200));
  const font = fontFile ? `fontfile=${fontFile}:` : '';
  const size = Math.max(10, Math.round(spec.height / 14));
  const box = `fontcolor=white:box=1:boxcolor=black@0.6:boxborderw=6:fontsize=${size}`;
  const seconds = Math.floor(spec.atMs / 1000);
  const filters = [
    ...(text.name === false ? [] : [`drawtext=${font}textfile=${nameFile}:${box}:x=${size}:y=${size}`]),
    ...(text.clock === false ? [] : [`drawtext=${font}text='%{pts\\:gmtime\\:${seconds}} UTC':${box}:x=${size}:y=h-${size * 2}`]),
  ];
  return filters.length > 0 ? filters.join(',') : null;
}

/**
 * Runs one render in a fresh directory (the caller removes it): with the burnt-in text (`drawText`), or again
 * without it where drawtext cannot run (no font on the machine).
 */
async function render(args: (drawText: boolean, dir: string) => string[]): Promise<{ dir: string; stdout: Buffer }> {
  const dir = mkdtempSync(join(tmpdir(), 'gh-render-'));
  try {
    if (textWorks) {
      try {
        return { dir, stdout: (await runFfmpeg(args(true, dir))).stdout };
      } catch (e) {
        if (!/drawtext|font/i.test((e as Error).message)) throw e;
        textWorks = false;
      }
    }
    return { dir, stdout: (await runFfmpeg(args(false, dir))).stdout };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

/** The moving test pattern, as a lavfi source. */
export const pattern = (spec: Pick<PictureSpec, 'width' | 'height'>, rate: number, durationSec: number) =>
  `testsrc2=size=${spec.width}x${spec.height}:rate=${rate}:duration=${durationSec}`;
const videoFilters = (filters: string | null) => (filters ? ['-vf', filters] : []);

/** A part of a frame, in permyriad (0-10000) of its width and height from its top left corner. */
export interface FrameCrop {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** ffmpeg's crop of a permyriad region (after the text is burnt in, so the clock shows where it falls). */
const cropFilter = (c: FrameCrop) => `crop=max(2\\,trunc(iw*${c.width}/20000)*2):max(2\\,trunc(ih*${c.height}/20000)*2):iw*${c.x}/10000:ih*${c.y}/10000`;

/** One JPEG frame of the camera at `atMs`, or a part of it; quality 1 (worst) to 100 (best). */
export async function renderFrame(spec: PictureSpec & { quality?: number; crop?: FrameCrop }): Promise<Buffer> {
  const q = Math.round(31 - ((Math.min(100, Math.max(1, spec.quality ?? 80)) - 1) / 99) * 29);
  const { dir, stdout } = await render((text, d) => [
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    pattern(spec, 1, 1),
    ...videoFilters([text ? textFilters(d, spec) : null, spec.crop ? cropFilter(spec.crop) : null].filter(Boolean).join(',') || null),
    '-frames:v',
    '1',
    '-q:v',
    String(q),
    '-f',
    'image2pipe',
    '-c:v',
    'mjpeg',
    'pipe:1',
  ]);
  rmSync(dir, { recursive: true, force: true });
  return stdout;
}

/** The containers a rendered video comes in. */
export type VideoContainer = 'mp4' | 'mpegts';

export interface VideoSpec extends PictureSpec {
  durationSec: number;
  fps?: number;
  /** mp4 (the default: faststart, for a file) or mpegts (a live segment). */
  container?: VideoContainer;
  /**
   * Where the segment's time stamps start (seconds), so that consecutive live segments play on as one stream;
   * MPEG-TS keeps 33 bits of a 90 kHz clock, so they wrap about every 26.5 hours, as a player expects.
   */
  timestampOffsetSec?: number;
}

/**
 * A video (H.264, yuv420p) of `durationSec` seconds of the camera from `atMs`: an MP4 (faststart, playable in a
 * browser) or an MPEG-TS segment starting on a key frame (one key frame a segment).
 */
export async function renderClip(spec: VideoSpec): Promise<Buffer> {
  const fps = spec.fps ?? 10;
  const mpegts = spec.container === 'mpegts';
  return renderFile(mpegts ? 'clip.ts' : 'clip.mp4', (text, dir) => [
    '-f',
    'lavfi',
    '-i',
    pattern(spec, fps, spec.durationSec),
    ...videoFilters(text ? textFilters(dir, spec) : null),
    ...H264,
    ...(mpegts
      ? ['-g', String(Math.max(1, Math.round(fps * spec.durationSec))), '-output_ts_offset', String(spec.timestampOffsetSec ?? 0), '-f', 'mpegts']
      : ['-movflags', '+faststart']),
  ]);
}

/** H.264 as every rendered video has it: fast to encode, and playable in a browser. */
export const H264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];

/** Renders into a file of that name (`args` are ffmpeg's, inputs to output options) and answers its bytes. */
export async function renderFile(name: string, args: (drawText: boolean, dir: string) => string[]): Promise<Buffer> {
  const { dir } = await render((text, d) => ['-loglevel', 'error', ...args(text, d), '-y', join(d, name)]);
  try {
    return readFileSync(join(dir, name));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, chmodSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The simulated cameras' pictures: a moving test pattern with the camera's name and the time burnt in,
 * encoded by the ffmpeg binary that ships inside the `@ffmpeg-installer` npm package (nothing is
 * downloaded at run time). Frames are JPEG; clips are H.264 in MP4 (faststart), playable in a browser.
 * The events domain renders clip videos with `renderClip`.
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

function textFilters(dir: string, spec: PictureSpec): string {
  const nameFile = join(dir, 'name.txt');
  writeFileSync(nameFile, spec.cameraName.replace(/[\r\n]+/g, ' ').slice(0, 200));
  const font = fontFile ? `fontfile=${fontFile}:` : '';
  const size = Math.max(10, Math.round(spec.height / 14));
  const box = `fontcolor=white:box=1:boxcolor=black@0.6:boxborderw=6:fontsize=${size}`;
  const seconds = Math.floor(spec.atMs / 1000);
  return [
    `drawtext=${font}textfile=${nameFile}:${box}:x=${size}:y=${size}`,
    `drawtext=${font}text='%{pts\\:gmtime\\:${seconds}} UTC':${box}:x=${size}:y=h-${size * 2}`,
  ].join(',');
}

/** Renders with the text, or without it where drawtext cannot run (no font on the machine). */
async function render(spec: PictureSpec, args: (filters: string | null, dir: string) => string[]): Promise<{ dir: string; stdout: Buffer }> {
  const dir = mkdtempSync(join(tmpdir(), 'gh-render-'));
  try {
    if (textWorks) {
      try {
        return { dir, stdout: (await runFfmpeg(args(textFilters(dir, spec), dir))).stdout };
      } catch (e) {
        if (!/drawtext|font/i.test((e as Error).message)) throw e;
        textWorks = false;
      }
    }
    return { dir, stdout: (await runFfmpeg(args(null, dir))).stdout };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

const pattern = (spec: PictureSpec, rate: number, durationSec: number) => `testsrc2=size=${spec.width}x${spec.height}:rate=${rate}:duration=${durationSec}`;

/** One JPEG frame of the camera at `atMs`; quality 1 (worst) to 100 (best). */
export async function renderFrame(spec: PictureSpec & { quality?: number }): Promise<Buffer> {
  const q = Math.round(31 - ((Math.min(100, Math.max(1, spec.quality ?? 80)) - 1) / 99) * 29);
  const { dir, stdout } = await render(spec, (filters) => [
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    pattern(spec, 1, 1),
    ...(filters ? ['-vf', filters] : []),
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

/** An MP4 (H.264, yuv420p, faststart) of `durationSec` seconds of the camera from `atMs`. */
export async function renderClip(spec: PictureSpec & { durationSec: number; fps?: number }): Promise<Buffer> {
  const out = (dir: string) => join(dir, 'clip.mp4');
  const { dir } = await render(spec, (filters, d) => [
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    pattern(spec, spec.fps ?? 10, spec.durationSec),
    ...(filters ? ['-vf', filters] : []),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-movflags',
    '+faststart',
    '-y',
    out(d),
  ]);
  try {
    return readFileSync(out(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

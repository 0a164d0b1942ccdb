import { H264, pattern, renderFile, textFilters, type TextSpec } from './render.js';

/** A stretch of the span that is sampled: [from, to) in ms from the span's start. */
export type SampledWindow = readonly [number, number];

export const TIMELAPSE_FORMATS = ['MPEG', 'GIF'] as const;
export type TimelapseFormat = (typeof TIMELAPSE_FORMATS)[number];

export interface TimelapseSpec {
  /** One section per camera, one after the other, each sampling the whole span. */
  cameraNames: readonly string[];
  startMs: number;
  /** The stretches sampled (sorted, disjoint): the whole span, or the span without its nights or weekends. */
  windows: readonly SampledWindow[];
  framesPerCamera: number;
  fps: number;
  width: number;
  height: number;
  format: TimelapseFormat;
  text?: TextSpec;
}

/** The time sampled by each frame stays in the milliseconds a float prints exactly. */
const num = (n: number) => (Math.round(n * 1000) / 1000).toString();

/**
 * The setpts expression that moves frame N to the instant it samples (in seconds from the span's start): the
 * frames are spread evenly over the sampled time (the windows laid end to end), and each window's frames are
 * shifted by the time left out before it. A flat sum of steps, one per window, so that its length grows with the
 * number of windows only.
 */
export function sampleTimeExpression(windows: readonly SampledWindow[], frames: number): string {
  const total = windows.reduce((sum, [from, to]) => sum + (to - from), 0);
  const u = `N*${num(total / frames / 1000)}`;
  let kept = 0;
  let previousShift = 0;
  const terms: string[] = [];
  for (const [i, [from, to]] of windows.entries()) {
    const shift = from - kept;
    terms.push(i === 0 ? num(shift / 1000) : `gte(${u}\\,${num(kept / 1000)})*${num((shift - previousShift) / 1000)}`);
    previousShift = shift;
    kept += to - from;
  }
  return `${u}+${terms.join('+')}`;
}

/**
 * A timelapse of the cameras over a span: `framesPerCamera` frames per camera sampled evenly across the sampled
 * windows, played at `fps`, each showing the camera's name and the instant it samples (the clock is burnt in from
 * the frame's time stamp, which the sampling expression sets). An MP4 (H.264, faststart) or an animated GIF.
 */
export async function renderTimelapse(spec: TimelapseSpec): Promise<Buffer> {
  const gif = spec.format === 'GIF';
  const sampled = sampleTimeExpression(spec.windows, spec.framesPerCamera);
  const graph = (drawText: boolean, dir: string) => {
    const sections = spec.cameraNames.map((cameraName, i) => {
      const text = drawText ? textFilters(dir, { cameraName, atMs: spec.startMs, width: spec.width, height: spec.height }, spec.text, `-${i}`) : null;
      return [
        pattern(spec, spec.fps, spec.framesPerCamera / spec.fps),
        'settb=1/1000',
        `setpts='(${sampled})/TB'`,
        ...(text ? [text] : []),
        `setpts=N/(${spec.fps}*TB)[s${i}]`,
      ].join(',');
    });
    const inputs = spec.cameraNames.map((_, i) => `[s${i}]`).join('');
    return `${sections.join(';')};${inputs}concat=n=${spec.cameraNames.length}:v=1:a=0[out]`;
  };
  return renderFile(gif ? 'timelapse.gif' : 'timelapse.mp4', (drawText, dir) => [
    '-filter_complex',
    graph(drawText, dir),
    '-map',
    '[out]',
    ...(gif ? ['-f', 'gif'] : [...H264, '-movflags', '+faststart']),
  ]);
}

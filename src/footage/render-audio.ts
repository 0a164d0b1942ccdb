import { renderFile } from './render.js';

/** Audio on the media host: at most this long, this long unless asked otherwise. */
export const AUDIO_LIMITS = { maxDurationSec: 60, defaultDurationSec: 10 } as const;

/**
 * The simulated audio gateways' sound: a 440 Hz tone with a higher beep at each second, `durationSec` long,
 * Opus in an Ogg container (48 kHz mono), encoded by the packaged ffmpeg (src/footage/render.ts). Ogg Opus plays
 * in a browser's audio element.
 */
export async function renderAudio(spec: { durationSec: number }): Promise<Buffer> {
  return renderFile('audio.ogg', () => [
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:beep_factor=2:sample_rate=48000:duration=${spec.durationSec}`,
    '-ac',
    '1',
    '-c:a',
    'libopus',
    '-b:a',
    '32k',
    '-f',
    'ogg',
  ]);
}

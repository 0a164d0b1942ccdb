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

/** How long a word takes to say, and the pause between sentences: about 150 words a minute. */
export const SPEECH_PACE = { wordMs: 400, sentencePauseMs: 300 } as const;

/**
 * The sound of a text for the audio gateways: Gatehouse has no voice of its own, so each word is a short tone
 * (its pitch stepping with the word, silent between words) and the clip lasts as long as the text takes to say at
 * SPEECH_PACE. Ogg Opus, 48 kHz mono, as renderAudio.
 */
export async function renderSpokenText(spec: { durationMs: number }): Promise<Buffer> {
  const seconds = Math.max(0.4, spec.durationMs / 1000).toFixed(3);
  const word = SPEECH_PACE.wordMs / 1000;
  const tone = `0.4*sin(2*PI*(200+30*mod(floor(t/${word}),6))*t)*lt(mod(t,${word}),${(word * 0.75).toFixed(3)})`;
  return renderFile('speech.ogg', () => [
    '-f',
    'lavfi',
    '-i',
    `aevalsrc='${tone}':s=48000:d=${seconds}`,
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

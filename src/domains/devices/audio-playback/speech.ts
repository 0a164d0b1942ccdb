import { SPEECH_PACE } from '../../../footage/render-audio.js';

/** What a text to be spoken comes to: the words said and the pauses asked for. */
export interface Speech {
  words: number;
  pauseMs: number;
}

const TAG = /<\/?([A-Za-z][\w:-]*)([^>]*?)(\/?)>/g;
const MAX_BREAK_MS = 10_000;

/** Plain text: its words, and a pause after each sentence. */
export function plainSpeech(text: string): Speech {
  const words = text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  const sentences = (text.match(/[.!?]+(\s|$)/g) ?? []).length;
  return { words, pauseMs: sentences * SPEECH_PACE.sentencePauseMs };
}

/**
 * SSML: a `<speak>` document whose tags nest and close, comments and the XML declaration aside; its text is
 * spoken as plain text, and each `<break time="..."/>` (ms or s, at most 10 s) adds its pause. Answers the
 * problem instead when the markup is not valid.
 */
export function ssmlSpeech(ssml: string): Speech | { problem: string } {
  const body = ssml
    .replace(/<\?xml[^>]*\?>/, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .trim();
  const open: string[] = [];
  let pauseMs = 0;
  let text = '';
  let last = 0;
  let rootSeen = false;
  for (const m of body.matchAll(TAG)) {
    const [whole, name, attrs, selfClosing] = m;
    const before = body.slice(last, m.index);
    if (open.length === 0 && before.trim()) return { problem: 'text outside the <speak> element' };
    text += ` ${before}`;
    last = m.index + whole.length;
    if (whole.startsWith('</')) {
      if (open.pop() !== name) return { problem: `</${name}> closes no open <${name}>` };
      continue;
    }
    if (open.length === 0) {
      if (rootSeen || name !== 'speak') return { problem: 'the document must be one <speak> element' };
      rootSeen = true;
    }
    if (name === 'break') {
      const time = /time\s*=\s*"(\d+(?:\.\d+)?)(ms|s)"/.exec(attrs);
      if (time) pauseMs += Math.min(MAX_BREAK_MS, Number(time[1]) * (time[2] === 's' ? 1000 : 1));
    }
    if (!selfClosing) open.push(name);
  }
  if (body.slice(last).trim()) return { problem: 'text outside the <speak> element' };
  if (!rootSeen) return { problem: 'the document must be one <speak> element' };
  if (open.length > 0) return { problem: `<${open[open.length - 1]}> is never closed` };
  if (/[<>]/.test(text)) return { problem: 'a tag is not well formed' };
  const plain = plainSpeech(text.replace(/&[a-z]+;|&#\d+;/g, ' '));
  return { words: plain.words, pauseMs: plain.pauseMs + pauseMs };
}

/** How long a text takes to say. */
export const speechDurationMs = (s: Speech) => s.words * SPEECH_PACE.wordMs + s.pauseMs;

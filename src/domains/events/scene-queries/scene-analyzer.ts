import type { Config } from '../../../config.js';
import { fail } from '../../../errors.js';
import { renderFrame } from '../../../footage/render.js';
import { outboundPolicy, sendOutbound } from '../../../net/outbound.js';
import type { PromptType } from './schemas.js';

const ANSWER_TIMEOUT_MS = 15_000;

/** What the scene analyzer is asked: a prompt about one camera's picture at a moment. */
export interface SceneQuestion {
  orgUuid: string;
  cameraUuid: string;
  cameraName: string;
  timestampMs: number;
  prompt: string;
  promptType: PromptType;
  region?: unknown;
}

/**
 * Asks the organization's video-analytics system (GATEHOUSE_ANALYTICS_API_URL, the system the video-analytics
 * integration hands its key to) to answer a prompt about the camera's picture at the moment: `POST
 * {url}/v1/prompts/answer` with the question and the frame (a JPEG, base-64), answered `{value}`. Gatehouse
 * has no model of its own: without that system, or when it does not answer, the prompt cannot be run.
 */
export async function askSceneAnalyzer(
  config: Pick<Config, 'analyticsApiUrl' | 'allowPrivateOutbound' | 'allowLoopbackOutbound'>,
  q: SceneQuestion,
): Promise<string> {
  const base = config.analyticsApiUrl;
  if (!base) throw fail('NOT_ALLOWED', 'no scene analyzer: set GATEHOUSE_ANALYTICS_API_URL to the video-analytics system that answers prompts');
  const frame = await renderFrame({ cameraName: q.cameraName, atMs: q.timestampMs, width: 640, height: 360 });
  const body = {
    orgUuid: q.orgUuid,
    cameraUuid: q.cameraUuid,
    timestampMs: q.timestampMs,
    prompt: q.prompt,
    promptType: q.promptType,
    region: q.region ?? null,
    image: { contentType: 'image/jpeg', base64: frame.toString('base64') },
  };
  let answer: unknown;
  try {
    const response = await sendOutbound(
      { method: 'POST', url: `${base.replace(/\/+$/, '')}/v1/prompts/answer`, json: body, timeoutMs: ANSWER_TIMEOUT_MS },
      outboundPolicy(config),
    );
    if (response.status < 200 || response.status >= 300) throw new Error(`HTTP ${response.status}`);
    answer = (JSON.parse(response.body) as { value?: unknown }).value;
  } catch (e) {
    throw fail('NOT_ALLOWED', `the scene analyzer did not answer: ${(e as Error).message.slice(0, 200)}`);
  }
  if (typeof answer === 'string' || typeof answer === 'number' || typeof answer === 'boolean') return String(answer);
  throw fail('NOT_ALLOWED', 'the scene analyzer answered no value');
}

/** A turn of the prompt-optimization chat. */
export interface ChatTurn {
  role: string;
  text: string;
}

/** What the optimizer answers: a better prompt and why, or a question back to the user. */
export interface PromptAdvice {
  optimizedPrompt: string | null;
  explanation: string | null;
  questionForUser: string | null;
}

/**
 * Asks the same video-analytics system to improve a prompt that answered wrongly: `POST
 * {url}/v1/prompts/optimize` with the prompt, its wrong and expected answers, the camera's picture at the moment
 * (when the chat names one) and the chat so far, answered `{optimizedPrompt, explanation, questionForUser}`.
 */
export async function askPromptOptimizer(
  config: Pick<Config, 'analyticsApiUrl' | 'allowPrivateOutbound' | 'allowLoopbackOutbound'>,
  q: {
    orgUuid: string;
    context: Record<string, unknown>;
    camera: { uuid: string; name: string; timestampMs: number } | null;
    history: ChatTurn[];
    message: string;
  },
): Promise<PromptAdvice> {
  const base = config.analyticsApiUrl;
  if (!base) throw fail('NOT_ALLOWED', 'no prompt optimizer: set GATEHOUSE_ANALYTICS_API_URL to the video-analytics system that answers prompts');
  const frame = q.camera ? await renderFrame({ cameraName: q.camera.name, atMs: q.camera.timestampMs, width: 640, height: 360 }) : null;
  const body = {
    orgUuid: q.orgUuid,
    context: q.context,
    image: frame ? { contentType: 'image/jpeg', base64: frame.toString('base64') } : null,
    history: q.history,
    message: q.message,
  };
  let answer: Partial<Record<keyof PromptAdvice, unknown>>;
  try {
    const response = await sendOutbound(
      { method: 'POST', url: `${base.replace(/\/+$/, '')}/v1/prompts/optimize`, json: body, timeoutMs: ANSWER_TIMEOUT_MS },
      outboundPolicy(config),
    );
    if (response.status < 200 || response.status >= 300) throw new Error(`HTTP ${response.status}`);
    answer = JSON.parse(response.body) as typeof answer;
  } catch (e) {
    throw fail('NOT_ALLOWED', `the prompt optimizer did not answer: ${(e as Error).message.slice(0, 200)}`);
  }
  const text = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v.slice(0, 10_000) : null);
  const advice = { optimizedPrompt: text(answer.optimizedPrompt), explanation: text(answer.explanation), questionForUser: text(answer.questionForUser) };
  if (!advice.optimizedPrompt && !advice.questionForUser) throw fail('NOT_ALLOWED', 'the prompt optimizer answered neither a prompt nor a question');
  return advice;
}

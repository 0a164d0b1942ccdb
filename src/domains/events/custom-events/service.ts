import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet, facetId, isRuuid, newRuuid } from '../../../ids.js';
import type { Activity } from '../../../schemas/activities.js';
import type { ReadSource } from '../../../store/reader.js';
import { write, type Actor } from '../../../bus/write.js';
import { findDevice, type DeviceRecord } from '../../devices/service.js';
import type { PolicyAlertRecord } from '../alerts/schemas.js';
import { createPolicyAlert } from '../alerts/service.js';
import { askSceneAnalyzer } from '../scene-queries/scene-analyzer.js';
import type { CustomEventRecord, PromptConfigurationRecord, PromptType, SceneQueryReportEventRecord } from '../scene-queries/schemas.js';
import { findPrompt } from '../scene-queries/service.js';
import * as store from '../scene-queries/store.js';
import type { CustomEventsTable } from '../tables.js';

/** The stream's entity of a custom event (a prompt's answer on a camera). */
export const CUSTOM_EVENT_ENTITY = 'CUSTOM_EVENT';

type Condition = { operator: string; value: string };
type EventDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** An answer read as its prompt type says: the text kept, and its number (BOOLEAN 1 or 0; TEXT none). */
export function readAnswer(type: PromptType, raw: string): { value: string; numeric: number | null } {
  const text = raw.trim();
  const refuse = (what: string) => fail('INVALID_VALUE', `the answer "${text.slice(0, 100)}" is not ${what}`);
  if (type === 'BOOLEAN') {
    if (/^(true|yes)$/i.test(text)) return { value: 'true', numeric: 1 };
    if (/^(false|no)$/i.test(text)) return { value: 'false', numeric: 0 };
    throw refuse('true or false (a BOOLEAN prompt)');
  }
  if (type === 'COUNT') {
    if (!/^\d{1,9}$/.test(text)) throw refuse('a whole number of at least 0 (a COUNT prompt)');
    return { value: String(Number(text)), numeric: Number(text) };
  }
  if (type === 'PERCENT') {
    const n = Number(text);
    if (!/^\d+(\.\d+)?$/.test(text) || n > 100) throw refuse('a percentage from 0 to 100 (a PERCENT prompt)');
    return { value: String(n), numeric: n };
  }
  if (text.length === 0 || text.length > 2000) throw refuse('a text of 1 to 2000 characters');
  return { value: text, numeric: null };
}

/** Whether an answer meets a check condition (conditions are checked against the prompt type when saved). */
export function meets(type: PromptType, condition: Condition, answer: { value: string; numeric: number | null }): boolean {
  const wanted = condition.value.trim();
  if (type === 'TEXT') {
    const [a, b] = [answer.value.toLowerCase(), wanted.toLowerCase()];
    return condition.operator === 'CONTAINS' ? a.includes(b) : a === b;
  }
  if (type === 'BOOLEAN') return answer.value === wanted.toLowerCase();
  const [n, w] = [answer.numeric!, Number(wanted)];
  return { GT: n > w, GTE: n >= w, LT: n < w, LTE: n <= w, EQ: n === w }[condition.operator] ?? false;
}

/** What the prompt asks of this camera, and with which condition: the camera's override or extension, else the prompt's. */
export function promptOnCamera(prompt: PromptConfigurationRecord, cameraUuid: string): { text: string; condition: Condition | null } {
  const own = prompt.cameraConfigurations?.find((c) => c.cameraUuid === facetId(cameraUuid));
  const base = own?.promptOverride ?? prompt.prompt;
  return {
    text: own?.promptExtension ? `${base} ${own.promptExtension}` : base,
    condition: (own?.checkConditionOverride ?? prompt.checkCondition ?? null) as Condition | null,
  };
}

/** The trigger of the alert a met condition raises. */
function alertTrigger(type: PromptType, condition: Condition, answer: { value: string }): Activity {
  if (type === 'BOOLEAN') return answer.value === 'true' ? 'CUSTOM_LLM_BOOLEAN_TRUE' : 'CUSTOM_LLM_BOOLEAN_FALSE';
  if (type === 'TEXT') return 'CUSTOM';
  return condition.operator === 'LT' || condition.operator === 'LTE' ? 'CUSTOM_LLM_THRESHOLD_EXCEEDED_LOW' : 'CUSTOM_LLM_THRESHOLD_EXCEEDED_HIGH';
}

export function toCustomEvent(row: CustomEventsTable, type: PromptType): CustomEventRecord {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    promptUuid: row.prompt_uuid,
    promptType: type,
    deviceFacetUuid: facetId(row.device_uuid),
    locationUuid: row.location_uuid,
    timestampMs: Number(row.timestamp_ms),
    value: row.value,
    checkCondition: row.check_result === null ? null : row.check_result === 1,
    prompt: row.prompt_text,
    image: null,
    imageOffsets: [],
  };
}

export interface RecordedCustomEvent {
  customEvent: CustomEventRecord;
  /** The CUSTOM_LLM_* alert raised when the answer met the condition of an active prompt. */
  policyAlert: PolicyAlertRecord | null;
}

/**
 * A prompt's answer on a camera: what a camera reports when its prompt ran (the simulator's `custom-event`), and
 * what adHocPrompt records once the scene analyzer answered. Read as the prompt type says, checked against the
 * camera's (or the prompt's) condition, recorded (CUSTOM_EVENT), and, when the condition is met and the prompt is
 * active, raised as a CUSTOM_LLM_* policy alert with the answer (cllm* fields) in the same write, which reaches
 * rules, notifications and integrations as any alert does.
 */
export async function recordCustomEvent(
  deps: EventDeps,
  actor: Actor,
  input: { cameraUuid: string; promptUuid: string; value: string; timestampMs?: number },
): Promise<RecordedCustomEvent> {
  return write(deps, actor, async (w) => {
    const camera = await findDevice(w, actor.orgUuid, input.cameraUuid, ['CAMERA']);
    if (!camera) throw fail('NOT_FOUND', 'Camera');
    const prompt = await findPrompt(w, actor.orgUuid, input.promptUuid);
    if (!prompt) throw fail('NOT_FOUND', 'Prompt configuration');
    const answer = readAnswer(prompt.promptType, input.value);
    const asked = promptOnCamera(prompt, camera.uuid);
    const met = asked.condition ? meets(prompt.promptType, asked.condition, answer) : null;
    const row: CustomEventsTable = {
      uuid: newRuuid(),
      org_uuid: actor.orgUuid,
      prompt_uuid: prompt.uuid,
      device_uuid: camera.uuid,
      location_uuid: camera.locationUuid,
      timestamp_ms: input.timestampMs ?? w.nowMs,
      value: answer.value,
      numeric_value: answer.numeric,
      check_result: met === null ? null : met ? 1 : 0,
      prompt_text: asked.text,
    };
    await store.insertCustomEvent(w.tx, row);
    const customEvent = toCustomEvent(row, prompt.promptType);
    w.change({
      entity: CUSTOM_EVENT_ENTITY,
      entityUuid: row.uuid,
      type: 'CREATE',
      deviceUuid: camera.uuid,
      update: customEvent,
      timestampMs: row.timestamp_ms,
    });
    if (!met || prompt.active === false) return { customEvent, policyAlert: null };
    const policyAlert = await createPolicyAlert(w, {
      deviceUuid: camera.uuid,
      policyAlertTriggers: [alertTrigger(prompt.promptType, asked.condition!, answer)],
      timestampMs: row.timestamp_ms,
      textDescription: `${prompt.name}: ${answer.value} on ${camera.name}`,
      cllmPromptUuid: prompt.uuid,
      cllmPromptTypeEnum: prompt.promptType,
      cllmCheckCondition: asked.condition as PolicyAlertRecord['cllmCheckCondition'],
      ...(prompt.promptType === 'BOOLEAN' ? { cllmBooleanValue: answer.value === 'true' } : {}),
      ...(answer.numeric !== null && prompt.promptType !== 'BOOLEAN' ? { cllmIntegerValue: Math.round(answer.numeric) } : {}),
    });
    return { customEvent, policyAlert };
  });
}

async function cameraOf(source: ReadSource, orgUuid: string, ref: string): Promise<DeviceRecord> {
  const uuid = isRuuid(ref) ? ref : deviceOfFacet(ref);
  const camera = uuid ? await findDevice(source, orgUuid, uuid, ['CAMERA']) : null;
  if (!camera) throw fail('NOT_FOUND', 'Camera');
  return camera;
}

/** adHocPrompt: runs a prompt of the organization on a camera now (or at timestampMs) and records the answer. */
export async function adHocPrompt(
  deps: EventDeps & Pick<Deps, 'config'>,
  ctx: CallerContext,
  input: { deviceFacetUuid: string; promptUuid: string; timestampMs?: number | null },
): Promise<SceneQueryReportEventRecord> {
  const camera = await cameraOf(deps, ctx.orgUuid, input.deviceFacetUuid);
  const prompt = await findPrompt(deps, ctx.orgUuid, input.promptUuid);
  if (!prompt) throw fail('NOT_FOUND', 'Prompt configuration');
  const timestampMs = input.timestampMs ?? deps.clock.now();
  const asked = promptOnCamera(prompt, camera.uuid);
  const value = await askSceneAnalyzer(deps.config, {
    orgUuid: ctx.orgUuid,
    cameraUuid: facetId(camera.uuid),
    cameraName: camera.name,
    timestampMs,
    prompt: asked.text,
    promptType: prompt.promptType,
  });
  return (await recordCustomEvent(deps, ctx, { cameraUuid: camera.uuid, promptUuid: prompt.uuid, value, timestampMs })).customEvent;
}

/** triggerPrompt: asks a prompt that is not saved of a camera; the answer is returned, not recorded (it has no prompt to file it under). */
export async function triggerPrompt(
  deps: Pick<Deps, 'store' | 'clock' | 'config'>,
  ctx: CallerContext,
  input: { deviceFacetUuid: string; prompt: string; promptType: PromptType; region?: unknown; timestampMs?: number | null },
): Promise<SceneQueryReportEventRecord> {
  const camera = await cameraOf(deps, ctx.orgUuid, input.deviceFacetUuid);
  const timestampMs = input.timestampMs ?? deps.clock.now();
  const raw = await askSceneAnalyzer(deps.config, {
    orgUuid: ctx.orgUuid,
    cameraUuid: facetId(camera.uuid),
    cameraName: camera.name,
    timestampMs,
    prompt: input.prompt,
    promptType: input.promptType,
    region: input.region,
  });
  const answer = readAnswer(input.promptType, raw);
  return { uuid: null, timestampMs, value: answer.value, checkCondition: null, prompt: input.prompt, image: null, imageOffsets: [] };
}

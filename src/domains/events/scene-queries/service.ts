import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet, facetId, isRuuid, newRuuid } from '../../../ids.js';
import { fromJson, toJson } from '../../../store/columns.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { findDevice } from '../../devices/service.js';
import type { ScheduleUse } from '../../schedules/schedule-usage.js';
import type { PromptConfigurationInput, PromptConfigurationRecord, PromptType } from './schemas.js';
import * as store from './store.js';
import type { PromptConfigurationsTable } from '../tables.js';
import { forgetRecord, type RecordFinder } from '../../../records/references.js';
import { orgUuidsIn } from '../../../store/org-uuids.js';

/** The stream's entity of a prompt configuration. */
export const PROMPT_CONFIGURATION_ENTITY = 'PROMPT_CONFIGURATION';

type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;
type Condition = { operator: string; value: string };

const COLUMN_FIELDS = new Set(['uuid', 'orgUuid', 'name', 'promptType']);

export function toPromptRecord(row: PromptConfigurationsTable): PromptConfigurationRecord {
  return {
    active: true,
    ...(fromJson<Record<string, unknown>>(row.details) ?? {}),
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    name: row.name,
    promptType: row.prompt_type as PromptType,
  } as PromptConfigurationRecord;
}

const NUMERIC = /^-?\d+(\.\d+)?$/;

/** Why a check condition cannot be checked against answers of the prompt type, or null when it can. */
export function conditionProblem(type: PromptType, condition: Condition): string | null {
  const { operator, value } = condition;
  if (type === 'TEXT') return operator === 'CONTAINS' || operator === 'EQ' ? null : `a TEXT prompt is checked with CONTAINS or EQ, not ${operator}`;
  if (operator === 'CONTAINS') return `CONTAINS checks TEXT prompts only, not ${type}`;
  if (type === 'BOOLEAN') return operator === 'EQ' && /^(true|false)$/i.test(value) ? null : 'a BOOLEAN prompt is checked with EQ true or EQ false';
  return NUMERIC.test(value.trim()) ? null : `${operator} needs a number to compare the ${type} answers with, got "${value}"`;
}

/**
 * Checks a configuration against the organization (its cameras; the edge checks its schedule) and its prompt
 * type (its conditions), and answers what is stored.
 */
async function checkedFields(source: ReadSource, orgUuid: string, input: Omit<PromptConfigurationInput, 'uuid' | 'orgUuid'>) {
  const cameras = [];
  for (const c of input.cameraConfigurations ?? []) {
    const uuid = isRuuid(c.cameraUuid) ? c.cameraUuid : deviceOfFacet(c.cameraUuid);
    const camera = uuid ? await findDevice(source, orgUuid, uuid, ['CAMERA']) : null;
    if (!camera) throw fail('NOT_FOUND', `Camera ${c.cameraUuid}`);
    if (c.checkConditionOverride) {
      const problem = conditionProblem(input.promptType, c.checkConditionOverride);
      if (problem) throw fail('INVALID_VALUE', `cameraConfigurations checkConditionOverride: ${problem}`);
    }
    cameras.push({ ...c, cameraUuid: facetId(camera.uuid) });
  }
  if (new Set(cameras.map((c) => c.cameraUuid)).size !== cameras.length) throw fail('INVALID_VALUE', 'cameraConfigurations: a camera is configured twice');
  if (input.checkCondition) {
    const problem = conditionProblem(input.promptType, input.checkCondition);
    if (problem) throw fail('INVALID_VALUE', `checkCondition: ${problem}`);
  }
  const fields = { ...input, cameraConfigurations: cameras, active: input.active ?? true };
  return Object.fromEntries(Object.entries(fields).filter(([k, v]) => v !== undefined && v !== null && !COLUMN_FIELDS.has(k))) as Record<string, unknown>;
}

function rowOf(w: WriteScope, uuid: string, createdAtMs: number, input: Omit<PromptConfigurationInput, 'uuid' | 'orgUuid'>, details: Record<string, unknown>) {
  return {
    uuid,
    org_uuid: w.actor.orgUuid,
    name: input.name,
    prompt_type: input.promptType,
    details: toJson(details)!,
    created_at_ms: createdAtMs,
    updated_at_ms: w.nowMs,
  };
}

/** createPromptConfiguration: a new prompt of the organization (a uuid or orgUuid given is not used). */
export async function createPrompt(deps: WriteDeps, ctx: CallerContext, input: PromptConfigurationInput): Promise<PromptConfigurationRecord> {
  return write(deps, ctx, async (w) => {
    const row = rowOf(w, newRuuid(), w.nowMs, input, await checkedFields(w, ctx.orgUuid, input));
    await store.insertPrompt(w.tx, row);
    const record = toPromptRecord(row);
    w.change({ entity: PROMPT_CONFIGURATION_ENTITY, entityUuid: row.uuid, type: 'CREATE', update: record });
    return record;
  });
}

/** The record finder of kind prompt (src/records/references.ts). */
export const findPromptUuids: RecordFinder = (source, orgUuid, uuids) => orgUuidsIn(dbOf(source), 'prompt_configurations', orgUuid, uuids);

/** A prompt of the organization, read from the store or a write in progress; null for an unknown or foreign one. */
export async function findPrompt(source: ReadSource, orgUuid: string, uuid: string): Promise<PromptConfigurationRecord | null> {
  const row = await store.findPrompt(dbOf(source), orgUuid, uuid);
  return row ? toPromptRecord(row) : null;
}

export async function getPrompt(deps: Pick<Deps, 'store'>, ctx: CallerContext, uuid: string): Promise<PromptConfigurationRecord> {
  const prompt = await findPrompt(deps, ctx.orgUuid, uuid);
  if (!prompt) throw fail('NOT_FOUND', 'Prompt configuration');
  return prompt;
}

export async function listPrompts(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<PromptConfigurationRecord[]> {
  return (await store.listPrompts(deps.store.db, ctx.orgUuid)).map(toPromptRecord);
}

/** The prompts that run on a schedule (`deps.scheduleUsage`): its delete is refused while one does, as for a door's. */
export async function promptsUsingSchedule(source: ReadSource, orgUuid: string, scheduleUuid: string): Promise<ScheduleUse[]> {
  return (await store.listPrompts(dbOf(source), orgUuid))
    .map(toPromptRecord)
    .filter((p) => p.scheduleUuid === scheduleUuid)
    .map((p) => ({ kind: 'customEvent', uuid: p.uuid, label: `prompt "${p.name}"` }));
}

/**
 * updatePromptConfiguration (the whole configuration, by its uuid) and selectiveUpdatePromptConfiguration (the
 * fields given): the answers already recorded stay as they were. A PROMPT_CONFIGURATION UPDATE.
 */
export async function updatePrompt(
  deps: WriteDeps,
  ctx: CallerContext,
  uuid: string | null | undefined,
  patch: Partial<PromptConfigurationInput>,
  whole: boolean,
): Promise<PromptConfigurationRecord> {
  if (!uuid) throw fail('INVALID_VALUE', 'uuid: name the prompt configuration to update');
  return write(deps, ctx, async (w) => {
    const existing = await store.findPrompt(w.tx, ctx.orgUuid, uuid);
    if (!existing) throw fail('NOT_FOUND', 'Prompt configuration');
    const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined && v !== null));
    const merged = (whole ? given : { ...toPromptRecord(existing), ...given }) as PromptConfigurationInput;
    const row = rowOf(w, uuid, Number(existing.created_at_ms), merged, await checkedFields(w, ctx.orgUuid, merged));
    await store.updatePrompt(w.tx, row);
    const record = toPromptRecord(row);
    w.change({ entity: PROMPT_CONFIGURATION_ENTITY, entityUuid: uuid, type: 'UPDATE', update: record });
    return record;
  });
}

/** deletePromptConfiguration: the prompt and every answer recorded of it, and the notification settings that name it let it go. A PROMPT_CONFIGURATION DELETE. */
export async function deletePrompt(deps: WriteDeps & Pick<Deps, 'recordCleaners'>, ctx: CallerContext, uuid: string): Promise<void> {
  await write(deps, ctx, async (w) => {
    const existing = await store.findPrompt(w.tx, ctx.orgUuid, uuid);
    if (!existing) throw fail('NOT_FOUND', 'Prompt configuration');
    await forgetRecord(deps, w, 'prompt', uuid);
    await store.deletePrompt(w.tx, ctx.orgUuid, uuid);
    w.change({ entity: PROMPT_CONFIGURATION_ENTITY, entityUuid: uuid, type: 'DELETE', update: toPromptRecord(existing) });
  });
}

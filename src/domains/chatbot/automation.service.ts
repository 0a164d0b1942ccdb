import type { CallerContext } from '../../context.js';
import { systemActor, type Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { newRuuid } from '../../ids.js';
import { write, type WriteScope } from '../../bus/write.js';
import type { AutomatedPrompt, FrequencyUnit, PromptSettingsInput, PromptUpdateInput } from './schemas.js';
import { askAndKeep, toChatRecord, type WriteDeps } from './service.js';
import * as store from './store.js';
import type { AutomatedPromptsTable } from './tables.js';

type ReadDeps = Pick<Deps, 'store'>;

/** How long each frequency unit is (MONTHS: 30 days). */
const UNIT_MS: Record<FrequencyUnit, number> = {
  MINUTES: 60_000,
  HOURS: 3_600_000,
  DAYS: 86_400_000,
  WEEKS: 7 * 86_400_000,
  MONTHS: 30 * 86_400_000,
};
const DEFAULT_FREQUENCY = { frequency: 1, unit: 'DAYS' as FrequencyUnit };
const PAGE = { default: 20 };
/** The most prompts one sweep of the runner runs (the rest are due still, for the next sweep). */
const SWEEP_LIMIT = 100;

const periodMs = (row: Pick<AutomatedPromptsTable, 'frequency_value' | 'frequency_unit'>) => row.frequency_value * UNIT_MS[row.frequency_unit as FrequencyUnit];

/** The first run at or after `nowMs` on the prompt's schedule (invokeAtMs plus whole periods). */
export function nextRunAfter(row: Pick<AutomatedPromptsTable, 'invoke_at_ms' | 'frequency_value' | 'frequency_unit'>, nowMs: number): number {
  const start = Number(row.invoke_at_ms);
  if (start > nowMs) return start;
  const period = periodMs(row);
  return start + Math.floor((nowMs - start) / period + 1) * period;
}

export function toAutomatedPrompt(row: AutomatedPromptsTable): AutomatedPrompt {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    prompt: row.prompt,
    responseTemplate: row.response_template,
    invokeAtMs: Number(row.invoke_at_ms),
    frequency: { frequency: row.frequency_value, unit: row.frequency_unit as FrequencyUnit },
    permissionGroupUuid: row.permission_group_uuid,
    followUpActions: JSON.parse(row.follow_up_actions) as AutomatedPrompt['followUpActions'],
    scheduleUuid: null,
    nextRunAtMs: Number(row.next_run_ms),
    createdAtMs: Number(row.created_at_ms),
    updatedAtMs: Number(row.updated_at_ms),
  };
}

function announce(w: WriteScope, row: AutomatedPromptsTable, type: 'CREATE' | 'UPDATE' | 'DELETE'): void {
  w.change({ entity: 'AUTOMATED_PROMPT', entityUuid: row.uuid, type, update: toAutomatedPrompt(row) });
}

async function promptOf(source: Parameters<typeof store.findPrompt>[0], orgUuid: string, uuid: string): Promise<AutomatedPromptsTable> {
  const row = await store.findPrompt(source, orgUuid, uuid);
  if (!row) throw fail('NOT_FOUND', 'Automated prompt');
  return row;
}

export async function createPrompt(deps: WriteDeps, ctx: CallerContext, input: PromptSettingsInput): Promise<AutomatedPrompt> {
  return write(deps, ctx, async (w) => {
    const frequency = input.frequency ?? DEFAULT_FREQUENCY;
    const invokeAt = input.invokeAtMs ?? w.nowMs;
    const row: AutomatedPromptsTable = {
      uuid: newRuuid(),
      org_uuid: ctx.orgUuid,
      prompt: input.prompt,
      response_template: input.responseTemplate ?? null,
      invoke_at_ms: invokeAt,
      frequency_value: frequency.frequency,
      frequency_unit: frequency.unit,
      permission_group_uuid: input.permissionGroupUuid ?? null,
      follow_up_actions: JSON.stringify(input.followUpActions ?? []),
      // A first run already past is due at once.
      next_run_ms: invokeAt,
      created_at_ms: w.nowMs,
      updated_at_ms: w.nowMs,
    };
    await store.insertPrompt(w.tx, row);
    announce(w, row, 'CREATE');
    return toAutomatedPrompt(row);
  });
}

/** `updateAutomatedPrompt`: sets the fields given (not null); a new first run or frequency moves the next run. */
export async function updatePrompt(deps: WriteDeps, ctx: CallerContext, input: PromptUpdateInput): Promise<AutomatedPrompt> {
  return write(deps, ctx, async (w) => {
    const current = await promptOf(w.tx, ctx.orgUuid, input.uuid);
    const row: AutomatedPromptsTable = {
      ...current,
      prompt: input.prompt ?? current.prompt,
      response_template: input.responseTemplate ?? current.response_template,
      invoke_at_ms: input.invokeAtMs ?? current.invoke_at_ms,
      frequency_value: input.frequency?.frequency ?? current.frequency_value,
      frequency_unit: input.frequency?.unit ?? current.frequency_unit,
      permission_group_uuid: input.permissionGroupUuid ?? current.permission_group_uuid,
      follow_up_actions: input.followUpActions ? JSON.stringify(input.followUpActions) : current.follow_up_actions,
      updated_at_ms: w.nowMs,
    };
    if (input.invokeAtMs != null || input.frequency) row.next_run_ms = nextRunAfter(row, w.nowMs - 1);
    await store.updatePrompt(w.tx, row);
    announce(w, row, 'UPDATE');
    return toAutomatedPrompt(row);
  });
}

/** `deleteAutomatedPrompt`: the prompt and its chat history. */
export async function deletePrompt(deps: WriteDeps, ctx: CallerContext, uuid: string): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await promptOf(w.tx, ctx.orgUuid, uuid);
    await store.deletePromptChats(w.tx, ctx.orgUuid, uuid);
    await store.deletePrompt(w.tx, ctx.orgUuid, uuid);
    announce(w, row, 'DELETE');
  });
}

export async function getPrompt(deps: ReadDeps, ctx: CallerContext, uuid: string): Promise<AutomatedPrompt> {
  return toAutomatedPrompt(await promptOf(deps.store.db, ctx.orgUuid, uuid));
}

interface Page {
  lastEvaluatedKey?: string | null;
  maxPageSize?: number | null;
}

/** A page of the organization's prompts, by uuid; `lastEvaluatedKey` is null on the last page. */
export async function listPrompts(deps: ReadDeps, ctx: CallerContext, page: Page) {
  const size = page.maxPageSize ?? PAGE.default;
  const rows = await store.listPrompts(deps.store.db, ctx.orgUuid, page.lastEvaluatedKey ?? null, size + 1);
  const shown = rows.slice(0, size);
  return { settingsList: shown.map(toAutomatedPrompt), lastEvaluatedKey: rows.length > size ? shown[shown.length - 1]!.uuid : null };
}

/** A page of a prompt's runs, newest first; the key is the last chat's uuid. */
export async function chatHistory(deps: ReadDeps, ctx: CallerContext, input: Page & { promptUuid: string }) {
  await promptOf(deps.store.db, ctx.orgUuid, input.promptUuid);
  const size = input.maxPageSize ?? PAGE.default;
  const after = input.lastEvaluatedKey ? await store.findChat(deps.store.db, ctx.orgUuid, input.lastEvaluatedKey) : null;
  if (input.lastEvaluatedKey && after?.prompt_uuid !== input.promptUuid) throw fail('INVALID_VALUE', 'lastEvaluatedKey: not a key of this history');
  const rows = await store.listPromptChats(deps.store.db, ctx.orgUuid, input.promptUuid, after ?? null, size + 1);
  const shown = rows.slice(0, size);
  return { chatHistory: shown.map(toChatRecord), lastEvaluatedKey: rows.length > size ? shown[shown.length - 1]!.uuid : null };
}

/** `verifyJobScheduled`: the prompt's schedule as a rate expression, in UTC (the runner's clock). */
export async function verifyJobScheduled(deps: ReadDeps, ctx: CallerContext, uuid: string) {
  const row = await promptOf(deps.store.db, ctx.orgUuid, uuid);
  const unit = row.frequency_unit.toLowerCase();
  return { scheduleExpression: `rate(${row.frequency_value} ${row.frequency_value === 1 ? unit.replace(/s$/, '') : unit})`, scheduleTimezone: 'UTC' };
}

/**
 * Runs every prompt due at the clock's now, each as its organization (one chat appended to its history, the next
 * run moved past now, in one write). A prompt changed or deleted meanwhile is left to its new schedule. Answers
 * how many ran.
 */
export async function runDuePrompts(deps: WriteDeps): Promise<number> {
  const nowMs = deps.clock.now();
  let ran = 0;
  for (const due of await store.listDuePrompts(deps.store.db, nowMs, SWEEP_LIMIT)) {
    // The runner reads and writes as its organization's internal caller (no user, no key).
    const actor: CallerContext = { ...systemActor(due.org_uuid, 'chatbot.automation'), keyKind: 'internal', requestId: `chatbot-${due.uuid}-${nowMs}` };
    const query = { query: due.prompt, promptUuid: due.uuid, template: due.response_template };
    const kept = await askAndKeep(deps, actor, query, async (w) => {
      const current = await store.findPrompt(w.tx, due.org_uuid, due.uuid);
      if (!current || Number(current.next_run_ms) !== Number(due.next_run_ms)) return false;
      const row = { ...current, next_run_ms: nextRunAfter(current, nowMs) };
      await store.updatePrompt(w.tx, row);
      announce(w, row, 'UPDATE');
      return true;
    }).catch(() => null);
    if (kept) ran++;
  }
  return ran;
}

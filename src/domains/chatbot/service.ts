import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { newRuuid } from '../../ids.js';
import { write, type WriteScope } from '../../bus/write.js';
import { answerQuestion } from './answerer.js';
import type { ChatRecord, ChatStatus } from './schemas.js';
import * as store from './store.js';
import type { ChatRecordsTable } from './tables.js';

type ReadDeps = Pick<Deps, 'store'>;
export type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** What the timeline's one step says of each ending. */
const STEP: Record<ChatStatus, string> = {
  ANSWERED: "Answered from the organization's records",
  PARTIALLY_ANSWERED: "Answered in part from the organization's records",
  NO_RESPONSE: 'No answer: the question is not one the stand-in reads',
};

export function toChatRecord(row: ChatRecordsTable): ChatRecord {
  const status = row.status as ChatStatus;
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    automatedPromptUuid: row.prompt_uuid,
    contextId: row.context_id,
    query: row.query,
    response: row.response,
    responseType: 'TEXT',
    status,
    privacy: { visibility: row.visibility as 'PRIVATE' },
    queriedAtMs: Number(row.queried_at_ms),
    respondedAtMs: Number(row.responded_at_ms),
    timeline: [{ status, description: STEP[status], timestampMs: Number(row.responded_at_ms) }],
  };
}

/** An automated prompt's template with `{{answer}}` replaced by the answer; without a template, the answer alone. */
const applyTemplate = (template: string | null, answer: string) => (template?.includes('{{answer}}') ? template.replaceAll('{{answer}}', answer) : answer);

/** Answers a question (before the write: the answer reads the organization's records) and keeps it with its answer. */
export async function askAndKeep(
  deps: WriteDeps,
  ctx: CallerContext,
  input: { query: string; contextId?: string | null; promptUuid?: string; template?: string | null },
  within: (w: WriteScope) => Promise<boolean> = async () => true,
): Promise<ChatRecord | null> {
  const queriedAtMs = deps.clock.now();
  const answer = await answerQuestion(deps, ctx, input.query, queriedAtMs);
  return write(deps, ctx, async (w) => {
    if (!(await within(w))) return null;
    const row: ChatRecordsTable = {
      uuid: newRuuid(),
      org_uuid: ctx.orgUuid,
      prompt_uuid: input.promptUuid ?? null,
      context_id: input.contextId ?? null,
      query: input.query,
      response: applyTemplate(input.template ?? null, answer.response),
      status: answer.status,
      visibility: 'PRIVATE',
      queried_at_ms: queriedAtMs,
      responded_at_ms: w.nowMs,
    };
    await store.insertChat(w.tx, row);
    const record = toChatRecord(row);
    w.change({ entity: 'CHAT_RECORD', entityUuid: row.uuid, type: 'CREATE', update: record });
    return record;
  });
}

/** `submitChat`: the chat is answered at once; its uuid is what getChatRecord reads. */
export async function submitChat(deps: WriteDeps, ctx: CallerContext, input: { query: string; contextId?: string | null }): Promise<string> {
  return (await askAndKeep(deps, ctx, input))!.uuid!;
}

async function chatOf(source: Parameters<typeof store.findChat>[0], orgUuid: string, uuid: string): Promise<ChatRecordsTable> {
  const row = await store.findChat(source, orgUuid, uuid);
  if (!row) throw fail('NOT_FOUND', 'Chat record');
  return row;
}

export async function getChatRecord(deps: ReadDeps, ctx: CallerContext, uuid: string): Promise<ChatRecord> {
  return toChatRecord(await chatOf(deps.store.db, ctx.orgUuid, uuid));
}

/** `shareAutomatedPromptResponse`: sets who may see a chat (an automated prompt's run's). */
export async function shareChat(deps: WriteDeps, ctx: CallerContext, uuid: string, visibility: string): Promise<ChatRecord> {
  return write(deps, ctx, async (w) => {
    const row = await chatOf(w.tx, ctx.orgUuid, uuid);
    if (!row.prompt_uuid) throw fail('INVALID_VALUE', 'chatUuid: only the response of an automated prompt is shared');
    await store.setChatVisibility(w.tx, ctx.orgUuid, uuid, visibility);
    const record = toChatRecord({ ...row, visibility });
    w.change({ entity: 'CHAT_RECORD', entityUuid: uuid, type: 'UPDATE', update: record });
    return record;
  });
}

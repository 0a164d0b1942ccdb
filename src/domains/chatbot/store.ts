import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { Tx } from '../../store/reader.js';
import type { AutomatedPromptsTable, ChatRecordsTable } from './tables.js';

type Db = Kysely<DB> | Tx;

export async function insertChat(tx: Tx, row: ChatRecordsTable): Promise<void> {
  await tx.insertInto('chat_records').values(row).execute();
}

export async function findChat(db: Db, orgUuid: string, uuid: string): Promise<ChatRecordsTable | undefined> {
  return db.selectFrom('chat_records').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

export async function setChatVisibility(tx: Tx, orgUuid: string, uuid: string, visibility: string): Promise<void> {
  await tx.updateTable('chat_records').set({ visibility }).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

/** A prompt's chats, newest first, after the key (a chat uuid) of the previous page. */
export async function listPromptChats(db: Db, orgUuid: string, promptUuid: string, after: ChatRecordsTable | null, limit: number): Promise<ChatRecordsTable[]> {
  let q = db.selectFrom('chat_records').selectAll().where('org_uuid', '=', orgUuid).where('prompt_uuid', '=', promptUuid);
  if (after) {
    q = q.where((eb) =>
      eb.or([eb('queried_at_ms', '<', after.queried_at_ms), eb.and([eb('queried_at_ms', '=', after.queried_at_ms), eb('uuid', '<', after.uuid)])]),
    );
  }
  return q.orderBy('queried_at_ms', 'desc').orderBy('uuid', 'desc').limit(limit).execute();
}

export async function deletePromptChats(tx: Tx, orgUuid: string, promptUuid: string): Promise<void> {
  await tx.deleteFrom('chat_records').where('org_uuid', '=', orgUuid).where('prompt_uuid', '=', promptUuid).execute();
}

export async function insertPrompt(tx: Tx, row: AutomatedPromptsTable): Promise<void> {
  await tx.insertInto('automated_prompts').values(row).execute();
}

export async function findPrompt(db: Db, orgUuid: string, uuid: string): Promise<AutomatedPromptsTable | undefined> {
  return db.selectFrom('automated_prompts').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

/** The organization's prompts by uuid, after the key (a prompt uuid) of the previous page. */
export async function listPrompts(db: Db, orgUuid: string, afterUuid: string | null, limit: number): Promise<AutomatedPromptsTable[]> {
  let q = db.selectFrom('automated_prompts').selectAll().where('org_uuid', '=', orgUuid);
  if (afterUuid) q = q.where('uuid', '>', afterUuid);
  return q.orderBy('uuid').limit(limit).execute();
}

export async function updatePrompt(tx: Tx, row: AutomatedPromptsTable): Promise<void> {
  const { uuid, org_uuid, ...rest } = row;
  await tx.updateTable('automated_prompts').set(rest).where('org_uuid', '=', org_uuid).where('uuid', '=', uuid).execute();
}

export async function deletePrompt(tx: Tx, orgUuid: string, uuid: string): Promise<void> {
  await tx.deleteFrom('automated_prompts').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

/** Prompts of every organization due at `nowMs`, oldest due first. */
export async function listDuePrompts(db: Db, nowMs: number, limit: number): Promise<AutomatedPromptsTable[]> {
  return db.selectFrom('automated_prompts').selectAll().where('next_run_ms', '<=', nowMs).orderBy('next_run_ms').orderBy('uuid').limit(limit).execute();
}

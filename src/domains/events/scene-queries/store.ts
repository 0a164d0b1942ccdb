import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { CustomEventsTable, PromptConfigurationsTable } from '../tables.js';

type Db = Kysely<DB>;

export async function insertPrompt(db: Db, row: PromptConfigurationsTable): Promise<void> {
  await db.insertInto('prompt_configurations').values(row).execute();
}

export async function findPrompt(db: Db, orgUuid: string, uuid: string): Promise<PromptConfigurationsTable | undefined> {
  return db.selectFrom('prompt_configurations').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

export async function listPrompts(db: Db, orgUuid: string): Promise<PromptConfigurationsTable[]> {
  return db.selectFrom('prompt_configurations').selectAll().where('org_uuid', '=', orgUuid).orderBy('name').orderBy('uuid').execute();
}

export async function updatePrompt(db: Db, row: PromptConfigurationsTable): Promise<void> {
  await db
    .updateTable('prompt_configurations')
    .set({ name: row.name, prompt_type: row.prompt_type, details: row.details, updated_at_ms: row.updated_at_ms })
    .where('org_uuid', '=', row.org_uuid)
    .where('uuid', '=', row.uuid)
    .execute();
}

/** Deletes a prompt; its answers go with it (foreign key). */
export async function deletePrompt(db: Db, orgUuid: string, uuid: string): Promise<void> {
  await db.deleteFrom('prompt_configurations').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function insertCustomEvent(db: Db, row: CustomEventsTable): Promise<void> {
  await db.insertInto('custom_events').values(row).execute();
}

export interface CustomEventFilter {
  promptUuid: string | null;
  deviceUuids: readonly string[] | null;
  locationUuid: string | null;
  fromMs: number;
  beforeMs: number;
  /** At most this many rows (the caller asks one more than it allows, to tell "too many"). */
  limit: number;
}

/** The organization's custom events in [fromMs, beforeMs), oldest first, over the by-prompt or by-organization index. */
export async function listCustomEvents(db: Db, orgUuid: string, f: CustomEventFilter): Promise<CustomEventsTable[]> {
  return db
    .selectFrom('custom_events')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .$if(f.promptUuid !== null, (q) => q.where('prompt_uuid', '=', f.promptUuid!))
    .where('timestamp_ms', '>=', f.fromMs)
    .where('timestamp_ms', '<', f.beforeMs)
    .$if(f.deviceUuids !== null, (q) => q.where('device_uuid', 'in', f.deviceUuids!))
    .$if(f.locationUuid !== null, (q) => q.where('location_uuid', '=', f.locationUuid!))
    .orderBy('timestamp_ms')
    .orderBy('uuid')
    .limit(f.limit)
    .execute();
}

import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import { preparedQuery } from '../../../store/prepared-query.js';
import type { RuleEventRecordsTable, RulePausesTable, RulesTable } from './tables.js';

type Db = Kysely<DB>;

/** PostgreSQL answers bigint columns as strings: every time column is read back as a number. */
const ruleRow = (r: RulesTable): RulesTable => ({
  ...r,
  last_fired_at_ms: r.last_fired_at_ms === null ? null : Number(r.last_fired_at_ms),
  created_at_ms: Number(r.created_at_ms),
  updated_at_ms: Number(r.updated_at_ms),
});
const pauseRow = (r: RulePausesTable): RulePausesTable => ({ ...r, start_ms: Number(r.start_ms), duration_secs: Number(r.duration_secs) });
const recordRow = (r: RuleEventRecordsTable): RuleEventRecordsTable => ({ ...r, triggered_at_ms: Number(r.triggered_at_ms) });

export async function insertRule(db: Db, row: RulesTable): Promise<void> {
  await db.insertInto('rules').values(row).execute();
}

const ruleByUuid = preparedQuery(2, (db, orgUuid: string, uuid: string) =>
  db.selectFrom('rules').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid),
);
const rulesOfOrg = preparedQuery(1, (db, orgUuid: string) =>
  db.selectFrom('rules').selectAll().where('org_uuid', '=', orgUuid).orderBy('name').orderBy('uuid'),
);

/** A point read: each webhook attempt of a rule reads it (its OAuth credentials). */
export async function findRule(db: Db, orgUuid: string, uuid: string): Promise<RulesTable | undefined> {
  const row = (await ruleByUuid(db, orgUuid, uuid))[0];
  return row && ruleRow(row);
}

/** A point read: the runner reads the organization's rules on every activity (a busy organization's, once a turn). */
export async function listRules(db: Db, orgUuid: string): Promise<RulesTable[]> {
  return (await rulesOfOrg(db, orgUuid)).map(ruleRow);
}

export async function updateRule(
  db: Db,
  orgUuid: string,
  uuid: string,
  changes: Partial<Omit<RulesTable, 'uuid' | 'org_uuid' | 'created_at_ms'>>,
): Promise<void> {
  await db.updateTable('rules').set(changes).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function deleteRule(db: Db, orgUuid: string, uuid: string): Promise<void> {
  await db.deleteFrom('rules').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function insertPause(db: Db, row: RulePausesTable): Promise<void> {
  await db.insertInto('rule_pauses').values(row).execute();
}

export async function listPauses(db: Db, orgUuid: string, ruleUuid?: string): Promise<RulePausesTable[]> {
  return (
    await db
      .selectFrom('rule_pauses')
      .selectAll()
      .where('org_uuid', '=', orgUuid)
      .$if(ruleUuid !== undefined, (q) => q.where('rule_uuid', '=', ruleUuid!))
      .orderBy('start_ms')
      .orderBy('uuid')
      .execute()
  ).map(pauseRow);
}

export async function findPause(db: Db, orgUuid: string, uuid: string): Promise<RulePausesTable | undefined> {
  const row = await db.selectFrom('rule_pauses').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
  return row && pauseRow(row);
}

export async function deletePause(db: Db, orgUuid: string, uuid: string): Promise<void> {
  await db.deleteFrom('rule_pauses').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

/**
 * Claims a rule's firing on a source event: inserts its record unless one exists for the same rule and
 * source (another instance heard the same event). True for the one caller whose insert went in.
 */
export async function claimEventRecord(db: Db, row: RuleEventRecordsTable): Promise<boolean> {
  const result = await db
    .insertInto('rule_event_records')
    .values(row)
    .onConflict((oc) => oc.columns(['rule_uuid', 'source_uuid']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function setEventRecord(db: Db, orgUuid: string, uuid: string, record: string): Promise<void> {
  await db.updateTable('rule_event_records').set({ record }).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function findEventRecord(db: Db, orgUuid: string, uuid: string): Promise<RuleEventRecordsTable | undefined> {
  const row = await db.selectFrom('rule_event_records').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
  return row && recordRow(row);
}

export async function deleteEventRecord(db: Db, orgUuid: string, uuid: string): Promise<void> {
  await db.deleteFrom('rule_event_records').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

/** Records newest first, narrowed to rules or devices (`associated`), a time range (start inclusive, end exclusive) and a count. */
export async function listEventRecords(
  db: Db,
  orgUuid: string,
  filter: { associated: readonly string[] | null; ruleUuid: string | null; startMs: number | null; endMs: number | null; limit: number },
): Promise<RuleEventRecordsTable[]> {
  if (filter.associated && filter.associated.length === 0) return [];
  const rows = await db
    .selectFrom('rule_event_records')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .$if(filter.associated !== null, (q) => q.where((eb) => eb.or([eb('rule_uuid', 'in', filter.associated!), eb('device_uuid', 'in', filter.associated!)])))
    .$if(filter.ruleUuid !== null, (q) => q.where('rule_uuid', '=', filter.ruleUuid!))
    .$if(filter.startMs !== null, (q) => q.where('triggered_at_ms', '>=', filter.startMs!))
    .$if(filter.endMs !== null, (q) => q.where('triggered_at_ms', '<', filter.endMs!))
    .orderBy('triggered_at_ms', 'desc')
    .orderBy('uuid', 'desc')
    .limit(filter.limit)
    .execute();
  return rows.map(recordRow);
}

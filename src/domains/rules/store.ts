import { sql, type Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import { preparedQuery } from '../../store/prepared-query.js';
import type { ButtonPressesTable, ButtonRulesTable, RelayOverridesTable, RuleFiringsTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertRule(db: Db, row: ButtonRulesTable, scheduleUuids: readonly string[]): Promise<void> {
  await db.insertInto('button_rules').values(row).execute();
  if (scheduleUuids.length === 0) return;
  await db
    .insertInto('button_rule_schedules')
    .values(scheduleUuids.map((schedule_uuid) => ({ rule_uuid: row.uuid, schedule_uuid, org_uuid: row.org_uuid })))
    .execute();
}

const buttonRuleByUuid = preparedQuery(2, (db, orgUuid: string, uuid: string) =>
  db.selectFrom('button_rules').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid),
);

/** A point read: each webhook attempt of a rule looks for it among the button rules first. */
export async function findRule(db: Db, orgUuid: string, uuid: string): Promise<ButtonRulesTable | undefined> {
  return (await buttonRuleByUuid(db, orgUuid, uuid))[0];
}

/** The rules of one button, or of every button of the organization when `sensorUuid` is null. */
export async function listRules(db: Db, orgUuid: string, sensorUuid: string | null): Promise<ButtonRulesTable[]> {
  return db
    .selectFrom('button_rules')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .$if(sensorUuid !== null, (q) => q.where('sensor_uuid', '=', sensorUuid!))
    .orderBy('sensor_uuid')
    .orderBy('created_at_ms')
    .orderBy('uuid')
    .execute();
}

export async function deleteRule(db: Db, orgUuid: string, uuid: string): Promise<void> {
  await db.deleteFrom('button_rule_schedules').where('org_uuid', '=', orgUuid).where('rule_uuid', '=', uuid).execute();
  await db.deleteFrom('button_rules').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

/** The rules that filter on a schedule (the schedules domain's usage check). */
export async function listRulesUsingSchedule(db: Db, orgUuid: string, scheduleUuid: string): Promise<Array<{ uuid: string; name: string | null }>> {
  return db
    .selectFrom('button_rule_schedules')
    .innerJoin('button_rules', 'button_rules.uuid', 'button_rule_schedules.rule_uuid')
    .select(['button_rules.uuid', 'button_rules.name'])
    .where('button_rule_schedules.org_uuid', '=', orgUuid)
    .where('button_rule_schedules.schedule_uuid', '=', scheduleUuid)
    .orderBy('button_rules.name')
    .orderBy('button_rules.uuid')
    .execute();
}

/**
 * Claims a firing of a rule (a button rule, or a general rule of `rules`) at `nowMs`: succeeds only when the
 * back-off since its last firing has passed. One conditional UPDATE, so two instances evaluating the same event
 * race on the row and one wins. Firings that run side by side may claim out of their times' order: the last firing
 * kept is the latest, and a rule without a back-off always passes.
 */
export async function claimFiring(
  db: Db,
  table: 'button_rules' | 'rules',
  orgUuid: string,
  uuid: string,
  nowMs: number,
  backoffSecs: number,
): Promise<boolean> {
  const result = await db
    .updateTable(table as 'button_rules')
    .set({ last_fired_at_ms: sql<number>`case when last_fired_at_ms > ${nowMs} then last_fired_at_ms else ${nowMs} end` })
    .where('org_uuid', '=', orgUuid)
    .where('uuid', '=', uuid)
    .$if(backoffSecs > 0, (q) => q.where((eb) => eb.or([eb('last_fired_at_ms', 'is', null), eb('last_fired_at_ms', '<=', nowMs - backoffSecs * 1000)])))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function insertPress(db: Db, row: ButtonPressesTable): Promise<void> {
  await db.insertInto('button_presses').values(row).execute();
}

export async function listPresses(
  db: Db,
  orgUuid: string,
  sensorUuid: string,
  range: { afterMs: number | null; beforeMs: number | null; limit: number },
): Promise<ButtonPressesTable[]> {
  return db
    .selectFrom('button_presses')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('sensor_uuid', '=', sensorUuid)
    .$if(range.afterMs !== null, (q) => q.where('timestamp_ms', '>', range.afterMs!))
    .$if(range.beforeMs !== null, (q) => q.where('timestamp_ms', '<', range.beforeMs!))
    .orderBy('timestamp_ms', 'desc')
    .orderBy('uuid', 'desc')
    .limit(range.limit)
    .execute();
}

export async function insertFiring(db: Db, row: RuleFiringsTable): Promise<void> {
  await db.insertInto('rule_firings').values(row).execute();
}

export async function setFiringOutcomes(db: Db, orgUuid: string, uuid: string, outcomes: string): Promise<void> {
  await db.updateTable('rule_firings').set({ outcomes }).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function listFirings(db: Db, orgUuid: string, sensorUuid: string, limit: number): Promise<RuleFiringsTable[]> {
  return db
    .selectFrom('rule_firings')
    .selectAll()
    .where('org_uuid', '=', orgUuid)
    .where('sensor_uuid', '=', sensorUuid)
    .orderBy('fired_at_ms', 'desc')
    .orderBy('uuid', 'desc')
    .limit(limit)
    .execute();
}

const webhookSecretOf = preparedQuery(1, (db, orgUuid: string) => db.selectFrom('webhook_secrets').select('sealed_secret').where('org_uuid', '=', orgUuid));

/** A point read: every webhook attempt signs with it. */
export async function findWebhookSecret(db: Db, orgUuid: string): Promise<string | undefined> {
  return (await webhookSecretOf(db, orgUuid))[0]?.sealed_secret;
}

/** Stores the organization's signing secret; `replace` decides whether an existing one is overwritten. */
export async function putWebhookSecret(db: Db, orgUuid: string, sealed: string, nowMs: number, replace: boolean): Promise<void> {
  await db
    .insertInto('webhook_secrets')
    .values({ org_uuid: orgUuid, sealed_secret: sealed, created_at_ms: nowMs })
    .onConflict((oc) => (replace ? oc.column('org_uuid').doUpdateSet({ sealed_secret: sealed, created_at_ms: nowMs }) : oc.column('org_uuid').doNothing()))
    .execute();
}

export async function insertRelayOverride(db: Db, row: RelayOverridesTable): Promise<void> {
  await db.insertInto('relay_overrides').values(row).execute();
}

/** Every relay waiting to be turned back, in every organization: what a starting instance re-arms. */
export async function listRelayOverrides(db: Db): Promise<RelayOverridesTable[]> {
  const rows = await db.selectFrom('relay_overrides').selectAll().orderBy('restore_at_ms').execute();
  return rows.map((r) => ({ ...r, restore_at_ms: Number(r.restore_at_ms) }));
}

/** Takes an override to turn its relay back: true for the one instance whose delete removed it. */
export async function takeRelayOverride(db: Db, uuid: string): Promise<boolean> {
  const result = await db.deleteFrom('relay_overrides').where('uuid', '=', uuid).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Replaces a button rule's action (JSON, secrets still sealed). */
export async function updateRuleAction(db: Db, orgUuid: string, uuid: string, action: string, nowMs: number): Promise<void> {
  await db.updateTable('button_rules').set({ action, updated_at_ms: nowMs }).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

import type { ExpressionBuilder, Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { AccessRefType, AccessRuleKind, AccessRuleRefsTable, AccessRulesTable } from './tables.js';

type Db = Kysely<DB>;

export async function insertRule(db: Db, row: AccessRulesTable): Promise<void> {
  await db.insertInto('access_rules').values(row).execute();
}

export type RulePatch = Pick<AccessRulesTable, 'name' | 'location_uuid' | 'schedule_uuid' | 'location_wide' | 'updated_at_ms'>;

export async function updateRule(db: Db, orgUuid: string, uuid: string, patch: RulePatch): Promise<void> {
  await db.updateTable('access_rules').set(patch).where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

export async function deleteRule(db: Db, orgUuid: string, uuid: string): Promise<void> {
  await db.deleteFrom('access_rule_refs').where('org_uuid', '=', orgUuid).where('rule_uuid', '=', uuid).execute();
  await db.deleteFrom('access_rules').where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).execute();
}

/** Replaces what a rule names. */
export async function replaceRefs(db: Db, orgUuid: string, ruleUuid: string, refs: readonly AccessRuleRefsTable[]): Promise<void> {
  await db.deleteFrom('access_rule_refs').where('org_uuid', '=', orgUuid).where('rule_uuid', '=', ruleUuid).execute();
  if (refs.length > 0)
    await db
      .insertInto('access_rule_refs')
      .values([...refs])
      .execute();
}

export async function findRule(db: Db, orgUuid: string, kind: AccessRuleKind, uuid: string): Promise<AccessRulesTable | undefined> {
  return db.selectFrom('access_rules').selectAll().where('org_uuid', '=', orgUuid).where('kind', '=', kind).where('uuid', '=', uuid).executeTakeFirst();
}

/** What each of the rules names, in one query. */
export async function listRefsOfRules(db: Db, ruleUuids: readonly string[]): Promise<AccessRuleRefsTable[]> {
  if (ruleUuids.length === 0) return [];
  return db.selectFrom('access_rule_refs').selectAll().where('rule_uuid', 'in', ruleUuids).orderBy('ref_type').orderBy('ref_id').execute();
}

/** A reference a rule may hold: any of the ids, of the type. */
export interface RefMatch {
  type: AccessRefType;
  ids: readonly string[];
}

/**
 * Which rules a finder answers. Every condition given must hold: `locationUuid` is the rule's location;
 * `names` holds when the rule names any of the references; `covers` holds when the rule covers a door or
 * landing standing at a location (the rule is location-wide there, or names one of the references).
 */
export interface RuleQuery {
  locationUuid?: string;
  names?: readonly RefMatch[];
  covers?: { locationUuid: string; refs: readonly RefMatch[] };
}

function namesAny(eb: ExpressionBuilder<DB, 'access_rules'>, refs: readonly RefMatch[]) {
  const wanted = refs.filter((r) => r.ids.length > 0);
  // Naming none of nothing: a condition no rule meets (booleans are not bound on SQLite).
  if (wanted.length === 0) return eb('access_rules.uuid', '=', '');
  return eb.exists(
    eb
      .selectFrom('access_rule_refs')
      .select('access_rule_refs.rule_uuid')
      .whereRef('access_rule_refs.rule_uuid', '=', 'access_rules.uuid')
      .where((ref) => ref.or(wanted.map((r) => ref.and([ref('access_rule_refs.ref_type', '=', r.type), ref('access_rule_refs.ref_id', 'in', r.ids)])))),
  );
}

/** The organization's rules of a kind that the query selects, by name then uuid. */
export async function listRules(db: Db, orgUuid: string, kind: AccessRuleKind, q: RuleQuery): Promise<AccessRulesTable[]> {
  let query = db.selectFrom('access_rules').selectAll().where('org_uuid', '=', orgUuid).where('kind', '=', kind);
  if (q.locationUuid !== undefined) query = query.where('location_uuid', '=', q.locationUuid);
  if (q.names) {
    const names = q.names;
    query = query.where((eb) => namesAny(eb, names));
  }
  if (q.covers) {
    const { locationUuid, refs } = q.covers;
    query = query.where('location_uuid', '=', locationUuid).where((eb) => eb.or([eb('location_wide', '=', 1), namesAny(eb, refs)]));
  }
  return query.orderBy('name').orderBy('uuid').execute();
}

/** Every rule and reference of the organization: what the badge decision's view is built from. */
export async function listOrgRules(db: Db, orgUuid: string): Promise<{ rules: AccessRulesTable[]; refs: AccessRuleRefsTable[] }> {
  const rules = await db.selectFrom('access_rules').selectAll().where('org_uuid', '=', orgUuid).orderBy('name').orderBy('uuid').execute();
  const refs = await db.selectFrom('access_rule_refs').selectAll().where('org_uuid', '=', orgUuid).execute();
  return { rules, refs };
}

/** How many grants and revocations the location has, by kind. */
export async function countRulesAt(db: Db, orgUuid: string, locationUuid: string): Promise<Array<{ kind: AccessRuleKind; count: number }>> {
  const rows = await db
    .selectFrom('access_rules')
    .select(['kind', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('org_uuid', '=', orgUuid)
    .where('location_uuid', '=', locationUuid)
    .groupBy('kind')
    .orderBy('kind')
    .execute();
  return rows.map((r) => ({ kind: r.kind, count: Number(r.count) }));
}

/** The organization's rules that hold a reference. */
export async function listRulesNaming(db: Db, orgUuid: string, type: AccessRefType, id: string): Promise<AccessRulesTable[]> {
  return db
    .selectFrom('access_rules')
    .selectAll('access_rules')
    .where('access_rules.org_uuid', '=', orgUuid)
    .where('access_rules.uuid', 'in', (q) =>
      q
        .selectFrom('access_rule_refs')
        .select('access_rule_refs.rule_uuid')
        .where('access_rule_refs.org_uuid', '=', orgUuid)
        .where('ref_type', '=', type)
        .where('ref_id', '=', id),
    )
    .orderBy('access_rules.uuid')
    .execute();
}

/** Takes a reference out of every rule of the organization that holds it. */
export async function deleteRefsTo(db: Db, orgUuid: string, type: AccessRefType, id: string): Promise<void> {
  await db.deleteFrom('access_rule_refs').where('org_uuid', '=', orgUuid).where('ref_type', '=', type).where('ref_id', '=', id).execute();
}

/** The names of the organization's rules that hold a reference (to refuse deleting what they name). */
export async function listRuleNamesNaming(db: Db, orgUuid: string, type: AccessRefType, id: string): Promise<Array<{ kind: AccessRuleKind; name: string }>> {
  return db
    .selectFrom('access_rules')
    .innerJoin('access_rule_refs', 'access_rule_refs.rule_uuid', 'access_rules.uuid')
    .select(['access_rules.kind', 'access_rules.name'])
    .where('access_rule_refs.org_uuid', '=', orgUuid)
    .where('access_rule_refs.ref_type', '=', type)
    .where('access_rule_refs.ref_id', '=', id)
    .orderBy('access_rules.name')
    .execute();
}

export async function listRulesUsingSchedule(
  db: Db,
  orgUuid: string,
  scheduleUuid: string,
): Promise<Array<{ uuid: string; kind: AccessRuleKind; name: string }>> {
  return db
    .selectFrom('access_rules')
    .select(['uuid', 'kind', 'name'])
    .where('org_uuid', '=', orgUuid)
    .where('schedule_uuid', '=', scheduleUuid)
    .orderBy('name')
    .execute();
}

export async function writeAccessVersion(db: Db, orgUuid: string, version: string): Promise<void> {
  await db
    .insertInto('access_rule_versions')
    .values({ org_uuid: orgUuid, version })
    .onConflict((oc) => oc.column('org_uuid').doUpdateSet({ version }))
    .execute();
}

export async function readAccessVersion(db: Db, orgUuid: string): Promise<string> {
  const row = await db.selectFrom('access_rule_versions').select('version').where('org_uuid', '=', orgUuid).executeTakeFirst();
  return row?.version ?? '';
}

import type { ExpressionBuilder, Kysely } from 'kysely';
import type { ActionMatch, ActionPair } from './actions.js';
import type { AuditLogTable } from '../../store/change-tables.js';
import type { DB } from '../../store/schema.js';
import { preparedQuery } from '../../store/prepared-query.js';

type Db = Kysely<DB>;

export type AuditRow = Omit<AuditLogTable, 'id'> & { id: number };

export interface AuditPageQuery {
  orgUuid: string;
  /** Only rows before this id (the cursor): pages run newest first. */
  beforeId: number | null;
  principalUuid?: string;
  targetUuid?: string;
  include?: readonly ActionMatch[];
  exclude?: readonly ActionMatch[];
  afterMs?: number;
  beforeMs?: number;
  limit: number;
}

/**
 * One page of an organization's audit trail, newest first: a range scan of (org_uuid, id), or of
 * (org_uuid, user_uuid, id) / (org_uuid, entity_uuid, id) for one principal or target (migration 0016).
 */
export async function auditPage(db: Db, q: AuditPageQuery): Promise<AuditRow[]> {
  const whole = q.principalUuid === undefined && q.targetUuid === undefined && !q.include?.length && !q.exclude?.length;
  const unbounded = q.afterMs === undefined && q.beforeMs === undefined;
  let rows: AuditRow[];
  if (whole && unbounded) rows = q.beforeId === null ? await wholeFeed(db, q.orgUuid, q.limit) : await wholeFeedBefore(db, q.orgUuid, q.limit, q.beforeId);
  else rows = await pageQuery(db, q).execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), at_ms: Number(r.at_ms) }));
}

function pageQuery(db: Db, q: AuditPageQuery) {
  let query = db.selectFrom('audit_log').selectAll().where('org_uuid', '=', q.orgUuid);
  if (q.beforeId !== null) query = query.where('id', '<', q.beforeId);
  if (q.principalUuid !== undefined)
    query = query.where((eb) => eb.or([eb('user_uuid', '=', q.principalUuid!), eb('partner_org_uuid', '=', q.principalUuid!)]));
  if (q.targetUuid !== undefined) query = query.where('entity_uuid', '=', q.targetUuid);
  if (q.include?.length) query = query.where((eb) => anyOf(eb, q.include!));
  if (q.exclude?.length) query = query.where((eb) => eb.not(anyOf(eb, q.exclude!)));
  if (q.afterMs !== undefined) query = query.where('at_ms', '>', q.afterMs);
  if (q.beforeMs !== undefined) query = query.where('at_ms', '<', q.beforeMs);
  return query.orderBy('id', 'desc').limit(q.limit);
}

// The whole feed's pages (no filter), as clients poll it: compiled once per dialect (src/store/prepared-query.ts).
const wholeFeed = preparedQuery(2, (db, orgUuid: string, limit: number) => pageQuery(db, { orgUuid, beforeId: null, limit }));
const wholeFeedBefore = preparedQuery(3, (db, orgUuid: string, limit: number, beforeId: number) => pageQuery(db, { orgUuid, beforeId, limit }));

/** Whether a row is of any of the matches: a pair, or none of a list of pairs. */
function anyOf(eb: ExpressionBuilder<DB, 'audit_log'>, matches: readonly ActionMatch[]) {
  const isPair = (p: ActionPair) => eb.and([eb('entity', '=', p.entity), eb('action', '=', p.action)]);
  return eb.or(matches.map((m) => ('noneOf' in m ? eb.not(eb.or(m.noneOf.map(isPair))) : isPair(m))));
}

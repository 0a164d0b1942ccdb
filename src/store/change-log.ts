import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { ChangeEvent, ChangeType } from './change-event.js';
import { insertInChunks, insertReturningIds, MAX_BIND_PARAMETERS } from './chunks.js';
import type { DialectName } from './database.js';
import { committing } from './postgres-dialect.js';
import { preparedInsert, preparedQuery } from './prepared-query.js';
import type { DB } from './schema.js';

/** A change about to be logged: everything but the id and position the log gives it. */
export type LoggedChange = Omit<ChangeEvent, 'id' | 'position'>;

export type AuditRow = Insertable<DB['audit_log']>;

// The statements of SQLite's path, compiled once (prepared-query.ts): Kysely's build and compile of each cost more
// than SQLite takes to run it. A big write (a site file) leaves thousands of rows: they go in chunks under the
// bind-parameter limit, built as usual.
const AUDIT_COLUMNS = [
  'at_ms',
  'org_uuid',
  'user_uuid',
  'api_key_id',
  'partner_org_uuid',
  'operation',
  'entity',
  'entity_uuid',
  'action',
  'source_ip',
  'user_agent',
];
const CHANGE_COLUMNS = ['org_uuid', 'position', 'logged_at_ms', 'entity', 'entity_uuid', 'type', 'device_uuid', 'timestamp_ms', 'payload'];
const preparedAudit = preparedInsert('audit_log', AUDIT_COLUMNS);
const preparedChanges = preparedInsert('change_events', CHANGE_COLUMNS, 'id');
const preparedBump = preparedQuery(2, (db, org: string, n: number) =>
  db
    .insertInto('change_positions')
    .values({ org_uuid: org, last_position: n })
    .onConflict((oc) => oc.column('org_uuid').doUpdateSet({ last_position: sql<number>`change_positions.last_position + ${n}` }))
    .returning('last_position'),
);

const preparedLastPosition = preparedQuery(1, (db, org: string) => db.selectFrom('change_positions').select('last_position').where('org_uuid', '=', org));

/**
 * The organization's last change position (0: none yet). A write that changes anything of the organization logs
 * a change, which moves it in the write's own transaction: an answer built after reading it stays current for as
 * long as the position stays the same (what the camera list's cache keys on).
 */
export async function lastChangePosition(db: Kysely<DB>, orgUuid: string): Promise<number> {
  const rows = await preparedLastPosition(db, orgUuid);
  return Number(rows[0]?.last_position ?? 0);
}

const preparedEntitiesSince = preparedQuery(3, (db, org: string, after: number, limit: number) =>
  db.selectFrom('change_events').select('entity').where('org_uuid', '=', org).where('position', '>', after).orderBy('position').limit(limit),
);

/**
 * The entities the organization's changes after `position` were of, in position order, or null when there are
 * more than `limit` of them: for a cache that stays current through changes of entities it does not hold.
 */
export async function entitiesChangedSince(db: Kysely<DB>, orgUuid: string, position: number, limit: number): Promise<string[] | null> {
  const rows = await preparedEntitiesSince(db, orgUuid, position, limit + 1);
  return rows.length > limit ? null : rows.map((r) => r.entity);
}

/** A write's audit rows, when it logs no change (or on SQLite, beside its changes). */
export async function insertAuditRows(tx: Transaction<DB>, rows: AuditRow[]): Promise<void> {
  if (rows.length > MAX_BIND_PARAMETERS / AUDIT_COLUMNS.length) return insertInChunks(tx, 'audit_log', rows);
  await preparedAudit(tx, rows);
}

/** Change rows; answers their ids in the order of `rows` (one insert numbers its rows in order, as insertReturningIds). */
async function insertChangeRows(tx: Transaction<DB>, rows: Insertable<DB['change_events']>[]): Promise<number[]> {
  if (rows.length > MAX_BIND_PARAMETERS / CHANGE_COLUMNS.length) return insertReturningIds(tx, 'change_events', rows);
  return (await preparedChanges(tx, rows)).map((r) => Number(r.id)).sort((a, b) => a - b);
}

/**
 * Appends a write's audit rows and changes to the durable change log, last in its transaction, each change with the
 * next position of its organization. The position counter is one row per organization (`change_positions`): on
 * PostgreSQL its row lock makes the writes of one organization commit in position order (and a rolled-back write
 * gives its positions back), while writes of other organizations never wait on it. Organizations are taken in
 * sorted order, so two writes touching the same ones cannot deadlock. Answers the changes with their ids and
 * positions, in the order given.
 *
 * The lock is held from the counter's update to the commit, and the writes of one organization queue behind it:
 * on PostgreSQL that time is the organization's ceiling of changes per second. So the counter, the change rows and
 * the audit rows go in one statement per organization, the last before COMMIT (two round trips fewer under the
 * lock than a statement each: 131 -> 220 changes per second of one organization with 20 writers on the machine of
 * docs/performance.md). With `commits` (the write runs nothing after it) the last of them goes with the COMMIT
 * (postgres-dialect.ts), so the lock is released as soon as the server has run it, not a round trip later.
 * SQLite has one writer at a time and no data-modifying WITH: one statement each there.
 */
export async function appendToChangeLog(
  tx: Transaction<DB>,
  dialect: DialectName,
  changes: LoggedChange[],
  audits: AuditRow[],
  loggedAtMs: number,
  options: { commits: boolean },
): Promise<ChangeEvent[]> {
  const byOrg = new Map<string, number[]>();
  changes.forEach((c, i) => {
    const indexes = byOrg.get(c.orgUuid);
    if (indexes) indexes.push(i);
    else byOrg.set(c.orgUuid, [i]);
  });
  const out: ChangeEvent[] = new Array(changes.length);
  if (dialect === 'sqlite') {
    await insertAuditRows(tx, audits);
    const next = new Map<string, number>();
    for (const org of [...byOrg.keys()].sort()) next.set(org, await bumpPosition(tx, org, byOrg.get(org)!.length));
    const positions = changes.map((c) => {
      const position = next.get(c.orgUuid)!;
      next.set(c.orgUuid, position + 1);
      return position;
    });
    const ids = await insertChangeRows(
      tx,
      changes.map((c, i) => changeRow(c, positions[i]!, loggedAtMs)),
    );
    changes.forEach((c, i) => (out[i] = { id: ids[i]!, position: positions[i]!, ...c }));
    return out;
  }
  let pendingAudits = audits;
  const orgs = [...byOrg.keys()].sort();
  const lastOrg = orgs[orgs.length - 1];
  for (const org of orgs) {
    const indexes = byOrg.get(org)!;
    const rows = await appendOrgPostgres(
      tx,
      org,
      indexes.map((i) => changes[i]!),
      pendingAudits,
      loggedAtMs,
      options.commits && org === lastOrg,
    );
    pendingAudits = [];
    // The n-th change of the organization in this write has the n-th position of the range it took.
    const base = Math.min(...rows.map((r) => Number(r.position)));
    for (const r of rows) {
      const i = indexes[Number(r.position) - base]!;
      out[i] = { id: Number(r.id), position: Number(r.position), ...changes[i]! };
    }
  }
  return out;
}

/** Takes `n` positions of an organization; answers the first. */
async function bumpPosition(tx: Transaction<DB>, orgUuid: string, n: number): Promise<number> {
  const [row] = await preparedBump(tx, orgUuid, n);
  return Number(row!.last_position) - n + 1;
}

function changeRow(c: LoggedChange, position: number, loggedAtMs: number): Insertable<DB['change_events']> {
  return {
    org_uuid: c.orgUuid,
    position,
    logged_at_ms: loggedAtMs,
    entity: c.entity,
    entity_uuid: c.entityUuid,
    type: c.type satisfies ChangeType,
    device_uuid: c.deviceUuid,
    timestamp_ms: c.timestampMs,
    payload: JSON.stringify(c.update ?? null),
  };
}

/**
 * One organization's changes (and the write's audit rows, when given) in one PostgreSQL statement: the counter
 * bumped by their number, and the rows numbered from where it stood. Each column travels as one array parameter
 * (unnest), so that any number of rows fits one statement.
 */
async function appendOrgPostgres(
  tx: Transaction<DB>,
  orgUuid: string,
  changes: LoggedChange[],
  audits: AuditRow[],
  loggedAtMs: number,
  commits: boolean,
): Promise<Array<{ id: number | string; position: number | string }>> {
  const column = <T>(rows: T[], pick: (row: T) => unknown) => rows.map(pick);
  const audit =
    audits.length === 0
      ? sql``
      : sql`audit as (
          insert into audit_log (at_ms, org_uuid, user_uuid, api_key_id, partner_org_uuid, operation, entity, entity_uuid, action, source_ip, user_agent)
          select * from unnest(${column(audits, (a) => a.at_ms)}::bigint[], ${column(audits, (a) => a.org_uuid)}::text[],
            ${column(audits, (a) => a.user_uuid ?? null)}::text[], ${column(audits, (a) => a.api_key_id ?? null)}::text[],
            ${column(audits, (a) => a.partner_org_uuid ?? null)}::text[], ${column(audits, (a) => a.operation)}::text[],
            ${column(audits, (a) => a.entity)}::text[], ${column(audits, (a) => a.entity_uuid)}::text[], ${column(audits, (a) => a.action)}::text[],
            ${column(audits, (a) => a.source_ip ?? null)}::text[], ${column(audits, (a) => a.user_agent ?? null)}::text[])
        ),`;
  const n = changes.length;
  const query = sql<{ id: number | string; position: number | string }>`
    with ${audit} counter as (
      insert into change_positions as cp (org_uuid, last_position) values (${orgUuid}, ${n})
      on conflict (org_uuid) do update set last_position = cp.last_position + excluded.last_position
      returning last_position
    )
    insert into change_events (org_uuid, position, logged_at_ms, entity, entity_uuid, type, device_uuid, timestamp_ms, payload)
    select ${orgUuid}::text, counter.last_position - ${n}::bigint + v.ord, ${loggedAtMs}::bigint, v.entity, v.entity_uuid, v.type, v.device_uuid, v.timestamp_ms, v.payload
    from counter, unnest(${column(changes, (c) => c.entity)}::text[], ${column(changes, (c) => c.entityUuid)}::text[],
      ${column(changes, (c) => c.type)}::text[], ${column(changes, (c) => c.deviceUuid)}::text[],
      ${column(changes, (c) => c.timestampMs)}::bigint[], ${column(changes, (c) => JSON.stringify(c.update ?? null))}::text[])
      with ordinality as v(entity, entity_uuid, type, device_uuid, timestamp_ms, payload, ord)
    order by v.ord
    returning id, position`.compile(tx);
  const { rows } = await tx.executeQuery<{ id: number | string; position: number | string }>(commits ? committing(query) : query);
  return rows;
}

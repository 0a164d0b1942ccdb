import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { ChangeEvent, ChangeType } from './change-event.js';
import { insertInChunks, insertReturningIds, MAX_BIND_PARAMETERS } from './chunks.js';
import type { DialectName } from './database.js';
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
 * SQLite: appends a write's audit rows and changes to the durable change log, last in its transaction, each change
 * with the next position of its organization from its counter row (`change_positions`); SQLite has one writer at a
 * time, so positions commit in order. Organizations are taken in sorted order. Answers the changes with their ids
 * and positions, in the order given. PostgreSQL stages its changes instead (stageChanges), and a positioner numbers
 * them after the commit, in batches (src/bus/change-positioner.ts).
 */
export async function appendToChangeLog(
  tx: Transaction<DB>,
  dialect: DialectName,
  changes: LoggedChange[],
  audits: AuditRow[],
  loggedAtMs: number,
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
  throw new Error('appendToChangeLog numbers changes in the write on SQLite only; PostgreSQL stages them (stageChanges)');
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

const column = <T>(rows: readonly T[], pick: (row: T) => unknown) => rows.map(pick);

/**
 * PostgreSQL: a write's audit rows and its changes, unnumbered (`change_pending`), in one statement that takes no
 * lock: the positioner numbers them once the write has committed (src/bus/change-positioner.ts). Each column
 * travels as one array parameter (unnest), so that any number of rows fits one statement. Answers the changes'
 * pending ids, in the order given.
 */
export async function stageChanges(tx: Transaction<DB>, changes: LoggedChange[], audits: AuditRow[], loggedAtMs: number): Promise<number[]> {
  const audit =
    audits.length === 0
      ? sql``
      : sql`with audit as (
          insert into audit_log (at_ms, org_uuid, user_uuid, api_key_id, partner_org_uuid, operation, entity, entity_uuid, action, source_ip, user_agent)
          select * from unnest(${column(audits, (a) => a.at_ms)}::bigint[], ${column(audits, (a) => a.org_uuid)}::text[],
            ${column(audits, (a) => a.user_uuid ?? null)}::text[], ${column(audits, (a) => a.api_key_id ?? null)}::text[],
            ${column(audits, (a) => a.partner_org_uuid ?? null)}::text[], ${column(audits, (a) => a.operation)}::text[],
            ${column(audits, (a) => a.entity)}::text[], ${column(audits, (a) => a.entity_uuid)}::text[], ${column(audits, (a) => a.action)}::text[],
            ${column(audits, (a) => a.source_ip ?? null)}::text[], ${column(audits, (a) => a.user_agent ?? null)}::text[])
        )`;
  const { rows } = await sql<{ id: number | string }>`
    ${audit}
    insert into change_pending (org_uuid, logged_at_ms, entity, entity_uuid, type, device_uuid, timestamp_ms, payload)
    select v.org_uuid, ${loggedAtMs}::bigint, v.entity, v.entity_uuid, v.type, v.device_uuid, v.timestamp_ms, v.payload
    from unnest(${column(changes, (c) => c.orgUuid)}::text[], ${column(changes, (c) => c.entity)}::text[], ${column(changes, (c) => c.entityUuid)}::text[],
      ${column(changes, (c) => c.type)}::text[], ${column(changes, (c) => c.deviceUuid)}::text[],
      ${column(changes, (c) => c.timestampMs)}::bigint[], ${column(changes, (c) => JSON.stringify(c.update ?? null))}::text[])
      with ordinality as v(org_uuid, entity, entity_uuid, type, device_uuid, timestamp_ms, payload, ord)
    order by v.ord
    returning id`.execute(tx);
  // One insert numbers its rows in the order of its SELECT.
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/** A change the positioner moved into the change log: its row there, and the id it had while pending. */
export interface PositionedRow {
  pending_id: number;
  id: number;
  position: number;
  entity: string;
  entity_uuid: string;
  type: string;
  device_uuid: string | null;
  timestamp_ms: number;
  payload: string;
}

/**
 * PostgreSQL: takes the organization's position lock (its `change_positions` row, held to the commit), then moves
 * every committed change of the organization still pending into the change log, numbered from where the counter
 * stood in the order of their pending ids, and moves the counter past them: two statements for any number of
 * changes. Positioners of one organization (of any instance) queue on the lock, so positions commit in order and
 * without gaps, and the change log's ids, drawn under the lock, follow the positions within an organization as
 * they did when every write numbered its own. Answers the rows moved, in position order.
 */
export async function positionPending(tx: Transaction<DB>, orgUuid: string): Promise<PositionedRow[]> {
  const { rows: locked } = await sql<{ last_position: number | string }>`
    insert into change_positions as cp (org_uuid, last_position) values (${orgUuid}, 0)
    on conflict (org_uuid) do update set last_position = cp.last_position
    returning last_position`.execute(tx);
  const last = Number(locked[0]!.last_position);
  const { rows } = await sql<PositionedRow>`
    with moved as (
      delete from change_pending where org_uuid = ${orgUuid}
      returning id, logged_at_ms, entity, entity_uuid, type, device_uuid, timestamp_ms, payload
    ), numbered as (
      select moved.*, row_number() over (order by moved.id) as ord from moved
    ), bumped as (
      update change_positions set last_position = ${last}::bigint + (select count(*) from moved) where org_uuid = ${orgUuid}
    ), inserted as (
      insert into change_events (org_uuid, position, logged_at_ms, entity, entity_uuid, type, device_uuid, timestamp_ms, payload)
      select ${orgUuid}::text, ${last}::bigint + n.ord, n.logged_at_ms, n.entity, n.entity_uuid, n.type, n.device_uuid, n.timestamp_ms, n.payload
      from numbered n order by n.ord
      returning id, position
    )
    select n.id as pending_id, i.id, i.position, n.entity, n.entity_uuid, n.type, n.device_uuid, n.timestamp_ms, n.payload
    from inserted i join numbered n on n.ord = i.position - ${last}::bigint
    order by i.position`.execute(tx);
  return rows.map((r) => ({ ...r, pending_id: Number(r.pending_id), id: Number(r.id), position: Number(r.position), timestamp_ms: Number(r.timestamp_ms) }));
}

/** Whether the organization has changes committed and not yet numbered. */
export async function hasPendingChanges(db: Kysely<DB>, orgUuid: string): Promise<boolean> {
  return (await db.selectFrom('change_pending').select('id').where('org_uuid', '=', orgUuid).limit(1).executeTakeFirst()) !== undefined;
}

/** The organizations with changes committed and not yet numbered (a positioner's sweep: writers that stopped before theirs). */
export async function orgsWithPendingChanges(db: Kysely<DB>): Promise<string[]> {
  return (await db.selectFrom('change_pending').select('org_uuid').distinct().execute()).map((r) => r.org_uuid);
}

import type { Insertable, Kysely } from 'kysely';
import { preparedQuery } from '../../../store/prepared-query.js';
import type { DB } from '../../../store/schema.js';
import type { DoorEventsTable } from '../tables.js';

type Db = Kysely<DB>;

export async function insertDoorEvents(db: Db, rows: ReadonlyArray<Insertable<DoorEventsTable>>): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('door_events')
    .values([...rows])
    .execute();
}

/** Where a page starts: strictly past this (timestamp, id) in the direction of reading. */
export interface DoorEventKey {
  timestampMs: number;
  id: number;
}

/** The columns an organization's events are found by (component-events.ts names each finder's). */
export type EventColumn =
  | 'door_uuid'
  | 'location_uuid'
  | 'user_uuid'
  | 'owner_device_uuid'
  | 'credential_uuid'
  | 'credential_hex_value'
  | 'credential_value'
  | 'correlation_id'
  | 'api_token_uuid';

export interface DoorEventQuery {
  orgUuid: string;
  /** The events whose column holds the value (one of the values). */
  by: { column: EventColumn; value: string | readonly string[] };
  /** Exclusive bounds on the event's timestamp. */
  afterMs?: number;
  beforeMs?: number;
  types?: readonly string[];
  userUuids?: readonly string[];
  newestFirst: boolean;
  after: DoorEventKey | null;
  limit: number;
}

/**
 * The pages that feeds poll (by one value, from the start or past a cursor, no other filter), compiled once per
 * column and direction (src/store/prepared-query.ts), where Kysely built and compiled them anew for every request.
 */
function preparedPages(column: EventColumn, newestFirst: boolean) {
  const build = (db: Db, orgUuid: string, value: string, limit: number, after: DoorEventKey | null) =>
    pageQuery(db, { orgUuid, by: { column, value }, newestFirst, after, limit });
  return {
    fromStart: preparedQuery(3, (db, orgUuid: string, value: string, limit: number) => build(db, orgUuid, value, limit, null)),
    past: preparedQuery(5, (db, orgUuid: string, value: string, limit: number, timestampMs: number, id: number) =>
      build(db, orgUuid, value, limit, { timestampMs, id }),
    ),
  };
}
const polledPages = new Map<string, ReturnType<typeof preparedPages>>();

/**
 * One page of an organization's events by one column (holding a value, or any of several), in (timestamp, id) order: the id breaks ties between
 * equal timestamps, so that keyset paging neither skips nor repeats an event. Each column has its
 * (org, column, timestamp, id) index; a door's events walk (door, timestamp, id).
 */
export async function pageEvents(db: Db, q: DoorEventQuery): Promise<Array<{ id: number; timestamp_ms: number; payload: string }>> {
  const { column, value } = q.by;
  if (typeof value !== 'string' && value.length === 0) return [];
  const polled = typeof value === 'string' && q.afterMs === undefined && q.beforeMs === undefined && !q.types?.length && !q.userUuids?.length;
  if (!polled) return rowsOf(await pageQuery(db, q).execute());
  const name = `${column} ${q.newestFirst}`;
  const pages = polledPages.get(name) ?? polledPages.set(name, preparedPages(column, q.newestFirst)).get(name)!;
  return rowsOf(
    q.after ? await pages.past(db, q.orgUuid, value, q.limit, q.after.timestampMs, q.after.id) : await pages.fromStart(db, q.orgUuid, value, q.limit),
  );
}

const rowsOf = (rows: ReadonlyArray<{ id: number | bigint; timestamp_ms: number | bigint; payload: string }>) =>
  rows.map((r) => ({ id: Number(r.id), timestamp_ms: Number(r.timestamp_ms), payload: r.payload }));

function pageQuery(db: Db, q: DoorEventQuery) {
  const direction = q.newestFirst ? 'desc' : 'asc';
  const past = q.newestFirst ? '<' : '>';
  const { column, value } = q.by;
  let query = db.selectFrom('door_events').select(['id', 'timestamp_ms', 'payload']).where('org_uuid', '=', q.orgUuid);
  query = typeof value === 'string' ? query.where(column, '=', value) : query.where(column, 'in', value);
  if (q.afterMs !== undefined) query = query.where('timestamp_ms', '>', q.afterMs);
  if (q.beforeMs !== undefined) query = query.where('timestamp_ms', '<', q.beforeMs);
  if (q.types?.length) query = query.where('type', 'in', q.types);
  if (q.userUuids?.length) query = query.where('user_uuid', 'in', q.userUuids);
  const key = q.after;
  // A row-value comparison, which both dialects turn into a seek into the index; the same condition spelled
  // as `timestamp < t or (timestamp = t and id < i)` made SQLite walk the door's newer events up to the cursor.
  if (key) query = query.where((eb) => eb(eb.refTuple('timestamp_ms', 'id'), past, eb.tuple(key.timestampMs, key.id)));
  return query.orderBy('timestamp_ms', direction).orderBy('id', direction).limit(q.limit);
}

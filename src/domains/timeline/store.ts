import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import type { CustomSeekpointsTable, SeekpointTarget } from './tables.js';

type Db = Kysely<DB>;

export async function insertCustomSeekpoints(db: Db, rows: readonly CustomSeekpointsTable[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('custom_seekpoints')
    .values([...rows])
    .execute();
}

export interface CustomSeekpointQuery {
  orgUuid: string;
  /** The marks of these targets (cameras, doors) or, when absent, of these locations. */
  targetUuids?: readonly string[];
  locationUuids?: readonly string[];
  kind?: SeekpointTarget;
  fromMs: number;
  toMs: number;
  name?: string | null;
  description?: string | null;
  limit: number;
}

/**
 * The marks of some targets (or locations) in [fromMs, toMs), ordered as their (org, target | location,
 * time, uuid) index is, so that the read seeks straight to them.
 */
export async function listCustomSeekpoints(db: Db, q: CustomSeekpointQuery): Promise<CustomSeekpointsTable[]> {
  const by = q.targetUuids ? 'target_uuid' : 'location_uuid';
  const values = q.targetUuids ?? q.locationUuids ?? [];
  if (values.length === 0) return [];
  return db
    .selectFrom('custom_seekpoints')
    .selectAll()
    .where('org_uuid', '=', q.orgUuid)
    .where(by, 'in', values)
    .where('timestamp_ms', '>=', q.fromMs)
    .where('timestamp_ms', '<', q.toMs)
    .$if(q.kind !== undefined, (s) => s.where('target_kind', '=', q.kind!))
    .$if(q.name != null, (s) => s.where('name', '=', q.name!))
    .$if(q.description != null, (s) => s.where('description', '=', q.description!))
    .orderBy(by)
    .orderBy('timestamp_ms')
    .orderBy('uuid')
    .limit(q.limit)
    .execute();
}

/** Deletes a target's marks in [fromMs, toMs] (named `name`, when given); answers the rows deleted. */
export async function deleteCustomSeekpoints(
  db: Db,
  q: { orgUuid: string; targetUuid: string; fromMs: number; toMs: number; name?: string | null },
): Promise<CustomSeekpointsTable[]> {
  return db
    .deleteFrom('custom_seekpoints')
    .where('org_uuid', '=', q.orgUuid)
    .where('target_uuid', '=', q.targetUuid)
    .where('timestamp_ms', '>=', q.fromMs)
    .where('timestamp_ms', '<=', q.toMs)
    .$if(q.name != null, (s) => s.where('name', '=', q.name!))
    .returningAll()
    .execute();
}

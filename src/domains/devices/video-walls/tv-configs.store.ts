import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import type { TvosConfigsTable } from './tables.js';

type Db = Kysely<DB>;

export async function findTvConfig(db: Db, orgUuid: string, uuid: string): Promise<TvosConfigsTable | undefined> {
  return db.selectFrom('tvos_configs').selectAll().where('org_uuid', '=', orgUuid).where('uuid', '=', uuid).executeTakeFirst();
}

export async function listTvConfigs(db: Db, orgUuid: string): Promise<TvosConfigsTable[]> {
  return db.selectFrom('tvos_configs').selectAll().where('org_uuid', '=', orgUuid).orderBy('uuid').execute();
}

export async function upsertTvConfig(db: Db, row: TvosConfigsTable): Promise<void> {
  await db
    .insertInto('tvos_configs')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['org_uuid', 'uuid']).doUpdateSet({ limited_video_wall_uuids: row.limited_video_wall_uuids, updated_at_ms: row.updated_at_ms }),
    )
    .execute();
}

/** The organization's configs that name a wall (JSON text match, checked again by the caller). */
export async function listTvConfigsNaming(db: Db, orgUuid: string, wallUuid: string): Promise<TvosConfigsTable[]> {
  return db.selectFrom('tvos_configs').selectAll().where('org_uuid', '=', orgUuid).where('limited_video_wall_uuids', 'like', `%"${wallUuid}"%`).execute();
}

export async function setTvConfigWalls(db: Db, orgUuid: string, uuid: string, walls: string, nowMs: number): Promise<void> {
  await db
    .updateTable('tvos_configs')
    .set({ limited_video_wall_uuids: walls, updated_at_ms: nowMs })
    .where('org_uuid', '=', orgUuid)
    .where('uuid', '=', uuid)
    .execute();
}

export async function findWallUuids(db: Db, orgUuid: string, uuids: readonly string[]): Promise<string[]> {
  if (uuids.length === 0) return [];
  const rows = await db.selectFrom('video_walls').select('uuid').where('org_uuid', '=', orgUuid).where('uuid', 'in', uuids).execute();
  return rows.map((r) => r.uuid);
}

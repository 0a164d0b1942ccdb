import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { fromJson, toJson } from '../../../store/columns.js';
import { write, type WriteScope } from '../../../bus/write.js';
import type { TvosConfigsTable } from './tables.js';
import * as store from './tv-configs.store.js';

/** A TV app's config as the REST API returns it (the catalogue's TvOsConfigType). */
export interface TvConfigRecord {
  uuid: string;
  orgUuid: string;
  limitedVideoWallUuids: string[];
}

const toRecord = (row: TvosConfigsTable): TvConfigRecord => ({
  uuid: row.uuid,
  orgUuid: row.org_uuid,
  limitedVideoWallUuids: fromJson<string[]>(row.limited_video_wall_uuids) ?? [],
});

/** `getTvOsConfig`: one TV's config; a TV the organization has no config for is unknown. */
export async function getTvConfig(deps: Pick<Deps, 'store'>, ctx: CallerContext, uuid: string): Promise<TvConfigRecord> {
  const row = await store.findTvConfig(deps.store.db, ctx.orgUuid, uuid);
  if (!row) throw fail('NOT_FOUND', `TV config ${uuid}`);
  return toRecord(row);
}

export async function listTvConfigs(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<TvConfigRecord[]> {
  return (await store.listTvConfigs(deps.store.db, ctx.orgUuid)).map(toRecord);
}

/**
 * `updateTvOsConfig`: sets a TV's config, made on its first update (the TV app names itself by its uuid, unique
 * within the organization, so another organization's TV of the same id is a different config). Every wall must
 * be one of the organization's.
 */
export async function putTvConfig(
  deps: Pick<Deps, 'store' | 'bus' | 'clock'>,
  ctx: CallerContext,
  config: { uuid: string; orgUuid?: string | null; limitedVideoWallUuids?: string[] | null },
): Promise<TvConfigRecord> {
  if (config.orgUuid != null && config.orgUuid !== ctx.orgUuid) throw fail('NOT_FOUND', `Organization ${config.orgUuid}`);
  const walls = [...new Set(config.limitedVideoWallUuids ?? [])];
  return write(deps, ctx, async (w) => {
    const known = new Set(await store.findWallUuids(w.tx, ctx.orgUuid, walls));
    const missing = walls.findIndex((u) => !known.has(u));
    if (missing >= 0) throw fail('NOT_FOUND', `config.limitedVideoWallUuids[${missing}]: Video wall ${walls[missing]}`);
    const existed = await store.findTvConfig(w.tx, ctx.orgUuid, config.uuid);
    const row: TvosConfigsTable = {
      org_uuid: ctx.orgUuid,
      uuid: config.uuid,
      limited_video_wall_uuids: toJson(walls)!,
      created_at_ms: existed?.created_at_ms ?? w.nowMs,
      updated_at_ms: w.nowMs,
    };
    await store.upsertTvConfig(w.tx, row);
    const record = toRecord(row);
    w.change({ entity: 'TVOS_CONFIG', entityUuid: row.uuid, type: existed ? 'UPDATE' : 'CREATE', update: record });
    return record;
  });
}

/** A deleted video wall leaves the TV configs that were limited to it, in the delete's transaction. */
export async function forgetWallInTvConfigs(w: WriteScope, wallUuid: string): Promise<void> {
  for (const row of await store.listTvConfigsNaming(w.tx, w.actor.orgUuid, wallUuid)) {
    const walls = (fromJson<string[]>(row.limited_video_wall_uuids) ?? []).filter((u) => u !== wallUuid);
    await store.setTvConfigWalls(w.tx, row.org_uuid, row.uuid, toJson(walls)!, w.nowMs);
    w.change({ entity: 'TVOS_CONFIG', entityUuid: row.uuid, type: 'UPDATE', update: { ...toRecord(row), limitedVideoWallUuids: walls } });
  }
}

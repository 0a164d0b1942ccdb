import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet, newRuuid } from '../../../ids.js';
import { fromDbBool, fromJson, toDbBool, toJson } from '../../../store/columns.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write } from '../../../bus/write.js';
import { findUsers } from '../../orgs/service.js';
import { CAMERA_FACETS } from '../cameras/service.js';
import * as devices from '../store.js';
import type { VideoWallsTable } from '../tables.js';
import * as store from './store.js';
import { toVideoWallShareRecord } from '../live-shares/records.js';
import * as shareStore from '../live-shares/store.js';
import { forgetWallInTvConfigs } from './tv-configs.service.js';

type WallDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** A video wall as the REST API returns it (the specification's VideoWall). */
export interface VideoWallRecord {
  uuid: string;
  orgUuid: string;
  displayName: string;
  deviceList: string[];
  ownerUserUuid: string | null;
  othersCanEdit: boolean;
  shared: boolean;
  settings: Record<string, unknown>;
}

export function toVideoWallRecord(row: VideoWallsTable): VideoWallRecord {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    displayName: row.display_name,
    deviceList: fromJson<string[]>(row.device_list) ?? [],
    ownerUserUuid: row.owner_user_uuid,
    othersCanEdit: fromDbBool(row.others_can_edit) ?? false,
    shared: fromDbBool(row.shared) ?? false,
    settings: fromJson<Record<string, unknown>>(row.settings) ?? {},
  };
}

/** A video wall in a request; null means "not given". */
export interface VideoWallFields {
  uuid?: string | null;
  orgUuid?: string | null;
  displayName?: string | null;
  deviceList?: string[] | null;
  ownerUserUuid?: string | null;
  othersCanEdit?: boolean | null;
  shared?: boolean | null;
  settings?: Record<string, unknown> | null;
}

function checkedName(displayName: string): string {
  const name = displayName.trim();
  if (!name) throw fail('INVALID_VALUE', 'videoWall.displayName: must not be empty');
  return name;
}

/** Every entry must be a facet id (`<uuid>.<facet>`) of a camera of the organization, with a facet that cameras stream. */
async function checkDeviceList(source: ReadSource, orgUuid: string, deviceList: readonly string[]): Promise<void> {
  const uuids = [...new Set(deviceList.map(deviceOfFacet).filter((u): u is string => u !== null))];
  const cameras = new Set(await devices.findDeviceUuidsOfKind(dbOf(source), orgUuid, 'CAMERA', uuids));
  for (const [i, entry] of deviceList.entries()) {
    const camera = deviceOfFacet(entry);
    if (!camera || !cameras.has(camera) || !CAMERA_FACETS.includes(entry.slice(entry.indexOf('.') + 1))) {
      throw fail('INVALID_VALUE', `videoWall.deviceList[${i}]: "${entry}" is not a facet id of a camera of this organization`);
    }
  }
}

const isOwner = (wall: VideoWallRecord, ctx: CallerContext) => wall.ownerUserUuid !== null && wall.ownerUserUuid === ctx.userUuid;

/** A wall the caller sees: its own, or a shared one; null for another user's unshared wall or another organization's. */
export async function findVisibleWall(source: ReadSource, ctx: CallerContext, uuid: string): Promise<VideoWallRecord | null> {
  const row = await store.findWall(dbOf(source), ctx.orgUuid, uuid);
  const wall = row ? toVideoWallRecord(row) : null;
  return wall && (isOwner(wall, ctx) || wall.shared) ? wall : null;
}

/**
 * A wall the caller may see (its own, or a shared one) and change: the owner always, others only when
 * `othersCanEdit`. Another organization's wall, or another user's unshared one, is answered as a missing one.
 */
export async function editableWall(source: ReadSource, ctx: CallerContext, fields: Pick<VideoWallFields, 'uuid' | 'orgUuid'>): Promise<VideoWallRecord> {
  const wall = fields.uuid && (fields.orgUuid == null || fields.orgUuid === ctx.orgUuid) ? await findVisibleWall(source, ctx, fields.uuid) : null;
  if (!wall) throw fail('NOT_FOUND', 'Video wall');
  if (!isOwner(wall, ctx) && !wall.othersCanEdit) throw fail('NOT_ALLOWED', `Only the owner may change video wall "${wall.displayName}"`);
  return wall;
}

/** `createVideoWall`: a wall owned by the caller's user. */
export async function createVideoWall(deps: WallDeps, ctx: CallerContext, fields: VideoWallFields & { displayName: string }): Promise<VideoWallRecord> {
  if (fields.orgUuid != null && fields.orgUuid !== ctx.orgUuid) throw fail('NOT_FOUND', 'Organization');
  if (fields.ownerUserUuid != null && fields.ownerUserUuid !== ctx.userUuid) {
    throw fail('INVALID_VALUE', 'videoWall.ownerUserUuid: a video wall is owned by the user who creates it');
  }
  const displayName = checkedName(fields.displayName);
  return write(deps, ctx, async (w) => {
    const deviceList = fields.deviceList ?? [];
    await checkDeviceList(w, ctx.orgUuid, deviceList);
    const row: VideoWallsTable = {
      uuid: newRuuid(),
      org_uuid: ctx.orgUuid,
      owner_user_uuid: ctx.userUuid,
      display_name: displayName,
      device_list: toJson(deviceList)!,
      settings: toJson(fields.settings ?? {})!,
      shared: toDbBool(fields.shared ?? false)!,
      others_can_edit: toDbBool(fields.othersCanEdit ?? false)!,
      created_at_ms: w.nowMs,
      updated_at_ms: w.nowMs,
    };
    await store.insertWall(w.tx, row);
    const record = toVideoWallRecord(row);
    w.change({ entity: 'VIDEO_WALL', entityUuid: row.uuid, type: 'CREATE', update: record });
    return record;
  });
}

/** `updateVideoWalls`: changes the fields given; only the owner changes who shares or edits it, and nobody its owner. */
export async function updateVideoWall(deps: WallDeps, ctx: CallerContext, fields: VideoWallFields): Promise<VideoWallRecord> {
  const displayName = fields.displayName != null ? checkedName(fields.displayName) : undefined;
  return write(deps, ctx, async (w) => {
    const wall = await editableWall(w, ctx, fields);
    if (fields.ownerUserUuid != null && fields.ownerUserUuid !== wall.ownerUserUuid) {
      throw fail('INVALID_VALUE', 'videoWall.ownerUserUuid: the owner of a video wall cannot be changed');
    }
    const changesAccess =
      (fields.shared != null && fields.shared !== wall.shared) || (fields.othersCanEdit != null && fields.othersCanEdit !== wall.othersCanEdit);
    if (changesAccess && !isOwner(wall, ctx)) throw fail('NOT_ALLOWED', `Only the owner may change who shares or edits video wall "${wall.displayName}"`);
    if (fields.deviceList != null) await checkDeviceList(w, ctx.orgUuid, fields.deviceList);
    await store.updateWall(w.tx, wall.uuid, {
      ...(displayName !== undefined ? { display_name: displayName } : {}),
      ...(fields.deviceList != null ? { device_list: toJson(fields.deviceList)! } : {}),
      ...(fields.settings != null ? { settings: toJson(fields.settings)! } : {}),
      ...(fields.shared != null ? { shared: toDbBool(fields.shared)! } : {}),
      ...(fields.othersCanEdit != null ? { others_can_edit: toDbBool(fields.othersCanEdit)! } : {}),
      updated_at_ms: w.nowMs,
    });
    const record = toVideoWallRecord((await store.findWall(w.tx, ctx.orgUuid, wall.uuid))!);
    w.change({ entity: 'VIDEO_WALL', entityUuid: record.uuid, type: 'UPDATE', update: record });
    return record;
  });
}

/** `getVideoWalls`: the caller's walls and the shared ones, with the names of their owners. */
export async function getVideoWalls(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
): Promise<{ videoWalls: VideoWallRecord[]; userNameMap: Record<string, string> }> {
  const videoWalls = (await store.listVisibleWalls(deps.store.db, ctx.orgUuid, ctx.userUuid)).map(toVideoWallRecord);
  const owners = [...new Set(videoWalls.map((w) => w.ownerUserUuid).filter((uuid): uuid is string => !!uuid))];
  const userNameMap = Object.fromEntries((await findUsers(deps, ctx.orgUuid, owners)).map((user) => [user.uuid, user.name]));
  return { videoWalls, userNameMap };
}

/** `deleteVideoWall`: by whoever may change the wall; its share links go with it. */
export async function deleteVideoWall(deps: WallDeps, ctx: CallerContext, uuid: string): Promise<void> {
  await write(deps, ctx, async (w) => {
    const wall = await editableWall(w, ctx, { uuid });
    await store.deleteWall(w.tx, wall.uuid);
    w.change({ entity: 'VIDEO_WALL', entityUuid: wall.uuid, type: 'DELETE', update: wall });
    const shares = await shareStore.listShares(w.tx, ctx.orgUuid, ['VIDEO_WALL'], { videoWallUuid: wall.uuid });
    await shareStore.deleteShares(
      w.tx,
      ctx.orgUuid,
      shares.map((s) => s.uuid),
    );
    for (const share of shares) w.change({ entity: 'SHARED_VIDEO_WALL', entityUuid: share.uuid, type: 'DELETE', update: toVideoWallShareRecord(share) });
    await forgetWallInTvConfigs(w, wall.uuid);
  });
}

/** A video wall of the organization (whoever owns it), or null: for another domain's reference check (a keypad's wall). */
export async function findVideoWall(source: ReadSource, orgUuid: string, uuid: string): Promise<VideoWallRecord | null> {
  const row = await store.findWall(dbOf(source), orgUuid, uuid);
  return row ? toVideoWallRecord(row) : null;
}

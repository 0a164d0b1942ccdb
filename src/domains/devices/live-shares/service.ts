import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet, isRuuid, newRuuid } from '../../../ids.js';
import type { LiveCamera } from '../../../footage/live.js';
import { newShareToken, shareAccess, sharePasswordDigest, type ShareRefusal } from '../../../footage/share-links.js';
import { toDbBool, toJson } from '../../../store/columns.js';
import type { ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { findDevice, findDevices, type DeviceRecord } from '../service.js';
import { livePlaylistPath, liveSharePath, toLiveStreamRecord, toVideoWallShareRecord } from './records.js';
import type { CreateSharedVideoWallRequest, SharedLiveVideoStreamRecord, SharedVideoWallRecord, StreamType } from './schemas.js';
import * as store from './store.js';
import type { DeviceKind, LiveShareKind, SharedLiveStreamsTable } from '../tables.js';
import { editableWall, findVisibleWall, toVideoWallRecord } from '../video-walls/service.js';
import * as walls from '../video-walls/store.js';

/**
 * Shared live video streams (a camera's or a doorbell camera's live video) and shared video walls (the live
 * video of a wall's cameras): links on the media host that answer without an API key, as share links do
 * (src/footage/share-links.ts), until they expire or are deleted. A protected link asks for its password.
 */
type ShareDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** The device kinds a stream link shows. */
export type StreamShareKind = Extract<LiveShareKind, 'CAMERA' | 'DOORBELL_CAMERA'>;
const STREAM_KINDS: readonly StreamShareKind[] = ['CAMERA', 'DOORBELL_CAMERA'];
const LABEL: Record<StreamShareKind, string> = { CAMERA: 'Camera', DOORBELL_CAMERA: 'Doorbell camera' };

/** Whether a link must, may or must not have a password: the protected operations ask for one, the others take none. */
export type Protection = 'required' | 'optional' | 'none';

interface LinkInput {
  expirationTimeSecs?: number | null;
  password?: string | null;
  scheduleUuid?: string | null;
  invertSchedule?: boolean | null;
  ssoProtected?: boolean | null;
  vodEnabled?: boolean | null;
}

/** The link's own columns, after refusing what Gatehouse does not do (schedules, single sign-on). */
function linkColumns(w: WriteScope, input: LinkInput, protection: Protection, other: string) {
  if (input.scheduleUuid != null) throw fail('INVALID_VALUE', 'scheduleUuid: links limited to a schedule are not supported; leave it out');
  if (input.ssoProtected) throw fail('INVALID_VALUE', 'ssoProtected: links behind single sign-on are not supported; use a password');
  const password = input.password ?? '';
  if (protection === 'required' && !password) throw fail('INVALID_VALUE', 'password: a protected link needs one');
  if (protection === 'none' && password) throw fail('INVALID_VALUE', `password: this link is unprotected; use ${other} for a password`);
  return {
    created_at_ms: w.nowMs,
    expires_at_ms: input.expirationTimeSecs != null ? w.nowMs + input.expirationTimeSecs * 1000 : null,
    password_digest: sharePasswordDigest(password),
    share_token: newShareToken(),
    vod_enabled: toDbBool(input.vodEnabled ?? false)!,
  };
}

/** A device of the kind of the caller's organization, named by uuid or facet id; NOT_FOUND for another's. */
async function deviceOf(source: ReadSource, orgUuid: string, kind: StreamShareKind, ref: string): Promise<DeviceRecord> {
  const uuid = isRuuid(ref) ? ref : deviceOfFacet(ref);
  const device = uuid ? await findDevice(source, orgUuid, uuid, [kind as DeviceKind]) : null;
  if (!device) throw fail('NOT_FOUND', LABEL[kind]);
  return device;
}

export interface StreamShareInput extends LinkInput {
  deviceRef: string;
  name?: string | null;
  streamType?: StreamType | null;
  includeAudio?: boolean | null;
  audioGatewayUuid?: string | null;
}

/** createSharedLiveVideoStream (camera or doorbell camera) and createProtectedSharedLiveVideoStream. */
export async function createStreamShare(deps: ShareDeps, ctx: CallerContext, kind: StreamShareKind, input: StreamShareInput, protection: Protection) {
  return write(deps, ctx, async (w) => {
    const device = await deviceOf(w, ctx.orgUuid, kind, input.deviceRef);
    const row: SharedLiveStreamsTable = {
      uuid: newRuuid(),
      org_uuid: ctx.orgUuid,
      kind,
      device_uuid: device.uuid,
      video_wall_uuid: null,
      name: input.name ?? device.name,
      stream_type: input.streamType ?? 'USER',
      ...linkColumns(w, input, protection, 'createProtectedSharedLiveVideoStream'),
      settings: toJson({ includeAudio: input.includeAudio ?? false, audioGatewayUuid: input.audioGatewayUuid ?? null })!,
    };
    await store.insertShare(w.tx, row);
    const record = toLiveStreamRecord(row);
    w.change({ entity: 'SHARED_LIVE_VIDEO_STREAM', entityUuid: row.uuid, type: 'CREATE', deviceUuid: device.uuid, update: record });
    return {
      sharedLiveVideoStreamUuid: row.uuid,
      sharedLiveVideoStreamUrl: liveSharePath(row.share_token),
      sharedLiveM3U8StreamUrl: livePlaylistPath(row.share_token, device.uuid),
    };
  });
}

/** findSharedLiveVideoStreams (camera or doorbell camera): the device's links, oldest first. */
export async function findStreamShares(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  kind: StreamShareKind,
  deviceRef: string,
): Promise<SharedLiveVideoStreamRecord[]> {
  const device = await deviceOf(deps, ctx.orgUuid, kind, deviceRef);
  return (await store.listShares(deps.store.db, ctx.orgUuid, [kind], { deviceUuid: device.uuid })).map(toLiveStreamRecord);
}

/** findAllSharedLiveVideoStreams: every camera's and doorbell camera's link of the organization. */
export async function findAllStreamShares(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<SharedLiveVideoStreamRecord[]> {
  return (await store.listShares(deps.store.db, ctx.orgUuid, STREAM_KINDS)).map(toLiveStreamRecord);
}

/** deleteSharedLiveVideoStream: the link answers 404 at once. `deviceRef`, when given, must be its device. */
export async function deleteStreamShare(deps: ShareDeps, ctx: CallerContext, input: { uuid: string; deviceRef?: string | null }): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await store.findShare(w.tx, ctx.orgUuid, STREAM_KINDS, input.uuid);
    const device = input.deviceRef ? (isRuuid(input.deviceRef) ? input.deviceRef : deviceOfFacet(input.deviceRef)) : row?.device_uuid;
    if (!row || device !== row.device_uuid) throw fail('NOT_FOUND', 'Shared live video stream');
    await store.deleteShares(w.tx, ctx.orgUuid, [row.uuid]);
    w.change({ entity: 'SHARED_LIVE_VIDEO_STREAM', entityUuid: row.uuid, type: 'DELETE', deviceUuid: row.device_uuid, update: toLiveStreamRecord(row) });
  });
}

/** createSharedVideoWall and createProtectedSharedVideoWall: a link to a wall the caller may change. */
export async function createWallShare(deps: ShareDeps, ctx: CallerContext, input: CreateSharedVideoWallRequest, protection: Protection) {
  return write(deps, ctx, async (w) => {
    const wall = await editableWall(w, ctx, { uuid: input.videoWallUuid });
    const row: SharedLiveStreamsTable = {
      uuid: newRuuid(),
      org_uuid: ctx.orgUuid,
      kind: 'VIDEO_WALL',
      device_uuid: null,
      video_wall_uuid: wall.uuid,
      name: wall.displayName,
      stream_type: 'USER',
      ...linkColumns(w, input, protection, 'createProtectedSharedVideoWall'),
      settings: toJson({})!,
    };
    await store.insertShare(w.tx, row);
    w.change({ entity: 'SHARED_VIDEO_WALL', entityUuid: row.uuid, type: 'CREATE', update: toVideoWallShareRecord(row) });
    return { sharedLiveVideoStreamUuid: row.uuid, sharedLiveVideoStreamUrl: liveSharePath(row.share_token) };
  });
}

/** findSharedVideoWalls: the links of a wall the caller sees, oldest first. */
export async function findWallShares(deps: Pick<Deps, 'store'>, ctx: CallerContext, videoWallUuid: string): Promise<SharedVideoWallRecord[]> {
  const wall = await findVisibleWall(deps, ctx, videoWallUuid);
  if (!wall) throw fail('NOT_FOUND', 'Video wall');
  return (await store.listShares(deps.store.db, ctx.orgUuid, ['VIDEO_WALL'], { videoWallUuid: wall.uuid })).map(toVideoWallShareRecord);
}

/** deleteSharedVideoWall: by whoever may change the wall; `videoWallUuid`, when given, must be its wall. */
export async function deleteWallShare(deps: ShareDeps, ctx: CallerContext, input: { uuid: string; videoWallUuid?: string | null }): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await store.findShare(w.tx, ctx.orgUuid, ['VIDEO_WALL'], input.uuid);
    if (!row || (input.videoWallUuid != null && input.videoWallUuid !== row.video_wall_uuid)) throw fail('NOT_FOUND', 'Shared video wall');
    await editableWall(w, ctx, { uuid: row.video_wall_uuid });
    await store.deleteShares(w.tx, ctx.orgUuid, [row.uuid]);
    w.change({ entity: 'SHARED_VIDEO_WALL', entityUuid: row.uuid, type: 'DELETE', update: toVideoWallShareRecord(row) });
  });
}

/** What a live link answers: its cameras, or why not (404 missing, deleted or its camera or wall gone; 410 expired; 401 password). */
export type LiveShareAccess = { kind: ShareRefusal } | { kind: 'open'; share: SharedLiveStreamsTable; title: string | null; cameras: LiveCamera[] };

export async function openLiveShare(deps: Pick<Deps, 'store' | 'clock'>, token: string, password: string | undefined): Promise<LiveShareAccess> {
  const access = shareAccess(await store.findShareByToken(deps.store.db, token), deps.clock.now(), password);
  if (access.kind !== 'open') return access;
  const share = access.row;
  if (share.kind !== 'VIDEO_WALL') {
    const device = await findDevice(deps, share.org_uuid, share.device_uuid!, [share.kind]);
    return device ? { kind: 'open', share, title: share.name, cameras: [{ uuid: device.uuid, name: device.name }] } : { kind: 'missing' };
  }
  const row = await walls.findWall(deps.store.db, share.org_uuid, share.video_wall_uuid!);
  if (!row) return { kind: 'missing' };
  // The wall as it is now, in its order: its cameras that still exist in the organization.
  const wall = toVideoWallRecord(row);
  const order = [...new Set(wall.deviceList.map(deviceOfFacet).filter((u): u is string => u !== null))];
  const found = await findDevices(deps, share.org_uuid, order, ['CAMERA']);
  const cameras = order.flatMap((uuid) => (found.has(uuid) ? [{ uuid, name: found.get(uuid)!.name }] : []));
  return { kind: 'open', share, title: wall.displayName, cameras };
}

/** The page of a live link: what it shows and each camera's live playlist under the link. */
export function liveSharePage(access: Extract<LiveShareAccess, { kind: 'open' }>) {
  const { share } = access;
  return {
    kind: share.kind,
    name: access.title,
    expiresAtMs: share.expires_at_ms,
    cameras: access.cameras.map((c) => ({ uuid: c.uuid, name: c.name, playlistUrl: livePlaylistPath(share.share_token, c.uuid) })),
  };
}

/** A deleted camera or doorbell camera takes its live links with it (deps.deviceReferences). */
export const liveSharesForgetDevice = async (w: WriteScope, device: DeviceRecord): Promise<void> => {
  const rows = await store.listShares(w.tx, device.orgUuid, STREAM_KINDS, { deviceUuid: device.uuid });
  await store.deleteShares(
    w.tx,
    device.orgUuid,
    rows.map((r) => r.uuid),
  );
  for (const row of rows) {
    w.change({ entity: 'SHARED_LIVE_VIDEO_STREAM', entityUuid: row.uuid, type: 'DELETE', deviceUuid: row.device_uuid, update: toLiveStreamRecord(row) });
  }
};

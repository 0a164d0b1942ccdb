import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { newRuuid, randomToken } from '../../ids.js';
import type { MediaPart } from '../../media/storage.js';
import { fromJson, toJson } from '../../store/columns.js';
import { write } from '../../store/write.js';
// A salted scrypt digest: the same helper keeps the devices' PINs.
import { digestPin as digestSecret, pinMatches as secretMatches } from '../devices/identifiers.js';
import { clipRecord, findClipMedia, type ClipDeps, type ClipMedia } from './clips.service.js';
import * as clips from './clips.store.js';
import {
  SHARE_EXPIRY,
  type CreateSharedClipGroupRequest,
  type SharedClipGroupRecord,
  type UpdateSharedClipGroupRequest,
} from './shared-clip-groups.schemas.js';
import * as store from './shared-clip-groups.store.js';
import type { SavedClipsTable, SharedClipGroupsTable } from './tables.js';

/** The stream's entity name of a shared clip group change. */
export const SHARED_CLIP_GROUP_ENTITY = 'SHARED_CLIP_GROUP';

/** A share link: a path on the media host that answers without an API key until the group expires. */
export const shareUrlPath = (token: string) => `/media/shared/${token}`;

interface GroupClip {
  clipUuid: string;
  alertUuid: string | null;
}

const clipsOf = (row: SharedClipGroupsTable) => fromJson<GroupClip[]>(row.clips) ?? [];

/** The group's clips that still exist, in the group's order, in one query. */
async function clipRows(db: Parameters<typeof clips.findClips>[0], row: SharedClipGroupsTable): Promise<SavedClipsTable[]> {
  const found = new Map(
    (
      await clips.findClips(
        db,
        row.org_uuid,
        clipsOf(row).map((c) => c.clipUuid),
      )
    ).map((c) => [c.uuid, c]),
  );
  return clipsOf(row).flatMap((c) => (found.has(c.clipUuid) ? [found.get(c.clipUuid)!] : []));
}

function sharedClip(row: SavedClipsTable) {
  const clip = clipRecord(row);
  return {
    uuid: row.uuid,
    startTime: row.timestamp_ms,
    durationSec: row.duration_sec,
    clipLocation: clip.clipLocation,
    thumbnailLocation: clip.thumbnailLocation,
    deviceUuidMap: clip.deviceUuidMap ?? {},
  };
}

function groupRecord(row: SharedClipGroupsTable, rows: readonly SavedClipsTable[]): SharedClipGroupRecord {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    title: row.title,
    description: row.description,
    createdAtMillis: row.created_at_ms,
    expirationTimeSecs: row.expiration_time_secs,
    isSecured: row.password_digest !== null,
    sharedClips: rows.map(sharedClip),
  };
}

const digestOf = (password: string | null | undefined) => (password ? digestSecret(password) : null);

/** createSharedClipGroupV3: a link to saved clips of the organization (named directly, or by the alert they were saved from). */
export async function createSharedClipGroup(
  deps: ClipDeps,
  ctx: CallerContext,
  input: CreateSharedClipGroupRequest,
): Promise<{ uuid: string; shareUrl: string }> {
  return write(deps, ctx, async (w) => {
    const named = input.uuids.map((u) => {
      if (!u.eventUuid === !u.alertUuid) throw fail('INVALID_VALUE', 'uuids: each names either an eventUuid (a saved clip) or an alertUuid');
      return u;
    });
    const direct = new Map(
      (
        await clips.findClips(
          w.tx,
          ctx.orgUuid,
          named.flatMap((u) => (u.eventUuid ? [u.eventUuid] : [])),
        )
      ).map((c) => [c.uuid, c]),
    );
    const byAlert = new Map(
      (
        await clips.findClipsOfAlerts(
          w.tx,
          ctx.orgUuid,
          named.flatMap((u) => (u.alertUuid ? [u.alertUuid] : [])),
        )
      ).map((c) => [c.source_alert_uuid, c]),
    );
    const chosen: GroupClip[] = [];
    for (const u of named) {
      const clip = u.eventUuid ? direct.get(u.eventUuid) : byAlert.get(u.alertUuid!);
      if (!clip) throw fail('NOT_FOUND', u.eventUuid ? 'Saved clip' : 'Saved clip of the alert');
      if (!chosen.some((c) => c.clipUuid === clip.uuid)) chosen.push({ clipUuid: clip.uuid, alertUuid: clip.source_alert_uuid });
    }
    const expirationTimeSecs = input.expirationTimeSecs ?? SHARE_EXPIRY.defaultSec;
    const row: SharedClipGroupsTable = {
      uuid: newRuuid(),
      org_uuid: ctx.orgUuid,
      title: input.title ?? null,
      description: null,
      created_at_ms: w.nowMs,
      expiration_time_secs: expirationTimeSecs,
      expires_at_ms: w.nowMs + expirationTimeSecs * 1000,
      password_digest: digestOf(input.plaintextPassword),
      share_token: randomToken(),
      clips: toJson(chosen)!,
    };
    await store.insertGroup(w.tx, row);
    const rows = chosen.map((c) => direct.get(c.clipUuid) ?? [...byAlert.values()].find((r) => r.uuid === c.clipUuid)!);
    w.change({ entity: SHARED_CLIP_GROUP_ENTITY, entityUuid: row.uuid, type: 'CREATE', update: groupRecord(row, rows) });
    return { uuid: row.uuid, shareUrl: shareUrlPath(row.share_token) };
  });
}

/** updateSharedClipGroupV2: title, description, expiry (counted from the creation) and password; the link stays the same. */
export async function updateSharedClipGroup(
  deps: ClipDeps,
  ctx: CallerContext,
  input: UpdateSharedClipGroupRequest,
): Promise<{ uuid: string; shareUrl: string }> {
  return write(deps, ctx, async (w) => {
    const row = await store.findGroup(w.tx, ctx.orgUuid, input.sharedClipUuid);
    if (!row) throw fail('NOT_FOUND', 'Shared clip group');
    const values: Partial<SharedClipGroupsTable> = {};
    if (input.title != null) values.title = input.title;
    if (input.description !== undefined) values.description = input.description;
    if (input.expirationTimeSecs != null) {
      values.expiration_time_secs = input.expirationTimeSecs;
      values.expires_at_ms = row.created_at_ms + input.expirationTimeSecs * 1000;
    }
    if (input.plaintextPassword != null) values.password_digest = digestOf(input.plaintextPassword);
    await store.updateGroup(w.tx, ctx.orgUuid, row.uuid, values);
    const next = { ...row, ...values };
    w.change({ entity: SHARED_CLIP_GROUP_ENTITY, entityUuid: row.uuid, type: 'UPDATE', update: groupRecord(next, await clipRows(w.tx, next)) });
    return { uuid: row.uuid, shareUrl: shareUrlPath(row.share_token) };
  });
}

/** deleteSharedClipGroupV2: the link stops working at once (404); the clips stay. */
export async function deleteSharedClipGroup(deps: ClipDeps, ctx: CallerContext, uuid: string): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await store.findGroup(w.tx, ctx.orgUuid, uuid);
    if (!row || !(await store.deleteGroup(w.tx, ctx.orgUuid, row.uuid))) throw fail('NOT_FOUND', 'Shared clip group');
    w.change({ entity: SHARED_CLIP_GROUP_ENTITY, entityUuid: row.uuid, type: 'DELETE', update: groupRecord(row, []) });
  });
}

/** getSharedClipGroupsV2: the organization's groups, newest first, expired ones included. */
export async function getSharedClipGroups(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  input: { createdAfterMs?: number | null; createdBeforeMs?: number | null },
) {
  const db = deps.store.db;
  const groups = await store.listGroups(db, ctx.orgUuid, input.createdAfterMs ?? null, input.createdBeforeMs ?? null);
  const all = new Map((await clips.findClips(db, ctx.orgUuid, [...new Set(groups.flatMap((g) => clipsOf(g).map((c) => c.clipUuid)))])).map((c) => [c.uuid, c]));
  return groups.map((g) =>
    groupRecord(
      g,
      clipsOf(g).flatMap((c) => (all.has(c.clipUuid) ? [all.get(c.clipUuid)!] : [])),
    ),
  );
}

export async function getSharedClipGroupDetails(deps: Pick<Deps, 'store'>, ctx: CallerContext, uuid: string) {
  const row = await store.findGroup(deps.store.db, ctx.orgUuid, uuid);
  if (!row) throw fail('NOT_FOUND', 'Shared clip group');
  const rows = await clipRows(deps.store.db, row);
  const { isSecured: _secured, ...group } = groupRecord(row, rows);
  return {
    ...group,
    sharedClips: rows.map((r) => ({ ...sharedClip(r), description: r.description, boundingBoxes: [], seekPoints: [] })),
  };
}

/** What a share link answers: the group, or why not (404 missing or deleted, 410 expired, 401 wrong password). */
export type SharedGroupAccess = { kind: 'missing' | 'expired' | 'password' } | { kind: 'open'; group: SharedClipGroupsTable; clips: SavedClipsTable[] };

export async function openSharedGroup(deps: Pick<Deps, 'store' | 'clock'>, token: string, password: string | undefined): Promise<SharedGroupAccess> {
  const row = await store.findGroupByToken(deps.store.db, token);
  if (!row) return { kind: 'missing' };
  if (deps.clock.now() >= row.expires_at_ms) return { kind: 'expired' };
  if (row.password_digest && !(password && secretMatches(password, row.password_digest))) return { kind: 'password' };
  return { kind: 'open', group: row, clips: await clipRows(deps.store.db, row) };
}

/** The page of a share link: the group and where each clip's video is under the link. */
export function sharedGroupPage(token: string, group: SharedClipGroupsTable, rows: readonly SavedClipsTable[]) {
  return {
    title: group.title,
    description: group.description,
    expiresAtMs: group.expires_at_ms,
    clips: rows.map((r) => ({
      uuid: r.uuid,
      title: r.title,
      startTime: r.timestamp_ms,
      durationSec: r.duration_sec,
      status: r.status,
      videoUrl: r.status === 'COMPLETE' ? `${shareUrlPath(token)}/clips/${r.uuid}/video` : null,
      thumbnailUrl: r.thumbnail_content_type ? `${shareUrlPath(token)}/clips/${r.uuid}/thumbnail` : null,
    })),
  };
}

/** A clip's media through an open share link: only a clip of the group. */
export async function sharedClipMedia(
  deps: Pick<Deps, 'store' | 'config'>,
  access: SharedGroupAccess,
  clipUuid: string,
  part: MediaPart,
): Promise<ClipMedia | null> {
  if (access.kind !== 'open' || !access.clips.some((c) => c.uuid === clipUuid)) return null;
  return findClipMedia(deps, access.group.org_uuid, clipUuid, part);
}

import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { mediaUrl } from '../../../footage/media-host.js';
import { write } from '../../../bus/write.js';
import { clipRecord, type ClipDeps } from '../clips/service.js';
import * as clips from '../clips/store.js';
import type { ClipRef, CreateSharedClipGroupRequest, SharedClipGroupRecord, UpdateSharedClipGroupRequest } from './schemas.js';
import * as store from './store.js';
import { groupClipRows, insertSharedGroup, listGroupsWithClips, removeSharedGroup, reviseSharedGroup, shareUrlPath } from '../shared-groups.js';
import type { SavedClipsTable, SharedClipGroupsTable } from '../tables.js';

/** The stream's entity name of a shared clip group change. */
export const SHARED_CLIP_GROUP_ENTITY = 'SHARED_CLIP_GROUP';

/** A clip as a group (shared or not) lists it. */
export function sharedClip(row: SavedClipsTable) {
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

/** A clip as a group's details list it. */
export const sharedClipWithDetails = (row: SavedClipsTable) => ({ ...sharedClip(row), description: row.description, boundingBoxes: [], seekPoints: [] });

/**
 * The saved clips of the organization that `refs` name (each a clip, or the clip saved from an alert), in their
 * order, in two queries; another organization's clip, or an unknown one, is NOT_FOUND.
 */
export async function clipsNamed(db: Parameters<typeof clips.findClips>[0], orgUuid: string, refs: readonly ClipRef[]): Promise<SavedClipsTable[]> {
  for (const u of refs) if (!u.eventUuid === !u.alertUuid) throw fail('INVALID_VALUE', 'uuids: each names either an eventUuid (a saved clip) or an alertUuid');
  const direct = new Map(
    (
      await clips.findClips(
        db,
        orgUuid,
        refs.flatMap((u) => (u.eventUuid ? [u.eventUuid] : [])),
      )
    ).map((c) => [c.uuid, c]),
  );
  const byAlert = new Map(
    (
      await clips.findClipsOfAlerts(
        db,
        orgUuid,
        refs.flatMap((u) => (u.alertUuid ? [u.alertUuid] : [])),
      )
    ).map((c) => [c.source_alert_uuid, c]),
  );
  return refs.map((u) => {
    const clip = u.eventUuid ? direct.get(u.eventUuid) : byAlert.get(u.alertUuid!);
    if (!clip) throw fail('NOT_FOUND', u.eventUuid ? 'Saved clip' : 'Saved clip of the alert');
    return clip;
  });
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

/** createSharedClipGroupV3: a link to saved clips of the organization (named directly, or by the alert they were saved from). */
export async function createSharedClipGroup(
  deps: ClipDeps,
  ctx: CallerContext,
  input: CreateSharedClipGroupRequest,
): Promise<{ uuid: string; shareUrl: string }> {
  return write(deps, ctx, async (w) => {
    const row = await insertSharedGroup(w, 'CLIPS', await clipsNamed(w.tx, ctx.orgUuid, input.uuids), input);
    w.change({ entity: SHARED_CLIP_GROUP_ENTITY, entityUuid: row.uuid, type: 'CREATE', update: groupRecord(row, await groupClipRows(w.tx, row)) });
    return { uuid: row.uuid, shareUrl: mediaUrl(deps, shareUrlPath(row.share_token)) };
  });
}

const GROUP = 'Shared clip group';

/** updateSharedClipGroupV2: title, description, expiry (counted from the creation) and password; the link stays the same. */
export async function updateSharedClipGroup(
  deps: ClipDeps,
  ctx: CallerContext,
  input: UpdateSharedClipGroupRequest,
): Promise<{ uuid: string; shareUrl: string }> {
  return write(deps, ctx, async (w) => {
    const { after } = await reviseSharedGroup(w, 'CLIPS', input.sharedClipUuid, input, GROUP);
    w.change({ entity: SHARED_CLIP_GROUP_ENTITY, entityUuid: after.uuid, type: 'UPDATE', update: groupRecord(after, await groupClipRows(w.tx, after)) });
    return { uuid: after.uuid, shareUrl: mediaUrl(deps, shareUrlPath(after.share_token)) };
  });
}

/** deleteSharedClipGroupV2: the link stops working at once (404); the clips stay. */
export async function deleteSharedClipGroup(deps: ClipDeps, ctx: CallerContext, uuid: string): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await removeSharedGroup(w, 'CLIPS', uuid, GROUP);
    w.change({ entity: SHARED_CLIP_GROUP_ENTITY, entityUuid: row.uuid, type: 'DELETE', update: groupRecord(row, []) });
  });
}

/** getSharedClipGroupsV2: the organization's groups, newest first, expired ones included. */
export async function getSharedClipGroups(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  input: { createdAfterMs?: number | null; createdBeforeMs?: number | null },
) {
  return (await listGroupsWithClips(deps.store.db, ctx.orgUuid, 'CLIPS', input)).map((g) => groupRecord(g.group, g.clips));
}

export async function getSharedClipGroupDetails(deps: Pick<Deps, 'store'>, ctx: CallerContext, uuid: string) {
  const row = await store.findGroup(deps.store.db, ctx.orgUuid, 'CLIPS', uuid);
  if (!row) throw fail('NOT_FOUND', GROUP);
  const rows = await groupClipRows(deps.store.db, row);
  const { isSecured: _secured, ...group } = groupRecord(row, rows);
  return {
    ...group,
    sharedClips: rows.map(sharedClipWithDetails),
  };
}

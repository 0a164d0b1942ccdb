import { mediaUrl } from '../../../footage/media-host.js';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { facetId } from '../../../ids.js';
import { write, type WriteScope } from '../../../bus/write.js';
import type { ClipDeps } from '../clips/service.js';
import * as clips from '../clips/store.js';
import { groupClipRows, insertSharedGroup, listGroupsWithClips, removeSharedGroup, reviseSharedGroup, shareUrlPath, type GroupLink } from '../shared-groups.js';
import type { SavedClipsTable, SharedClipGroupsTable } from '../tables.js';
import { timelapseSettings } from './service.js';
import type { SharedTimelapseGroupRecord, UpdateSharedTimelapseGroupRequest } from './schemas.js';

/**
 * Shared timelapse groups: links to timelapses, served by the media host without an API key as shared clip groups
 * are (shared-groups.ts: the same table, of kind TIMELAPSES, and the same link paths).
 */
const ENTITY = 'SHARED_TIMELAPSE_GROUP';
const GROUP = 'Shared timelapse group';

function groupRecord(row: SharedClipGroupsTable, rows: readonly SavedClipsTable[]): SharedTimelapseGroupRecord {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    title: row.title,
    createdAtMillis: row.created_at_ms,
    expirationTimeSecs: row.expiration_time_secs,
    isSecured: row.password_digest !== null,
    sharedTimelapses: rows.map((r) => {
      const settings = timelapseSettings(r);
      return {
        uuid: r.uuid,
        clipDuration: r.duration_sec,
        clipFormat: settings.format,
        sources: settings.cameras.map((uuid) => ({ deviceUuid: facetId(uuid) })),
        videoStartTime: r.timestamp_ms,
        videoStopTime: settings.stopMs,
      };
    }),
  };
}

/** The organization's timelapses named, in that order; NOT_FOUND for one that is not (another organization's included). */
async function timelapseRows(w: WriteScope, uuids: readonly string[]): Promise<SavedClipsTable[]> {
  const found = new Map((await clips.findClips(w.tx, w.actor.orgUuid, uuids, ['TIMELAPSE'])).map((r) => [r.uuid, r]));
  return uuids.map((uuid) => {
    const row = found.get(uuid);
    if (!row) throw fail('NOT_FOUND', 'Timelapse clip');
    return row;
  });
}

async function createGroup(w: WriteScope, rows: readonly SavedClipsTable[], link: GroupLink): Promise<SharedClipGroupsTable> {
  const row = await insertSharedGroup(w, 'TIMELAPSES', rows, link);
  w.change({ entity: ENTITY, entityUuid: row.uuid, type: 'CREATE', update: groupRecord(row, await groupClipRows(w.tx, row)) });
  return row;
}

/** createSharedTimelapseGroup: one link to the timelapses. */
export async function createSharedTimelapseGroup(
  deps: ClipDeps,
  ctx: CallerContext,
  input: GroupLink & { timelapseUuids: readonly string[] },
): Promise<{ uuid: string; shareUrl: string }> {
  return write(deps, ctx, async (w) => {
    const row = await createGroup(w, await timelapseRows(w, input.timelapseUuids), input);
    return { uuid: row.uuid, shareUrl: mediaUrl(deps, shareUrlPath(row.share_token)) };
  });
}

/** shareTimelapseClips (the older form): a link of its own for each timelapse, with the default expiry. */
export async function shareTimelapses(deps: ClipDeps, ctx: CallerContext, uuids: readonly string[]): Promise<Record<string, string>> {
  return write(deps, ctx, async (w) => {
    const urls: Record<string, string> = {};
    for (const row of await timelapseRows(w, [...new Set(uuids)])) urls[row.uuid] = mediaUrl(deps, shareUrlPath((await createGroup(w, [row], {})).share_token));
    return urls;
  });
}

/** getSharedTimelapseGroups: the organization's groups, newest first, expired ones included. */
export async function getSharedTimelapseGroups(deps: Pick<Deps, 'store'>, ctx: CallerContext): Promise<SharedTimelapseGroupRecord[]> {
  return (await listGroupsWithClips(deps.store.db, ctx.orgUuid, 'TIMELAPSES')).map((g) => groupRecord(g.group, g.clips));
}

/**
 * updateSharedTimelapseGroup: the title, expiry (counted from the creation) and password, each when its flag says
 * so (or, without a flag, when its value is given); the password goes when it is changed to nothing. The link stays.
 */
export async function updateSharedTimelapseGroup(
  deps: ClipDeps,
  ctx: CallerContext,
  input: UpdateSharedTimelapseGroupRequest,
): Promise<{ uuid: string; shareUrl: string }> {
  const wanted = (flag: boolean | null | undefined, value: unknown) => flag ?? value != null;
  if (wanted(input.expirationTimeUpdate, input.expirationTimeSecs) && input.expirationTimeSecs == null) {
    throw fail('INVALID_VALUE', 'expirationTimeSecs: expirationTimeUpdate needs the new expiry');
  }
  return write(deps, ctx, async (w) => {
    const { after } = await reviseSharedGroup(
      w,
      'TIMELAPSES',
      input.uuid,
      {
        title: wanted(input.titleUpdate, input.title) ? (input.title ?? '') : null,
        expirationTimeSecs: wanted(input.expirationTimeUpdate, input.expirationTimeSecs) ? input.expirationTimeSecs : null,
        plaintextPassword: wanted(input.passwordUpdate, input.plaintextPassword) ? (input.plaintextPassword ?? '') : null,
      },
      GROUP,
    );
    w.change({ entity: ENTITY, entityUuid: after.uuid, type: 'UPDATE', update: groupRecord(after, await groupClipRows(w.tx, after)) });
    return { uuid: after.uuid, shareUrl: mediaUrl(deps, shareUrlPath(after.share_token)) };
  });
}

/** deleteSharedTimelapseGroup: the link answers 404 at once; the timelapses stay. */
export async function deleteSharedTimelapseGroup(deps: ClipDeps, ctx: CallerContext, uuid: string): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await removeSharedGroup(w, 'TIMELAPSES', uuid, GROUP);
    w.change({ entity: ENTITY, entityUuid: row.uuid, type: 'DELETE', update: groupRecord(row, []) });
  });
}

import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { newRuuid } from '../../ids.js';
import { newShareToken, shareAccess, sharePasswordDigest } from '../../footage/share-links.js';
import type { MediaPart } from '../../footage/storage.js';
import { fromJson, toJson } from '../../store/columns.js';
import type { WriteScope } from '../../bus/write.js';
import { findClipMedia, type ClipMedia } from './clips/service.js';
import * as clips from './clips/store.js';
import { SHARE_EXPIRY } from './shared-clip-groups/schemas.js';
import * as store from './shared-clip-groups/store.js';
import type { ClipKind, SavedClipsTable, SharedClipGroupsTable, SharedGroupKind } from './tables.js';

/**
 * Shared groups: links on the media host to some saved clips (shared clip groups) or timelapses (shared timelapse
 * groups) that answer without an API key until they expire (src/footage/share-links.ts decides whether one opens).
 * Both kinds are rows of one table; this is what they have in common, and each kind's service announces its own
 * records.
 */
/** A share link: a path on the media host that answers without an API key until the group expires. */
export const shareUrlPath = (token: string) => `/media/shared/${token}`;

interface GroupClip {
  clipUuid: string;
  alertUuid: string | null;
}

const clipsOf = (row: SharedClipGroupsTable) => fromJson<GroupClip[]>(row.clips) ?? [];

/** What each kind of group shares. */
const SHARED_KINDS: Record<SharedGroupKind, readonly ClipKind[]> = { CLIPS: ['CLIP', 'FRAME'], TIMELAPSES: ['TIMELAPSE'] };

type Db = Parameters<typeof clips.findClips>[0];

/** The group's clips (or timelapses) that still exist, in the group's order, in one query. */
export async function groupClipRows(db: Db, row: SharedClipGroupsTable): Promise<SavedClipsTable[]> {
  const found = new Map(
    (
      await clips.findClips(
        db,
        row.org_uuid,
        clipsOf(row).map((c) => c.clipUuid),
        SHARED_KINDS[row.kind],
      )
    ).map((c) => [c.uuid, c]),
  );
  return clipsOf(row).flatMap((c) => (found.has(c.clipUuid) ? [found.get(c.clipUuid)!] : []));
}

/** The organization's groups of a kind, newest first (expired ones included), each with its clips that still exist: a fixed number of queries. */
export async function listGroupsWithClips(
  db: Db,
  orgUuid: string,
  kind: SharedGroupKind,
  range: { createdAfterMs?: number | null; createdBeforeMs?: number | null } = {},
): Promise<Array<{ group: SharedClipGroupsTable; clips: SavedClipsTable[] }>> {
  const groups = await store.listGroups(db, orgUuid, kind, range.createdAfterMs ?? null, range.createdBeforeMs ?? null);
  const wanted = [...new Set(groups.flatMap((g) => clipsOf(g).map((c) => c.clipUuid)))];
  const all = new Map((await clips.findClips(db, orgUuid, wanted, SHARED_KINDS[kind])).map((c) => [c.uuid, c]));
  return groups.map((group) => ({ group, clips: clipsOf(group).flatMap((c) => (all.has(c.clipUuid) ? [all.get(c.clipUuid)!] : [])) }));
}

/** A new group's link settings, as both kinds take them. */
export interface GroupLink {
  title?: string | null;
  expirationTimeSecs?: number | null;
  plaintextPassword?: string | null;
}

/** Inserts a group of `kind` sharing `rows` (in that order, each once), inside a write; the caller announces it. */
export async function insertSharedGroup(
  w: WriteScope,
  kind: SharedGroupKind,
  rows: readonly SavedClipsTable[],
  link: GroupLink,
): Promise<SharedClipGroupsTable> {
  const chosen: GroupClip[] = [];
  for (const clip of rows) if (!chosen.some((c) => c.clipUuid === clip.uuid)) chosen.push({ clipUuid: clip.uuid, alertUuid: clip.source_alert_uuid });
  const expirationTimeSecs = link.expirationTimeSecs ?? SHARE_EXPIRY.defaultSec;
  const row: SharedClipGroupsTable = {
    uuid: newRuuid(),
    org_uuid: w.actor.orgUuid,
    title: link.title ?? null,
    description: null,
    created_at_ms: w.nowMs,
    expiration_time_secs: expirationTimeSecs,
    expires_at_ms: w.nowMs + expirationTimeSecs * 1000,
    password_digest: sharePasswordDigest(link.plaintextPassword),
    share_token: newShareToken(),
    clips: toJson(chosen)!,
    kind,
  };
  await store.insertGroup(w.tx, row);
  return row;
}

/** The changes a group takes: title, description, expiry (counted from the creation) and password (empty: none). */
export interface GroupChanges {
  title?: string | null;
  description?: string | null;
  expirationTimeSecs?: number | null;
  plaintextPassword?: string | null;
}

/** Changes a group of `kind` of the writer's organization (NOT_FOUND for another's); answers it as it was and as it is. The link stays the same. */
export async function reviseSharedGroup(
  w: WriteScope,
  kind: SharedGroupKind,
  uuid: string,
  changes: GroupChanges,
  label: string,
): Promise<{ before: SharedClipGroupsTable; after: SharedClipGroupsTable }> {
  const row = await store.findGroup(w.tx, w.actor.orgUuid, kind, uuid);
  if (!row) throw fail('NOT_FOUND', label);
  const values: Partial<SharedClipGroupsTable> = {};
  if (changes.title != null) values.title = changes.title;
  if (changes.description !== undefined) values.description = changes.description;
  if (changes.expirationTimeSecs != null) {
    values.expiration_time_secs = changes.expirationTimeSecs;
    values.expires_at_ms = row.created_at_ms + changes.expirationTimeSecs * 1000;
  }
  if (changes.plaintextPassword != null) values.password_digest = sharePasswordDigest(changes.plaintextPassword);
  await store.updateGroup(w.tx, row.org_uuid, row.uuid, values);
  return { before: row, after: { ...row, ...values } };
}

/** Deletes a group of `kind` of the writer's organization (NOT_FOUND for another's): its link answers 404 at once; the clips stay. */
export async function removeSharedGroup(w: WriteScope, kind: SharedGroupKind, uuid: string, label: string): Promise<SharedClipGroupsTable> {
  const row = await store.findGroup(w.tx, w.actor.orgUuid, kind, uuid);
  if (!row || !(await store.deleteGroup(w.tx, row.org_uuid, row.uuid))) throw fail('NOT_FOUND', label);
  return row;
}

/** What a share link answers: the group, or why not (404 missing or deleted, 410 expired, 401 wrong password). */
export type SharedGroupAccess = { kind: 'missing' | 'expired' | 'password' } | { kind: 'open'; group: SharedClipGroupsTable; clips: SavedClipsTable[] };

export async function openSharedGroup(deps: Pick<Deps, 'store' | 'clock'>, token: string, password: string | undefined): Promise<SharedGroupAccess> {
  const access = shareAccess(await store.findGroupByToken(deps.store.db, token), deps.clock.now(), password);
  if (access.kind !== 'open') return access;
  return { kind: 'open', group: access.row, clips: await groupClipRows(deps.store.db, access.row) };
}

/**
 * A shared group named by its uuid, as the platform's raw share downloads name it
 * (`/media/clips/share/<uuid>.mp4?x-auth-scheme=share-raw&x-share-id=<uuid>`): it opens as its link does.
 */
export async function openSharedGroupById(deps: Pick<Deps, 'store' | 'clock'>, uuid: string, password: string | undefined): Promise<SharedGroupAccess> {
  const access = shareAccess(await store.findGroupByUuid(deps.store.db, uuid), deps.clock.now(), password);
  if (access.kind !== 'open') return access;
  return { kind: 'open', group: access.row, clips: await groupClipRows(deps.store.db, access.row) };
}

/** The page of a share link: the group and where each clip's (or timelapse's) video is under the link. */
export function sharedGroupPage(token: string, group: SharedClipGroupsTable, rows: readonly SavedClipsTable[]) {
  return {
    kind: group.kind,
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

import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet } from '../../../ids.js';
import { mediaFile } from '../../../footage/storage.js';
import { write, type WriteScope } from '../../../bus/write.js';
import type { RecordCleaner } from '../../../records/references.js';
import { findPolicyAlert, markPolicyAlertUnsaved } from '../alerts/service.js';
import { listDevices } from '../../devices/service.js';
import {
  CLIP_PROGRESS_PAGE,
  type GetClipsWithProgressRequest,
  type GetSavedClipCountRequest,
  type SavedClipRecord,
  type SavedClipWithProgressRecord,
  type UpdateSavedClipRequest,
} from './schemas.js';
import { takeClipOutOfGroups } from '../clip-groups/service.js';
import { clipRecord, SAVED_CLIP_ENTITY, type ClipDeps } from './service.js';
import * as store from './store.js';
import type { ClipStatus, SavedClipsTable } from '../tables.js';

/** A saved clip is kept this long after it was made; getExpiringClipsForOrg lists those within the warning window of the end. */
export const CLIP_RETENTION_MS = 90 * 86_400_000;
export const CLIP_EXPIRY_WARNING_MS = 7 * 86_400_000;

/** How far a clip's (or timelapse's) media is, by its status. */
export const PROGRESS: Record<ClipStatus, { percent: number; operation: string }> = {
  INITIATING: { percent: 0, operation: 'waiting for the footage' },
  UPLOADING: { percent: 25, operation: 'receiving the footage' },
  RENDERING: { percent: 75, operation: 'storing the video on the media host' },
  COMPLETE: { percent: 100, operation: 'complete' },
  FAILED: { percent: 0, operation: 'failed' },
  OFFLINE: { percent: 0, operation: 'the camera is offline' },
  DELETED: { percent: 0, operation: 'deleted' },
  UNKNOWN: { percent: 0, operation: 'unknown' },
};

export function withProgress(row: SavedClipsTable): SavedClipWithProgressRecord {
  const progress = PROGRESS[row.status];
  return {
    ...clipRecord(row),
    percentComplete: progress.percent,
    currentOperation: progress.operation,
    lastUpdatedSec: Math.floor((row.updated_at_ms ?? row.created_at_ms) / 1000),
  };
}

type ReadDeps = Pick<Deps, 'store'>;

async function clipRow(deps: ReadDeps, orgUuid: string, uuid: string): Promise<SavedClipsTable> {
  const row = await store.findClip(deps.store.db, orgUuid, uuid);
  if (!row) throw fail('NOT_FOUND', 'Saved clip');
  return row;
}

/** The cameras of the organization at the given locations (plus the named devices), as one device filter; null: no filter. */
async function deviceFilter(
  deps: ReadDeps,
  orgUuid: string,
  devices?: readonly string[] | null,
  locations?: readonly string[] | null,
): Promise<string[] | null> {
  if (!devices && !locations) return null;
  const named = (devices ?? []).map((d) => deviceOfFacet(d) ?? d);
  if (!locations) return named;
  const wanted = new Set(locations);
  const atLocations = (await listDevices(deps, orgUuid, ['CAMERA'])).filter((d) => d.locationUuid && wanted.has(d.locationUuid)).map((d) => d.uuid);
  return devices ? named.filter((d) => atLocations.includes(d)) : atLocations;
}

const SORT_COLUMN = { timestampMs: 'timestamp_ms', createdAtMs: 'created_at_ms' } as const;

function encodeToken(key: store.ClipKey, signature: string): string {
  return Buffer.from(JSON.stringify([signature, key.value, key.uuid])).toString('base64url');
}

function decodeToken(token: string, signature: string): store.ClipKey {
  try {
    const [sig, value, uuid] = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as [unknown, unknown, unknown];
    if (sig === signature && Number.isSafeInteger(value) && typeof uuid === 'string') return { value: value as number, uuid };
  } catch {
    // answered below
  }
  throw fail('INVALID_VALUE', 'pageToken: not a page token of this listing (its sort order must stay the same)');
}

export interface ClipsPage {
  savedClips: SavedClipWithProgressRecord[];
  pageToken: string | null;
}

/**
 * getClipsWithProgress (and getExpiringClipsForOrg with `expiringOnly`): a page of clips in the asked order; the
 * token is the last clip's sort value and uuid, so the pages have no gaps or repeats.
 */
export async function getClipsWithProgress(
  deps: ReadDeps & Pick<Deps, 'clock'>,
  ctx: CallerContext,
  input: GetClipsWithProgressRequest,
  expiringOnly = false,
): Promise<ClipsPage> {
  const pageSize = input.pageSize ?? CLIP_PROGRESS_PAGE.default;
  const sortField = input.sortField ?? 'timestampMs';
  const descending = (input.sortOrder ?? 'DESC') === 'DESC';
  const signature = `${expiringOnly ? 'expiring' : 'all'}:${sortField}:${descending ? 'DESC' : 'ASC'}`;
  const after = input.pageToken ? decodeToken(input.pageToken, signature) : null;
  const filter: store.ClipFilter = {
    deviceUuids: await deviceFilter(deps, ctx.orgUuid, input.deviceUuidFilters, input.locationUuidFilters),
    timeField: SORT_COLUMN[input.timestampFilterField ?? 'timestampMs'],
    fromMs: input.timestampMsAfter,
    beforeMs: input.timestampMsBefore,
    search: input.searchFilter?.trim() || null,
    visibility: input.filterByPrivate ? 'PRIVATE' : null,
    createdAtOrBeforeMs: expiringOnly ? deps.clock.now() + CLIP_EXPIRY_WARNING_MS - CLIP_RETENTION_MS : null,
  };
  const rows = await store.listClipsSorted(deps.store.db, ctx.orgUuid, filter, { field: SORT_COLUMN[sortField], descending }, after, pageSize + 1);
  const page = rows.slice(0, pageSize);
  const last = page[page.length - 1];
  const pageToken =
    rows.length > pageSize ? encodeToken({ value: sortField === 'timestampMs' ? last.timestamp_ms : last.created_at_ms, uuid: last.uuid }, signature) : null;
  return { savedClips: page.map(withProgress), pageToken };
}

export async function getClipWithProgress(deps: ReadDeps, ctx: CallerContext, clipUuid: string): Promise<SavedClipWithProgressRecord> {
  return withProgress(await clipRow(deps, ctx.orgUuid, clipUuid));
}

export async function getSavedClipDetails(deps: ReadDeps, ctx: CallerContext, clipUuid: string) {
  return { ...clipRecord(await clipRow(deps, ctx.orgUuid, clipUuid)), boundingBoxes: [], seekPoints: [] };
}

export async function getSavedClipCount(deps: ReadDeps, ctx: CallerContext, input: GetSavedClipCountRequest) {
  if (input.startTimeMs != null && input.endTimeMs != null && input.endTimeMs < input.startTimeMs) throw fail('INVALID_VALUE', 'endTimeMs: before startTimeMs');
  return store.countClips(deps.store.db, ctx.orgUuid, {
    deviceUuids: await deviceFilter(deps, ctx.orgUuid, input.deviceFilter, input.locationFilter),
    fromMs: input.startTimeMs,
    beforeMs: input.endTimeMs,
  });
}

export async function getSavedClipsByExternalTransactionId(deps: ReadDeps, ctx: CallerContext, externalTransactionId: string): Promise<SavedClipRecord[]> {
  return (await store.listClipsByTransaction(deps.store.db, ctx.orgUuid, externalTransactionId)).map(clipRecord);
}

/** updateSavedClip: the title, description and access settings; the other fields stay. */
export async function updateSavedClip(deps: ClipDeps, ctx: CallerContext, input: UpdateSavedClipRequest): Promise<SavedClipRecord> {
  return write(deps, ctx, async (w) => {
    const row = await store.findClip(w.tx, ctx.orgUuid, input.savedClipUuid);
    if (!row) throw fail('NOT_FOUND', 'Saved clip');
    const details = JSON.parse(row.details) as Record<string, unknown>;
    const values: Partial<SavedClipsTable> = { updated_at_ms: w.nowMs };
    if (input.title != null) values.title = input.title;
    if (input.description !== undefined) values.description = input.description;
    if (input.accessSettings) {
      const previous = (details.accessSettings ?? {}) as { allowedRoles?: string[]; allowedUsers?: string[] };
      details.accessSettings = {
        allowedRoles: input.accessSettings.allowedRoles ?? previous.allowedRoles ?? [],
        allowedUsers: input.accessSettings.allowedUsers ?? previous.allowedUsers ?? [],
      };
      values.details = JSON.stringify(details);
      if (input.accessSettings.visibility) values.visibility = input.accessSettings.visibility;
    }
    await store.updateClip(w.tx, ctx.orgUuid, row.uuid, values);
    const record = clipRecord({ ...row, ...values });
    w.change({ entity: SAVED_CLIP_ENTITY, entityUuid: row.uuid, type: 'UPDATE', deviceUuid: row.device_uuid, update: record });
    return record;
  });
}

/**
 * Removes a clip inside a write, announced; it leaves the clip groups it sat in (each announced), and the alert it
 * was saved from is no longer saved. The caller removes its media after commit.
 */
async function removeClip(w: WriteScope, row: SavedClipsTable): Promise<void> {
  await takeClipOutOfGroups(w, row);
  if (!(await store.deleteClip(w.tx, row.org_uuid, row.uuid))) throw fail('NOT_FOUND', 'Saved clip');
  w.change({ entity: SAVED_CLIP_ENTITY, entityUuid: row.uuid, type: 'DELETE', deviceUuid: row.device_uuid, update: { ...clipRecord(row), status: 'DELETED' } });
  const alert = row.source_alert_uuid ? await findPolicyAlert(w, row.org_uuid, row.source_alert_uuid) : null;
  if (alert?.saved) await markPolicyAlertUnsaved(w, alert);
}

/** Removes a clip's (or timelapse's) media from the media host, once its record is gone. */
export const removeClipMedia = (deps: Pick<ClipDeps, 'config'>, row: SavedClipsTable) =>
  rm(dirname(mediaFile(deps.config.dataDir, row.org_uuid, row.uuid, 'video')), { recursive: true, force: true });

/** deleteSavedClip: the record goes, and its media leaves the media host (a later GET of its URL is a 404). */
export async function deleteSavedClip(deps: ClipDeps, ctx: CallerContext, savedClipUuid: string): Promise<void> {
  const row = await write(deps, ctx, async (w) => {
    const found = await store.findClip(w.tx, ctx.orgUuid, savedClipUuid);
    if (!found) throw fail('NOT_FOUND', 'Saved clip');
    await removeClip(w, found);
    return found;
  });
  await removeClipMedia(deps, row);
}

/** unSavePolicyAlertV2: the alert is no longer saved, and the clip saved from it (the named one, or its only one) is deleted. */
export async function unsavePolicyAlert(deps: ClipDeps, ctx: CallerContext, input: { alertUuid: string; savedClipUuid?: string | null }): Promise<void> {
  const removed = await write(deps, ctx, async (w) => {
    const alert = await findPolicyAlert(w, ctx.orgUuid, input.alertUuid);
    if (!alert) throw fail('NOT_FOUND', 'Policy alert');
    if (!alert.saved) throw fail('CONFLICT', `Policy alert ${alert.uuid} is not saved`);
    const clips = await store.findClipsOfAlerts(w.tx, ctx.orgUuid, [alert.uuid]);
    const chosen = input.savedClipUuid ? clips.filter((c) => c.uuid === input.savedClipUuid) : clips;
    if (input.savedClipUuid && chosen.length === 0) throw fail('NOT_FOUND', 'Saved clip of the alert');
    for (const clip of chosen) await removeClip(w, clip);
    const after = await findPolicyAlert(w, ctx.orgUuid, alert.uuid);
    if (after?.saved) await markPolicyAlertUnsaved(w, after);
    return chosen;
  });
  await Promise.all(removed.map((row) => removeClipMedia(deps, row)));
}

/** A deleted user (allowedUsers) or permission group (allowedRoles) leaves the access settings of every clip that names it. */
export const clipsForget =
  (field: 'allowedUsers' | 'allowedRoles'): RecordCleaner =>
  async (w, uuid) => {
    for (const row of await store.listClipsMentioning(w.tx, w.actor.orgUuid, uuid)) {
      const details = JSON.parse(row.details) as { accessSettings?: Record<string, string[] | undefined> };
      const named = details.accessSettings?.[field];
      if (!named?.includes(uuid)) continue;
      details.accessSettings = { ...details.accessSettings, [field]: named.filter((u) => u !== uuid) };
      const values = { details: JSON.stringify(details), updated_at_ms: w.nowMs };
      await store.updateClip(w.tx, w.actor.orgUuid, row.uuid, values);
      w.change({ entity: SAVED_CLIP_ENTITY, entityUuid: row.uuid, type: 'UPDATE', deviceUuid: row.device_uuid, update: clipRecord({ ...row, ...values }) });
    }
  };

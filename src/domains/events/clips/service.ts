import type { Readable } from 'node:stream';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { facetId, newRuuid } from '../../../ids.js';
import { mediaFile, mediaSize, mediaUrlPath, MediaTooLargeError, storeMedia, type MediaPart, type StoredFile } from '../../../footage/storage.js';
import { fromJson, toJson } from '../../../store/columns.js';
import { write, type Actor, type WriteScope } from '../../../bus/write.js';
import { findDevice } from '../../devices/service.js';
import { findPolicyAlert, markPolicyAlertSaved } from '../alerts/service.js';
import type { SavePolicyAlertV2Request } from '../alerts/schemas.js';
import { CLIP_PAGE, type ClipAccessSettings, type GetSavedClipsV2Request, type SavedClipRecord } from './schemas.js';
import * as store from './store.js';
import { CLIP_KINDS, type ClipKind, type ClipStatus, type SavedClipsTable } from '../tables.js';

export type ClipDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'config' | 'mediaHost'>;

/** The stream's entity name of a saved clip change. */
export const SAVED_CLIP_ENTITY = 'SAVED_CLIP';

/** Largest video and thumbnail the media host takes. */
export const MEDIA_LIMITS: Record<MediaPart, number> = { video: 1024 * 1024 * 1024, thumbnail: 5 * 1024 * 1024 };

const DEFAULT_CLIP_SECONDS = 30;

/** A clip row as the REST API answers it. */
export function clipRecord(row: SavedClipsTable): SavedClipRecord {
  const details = fromJson<Record<string, unknown>>(row.details) ?? {};
  return {
    ...details,
    accessSettings: { allowedRoles: [], allowedUsers: [], ...(details.accessSettings as object | undefined), visibility: row.visibility },
    externalTransactionId: row.external_transaction_id,
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    userUuid: row.user_uuid,
    sourceAlertUuid: row.source_alert_uuid,
    status: row.status,
    deviceUuid: facetId(row.device_uuid),
    timestampMs: row.timestamp_ms,
    durationSec: row.duration_sec,
    createdAtMs: row.created_at_ms,
    title: row.title,
    description: row.description,
    sha256Hex: row.sha256_hex,
    byteCount: row.byte_count,
    clipLocationV2: row.status === 'COMPLETE' ? mediaUrlPath(row.uuid, 'video') : null,
    thumbnailLocationV2: row.thumbnail_content_type ? mediaUrlPath(row.uuid, 'thumbnail') : null,
  } as SavedClipRecord;
}

export interface ClipInput {
  /** A camera of the writer's organization. */
  deviceUuid: string;
  timestampMs?: number;
  durationSec?: number;
  title?: string | null;
  description?: string | null;
  sourceAlertUuid?: string | null;
  fisheyeMap?: Record<string, unknown> | null;
  externalTransactionId?: string | null;
  accessSettings?: ClipAccessSettings | null;
  /** Spliced from the camera's footage: Gatehouse renders the video (clip-renderer.ts) instead of the camera uploading it. */
  spliced?: boolean;
  /** A video (the default), a spliced frame (no duration) or a timelapse (its cameras and settings in `details`). */
  kind?: ClipKind;
  /** More of the record, kept in its details (a timelapse's settings). */
  details?: Record<string, unknown>;
}

/**
 * A new clip's row (INITIATING: its media is still to reach the media host), of a camera of the writer's
 * organization; `region` is where its media is kept. The caller inserts and announces it.
 */
export async function newClipRow(w: WriteScope, region: string, input: ClipInput): Promise<SavedClipsTable> {
  const camera = await findDevice(w, w.actor.orgUuid, input.deviceUuid, ['CAMERA']);
  if (!camera) throw fail('NOT_FOUND', 'Camera');
  const kind = input.kind ?? 'CLIP';
  const durationSec = input.durationSec ?? (kind === 'FRAME' ? 0 : DEFAULT_CLIP_SECONDS);
  const shortest = kind === 'FRAME' ? 0 : 1;
  if (!Number.isInteger(durationSec) || durationSec < shortest || durationSec > 86_400) {
    throw fail('INVALID_VALUE', `durationSec: must be ${shortest} to 86400 seconds`);
  }
  const facet = facetId(camera.uuid);
  const details = {
    deviceUuids: [facet],
    devicePresentationOrder: [facet],
    clipLocation: { region },
    thumbnailLocation: { region },
    accessSettings: { allowedRoles: input.accessSettings?.allowedRoles ?? [], allowedUsers: input.accessSettings?.allowedUsers ?? [] },
    fisheyeMap: input.fisheyeMap ?? {},
    analyzed: false,
    consoleDelete: false,
    isMonitoringClip: false,
    isVendorClip: false,
    sendToSharedStorage: false,
    mountingDirection: 'UNKNOWN',
    ...input.details,
  };
  return {
    uuid: newRuuid(),
    org_uuid: w.actor.orgUuid,
    device_uuid: camera.uuid,
    source_alert_uuid: input.sourceAlertUuid ?? null,
    user_uuid: w.actor.userUuid,
    status: 'INITIATING',
    timestamp_ms: input.timestampMs ?? w.nowMs,
    duration_sec: durationSec,
    created_at_ms: w.nowMs,
    title: input.title ?? `${camera.name} ${kind === 'CLIP' ? 'clip' : kind.toLowerCase()}`,
    description: input.description ?? null,
    sha256_hex: null,
    byte_count: null,
    video_content_type: null,
    thumbnail_content_type: null,
    details: toJson(details)!,
    spliced: input.spliced ? 1 : 0,
    render_attempt: 0,
    visibility: input.accessSettings?.visibility ?? 'ORG_WIDE',
    external_transaction_id: input.externalTransactionId ?? null,
    updated_at_ms: w.nowMs,
    kind,
  };
}

/** Creates a saved clip (INITIATING: its video is still to reach the media host) inside a write; `region` is where its media is kept. */
export async function createSavedClip(w: WriteScope, region: string, input: ClipInput): Promise<SavedClipRecord> {
  const row = await newClipRow(w, region, input);
  await store.insertClip(w.tx, row);
  const record = clipRecord(row);
  w.change({ entity: SAVED_CLIP_ENTITY, entityUuid: row.uuid, type: 'CREATE', deviceUuid: row.device_uuid, update: record });
  return record;
}

/** Saves a clip of a camera: what the simulator and other domains (integrations that save clips) call. */
export async function saveClip(deps: ClipDeps, actor: Actor, input: ClipInput): Promise<SavedClipRecord> {
  return write(deps, actor, (w) => createSavedClip(w, deps.config.region, input));
}

/** savePolicyAlertV2: a clip of the alert's camera over the alert's time; the alert becomes `saved`. */
export async function savePolicyAlertAsClip(deps: ClipDeps, ctx: CallerContext, input: SavePolicyAlertV2Request): Promise<SavedClipRecord> {
  return write(deps, ctx, async (w) => {
    const alert = await findPolicyAlert(w, ctx.orgUuid, input.alertUuid);
    if (!alert) throw fail('NOT_FOUND', 'Policy alert');
    if (alert.saved) throw fail('CONFLICT', `Policy alert ${alert.uuid} is already saved as a clip`);
    if (alert.deviceType !== 'CAMERA') throw fail('INVALID_VALUE', "alertUuid: only a camera's alert has footage to save");
    const clip = await createSavedClip(w, deps.config.region, {
      deviceUuid: alert.deviceUuid,
      timestampMs: alert.timestampMs,
      durationSec: Math.max(alert.durationSec ?? 0, DEFAULT_CLIP_SECONDS),
      title: input.savedClipTitle ?? alert.textDescription ?? null,
      description: input.savedClipDescription ?? null,
      sourceAlertUuid: alert.uuid,
      fisheyeMap: input.fisheyePresentationMap ?? null,
    });
    await markPolicyAlertSaved(w, alert);
    return clip;
  });
}

export interface ClipPage {
  savedClips: SavedClipRecord[];
  lastEvaluatedTimestampMs: number | null;
}

/**
 * A page of clips, newest first, strictly older than `pageTimestampMs`. The cursor is a timestamp alone,
 * so a page never ends inside a run of clips that share one: it stops before the run, or, when the run
 * alone is longer than the page, holds the whole run. Paging therefore has no gaps and no repeats.
 */
export async function getSavedClipsPage(deps: Pick<Deps, 'store'>, ctx: CallerContext, input: GetSavedClipsV2Request): Promise<ClipPage> {
  const max = input.maxPageSize ?? CLIP_PAGE.default;
  const db = deps.store.db;
  const rows = await store.listClips(db, ctx.orgUuid, input.pageTimestampMs ?? null, max + 1);
  if (rows.length <= max) return { savedClips: rows.map(clipRecord), lastEvaluatedTimestampMs: null };
  const boundary = rows[max - 1].timestamp_ms;
  let page = rows.slice(0, max);
  if (rows[max].timestamp_ms === boundary) {
    page = page.filter((r) => r.timestamp_ms !== boundary);
    if (page.length === 0) page = await store.listClipsAt(db, ctx.orgUuid, boundary);
  }
  return { savedClips: page.map(clipRecord), lastEvaluatedTimestampMs: page[page.length - 1].timestamp_ms };
}

/** A clip of the organization; null for a missing one or another organization's. */
export async function findSavedClip(deps: Pick<Deps, 'store'>, orgUuid: string, uuid: string): Promise<SavedClipRecord | null> {
  const row = await store.findClip(deps.store.db, orgUuid, uuid);
  return row ? clipRecord(row) : null;
}

async function changeClip(deps: ClipDeps, actor: Actor, uuid: string, values: Partial<SavedClipsTable>): Promise<SavedClipRecord> {
  return write(deps, actor, async (w) => {
    await store.updateClip(w.tx, actor.orgUuid, uuid, { ...values, updated_at_ms: w.nowMs });
    const row = (await store.findClip(w.tx, actor.orgUuid, uuid))!;
    const record = clipRecord(row);
    w.change({ entity: SAVED_CLIP_ENTITY, entityUuid: uuid, type: 'UPDATE', deviceUuid: row.device_uuid, update: record });
    return record;
  });
}

/** Statuses from which a video upload may start: a new clip, or one whose upload failed. */
const UPLOADABLE: readonly ClipStatus[] = ['INITIATING', 'FAILED'];

/**
 * Receives a clip's video or thumbnail. A video moves the clip to UPLOADING (one upload at a time), then
 * to COMPLETE with its sha256Hex and byteCount once the file is stored, or to FAILED when the body broke
 * off or was too large. Each move is a change on the stream.
 */
export async function uploadClipMedia(
  deps: ClipDeps,
  actor: Actor,
  input: { clipUuid: string; part: MediaPart; contentType: string; body: Readable },
): Promise<SavedClipRecord> {
  const row = await store.findClip(deps.store.db, actor.orgUuid, input.clipUuid);
  if (!row || row.status === 'DELETED') throw fail('NOT_FOUND', 'Saved clip');
  const file = mediaFile(deps.config.dataDir, actor.orgUuid, row.uuid, input.part);
  const limit = MEDIA_LIMITS[input.part];
  if (input.part === 'thumbnail') {
    await storeMedia(file, input.body, limit).catch((e) => {
      throw e instanceof MediaTooLargeError ? fail('INVALID_VALUE', `thumbnail: larger than ${limit} bytes`) : e;
    });
    return changeClip(deps, actor, row.uuid, { thumbnail_content_type: input.contentType });
  }
  const claimed = await write(deps, actor, async (w) => {
    if (!(await store.moveClipStatus(w.tx, actor.orgUuid, row.uuid, UPLOADABLE, 'UPLOADING'))) return false;
    w.change({
      entity: SAVED_CLIP_ENTITY,
      entityUuid: row.uuid,
      type: 'UPDATE',
      deviceUuid: row.device_uuid,
      update: clipRecord({ ...row, status: 'UPLOADING' }),
    });
    return true;
  });
  if (!claimed) throw fail('CONFLICT', `Saved clip ${row.uuid} is ${row.status === 'COMPLETE' ? 'already complete' : 'being uploaded'}`);
  try {
    const stored = await storeMedia(file, input.body, limit);
    return await changeClip(deps, actor, row.uuid, {
      status: 'COMPLETE',
      sha256_hex: stored.sha256Hex,
      byte_count: stored.byteCount,
      video_content_type: input.contentType,
    });
  } catch (e) {
    await changeClip(deps, actor, row.uuid, { status: 'FAILED' });
    throw e instanceof MediaTooLargeError ? fail('INVALID_VALUE', `video: larger than ${limit} bytes`) : e;
  }
}

/** A clip's stored part; its video's strong validator is its SHA-256. */
export type ClipMedia = StoredFile;

/** The stored file of a clip's part, for the media host to serve; null when the clip (of this organization) or the part is missing. */
export async function findClipMedia(deps: Pick<Deps, 'store' | 'config'>, orgUuid: string, clipUuid: string, part: MediaPart): Promise<ClipMedia | null> {
  // Every kind: a timelapse's video is served at its clip's path too.
  const row = await store.findClip(deps.store.db, orgUuid, clipUuid, CLIP_KINDS);
  if (!row) return null;
  const ready = part === 'video' ? row.status === 'COMPLETE' : row.thumbnail_content_type !== null;
  if (!ready) return null;
  const file = mediaFile(deps.config.dataDir, orgUuid, clipUuid, part);
  const size = mediaSize(file);
  if (size === null) return null;
  const contentType = (part === 'video' ? row.video_content_type : row.thumbnail_content_type) ?? 'application/octet-stream';
  return { file, size, contentType, etag: part === 'video' && row.sha256_hex ? `"${row.sha256_hex}"` : null };
}

import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet, facetId } from '../../../ids.js';
import { write } from '../../../bus/write.js';
import type { ClipAccessSettings, SavedClipRecord } from '../clips/schemas.js';
import { clipRecord, createSavedClip, SAVED_CLIP_ENTITY, type ClipDeps } from '../clips/service.js';
import * as store from '../clips/store.js';
import type { ClipStatus, SavedClipsTable } from '../tables.js';

/** The longest splice, in seconds (getMaxSpliceDuration). */
export const MAX_SPLICE_DURATION_SEC = 600;
/** A splice still being made: cancelSplice stops it. */
const IN_PROGRESS: readonly ClipStatus[] = ['INITIATING', 'UPLOADING', 'RENDERING'];
/** What getSplicedClipsInProgress lists: the splices not complete yet, failed ones included (retrySplice takes those). */
const LISTED: readonly ClipStatus[] = [...IN_PROGRESS, 'FAILED'];

export interface SpliceInput {
  cameras: readonly string[];
  startMs: number;
  durationSec: number;
  title?: string | null;
  description?: string | null;
  accessSettings?: ClipAccessSettings | null;
  fisheyeMap?: Record<string, unknown> | null;
}

/**
 * Splices one clip per camera of the footage from `startMs`, in one write: each is INITIATING, and the clip
 * renderer (clip-renderer.ts) makes its video. Refused beyond the longest splice or past now (no footage yet).
 */
export async function splice(deps: ClipDeps, ctx: CallerContext, input: SpliceInput): Promise<SavedClipRecord[]> {
  if (input.durationSec > MAX_SPLICE_DURATION_SEC)
    throw fail('INVALID_VALUE', `durationSec: at most ${MAX_SPLICE_DURATION_SEC} seconds (getMaxSpliceDuration)`);
  const cameras = [...new Set(input.cameras.map((c) => deviceOfFacet(c) ?? c))];
  return write(deps, ctx, async (w) => {
    if (input.startMs + input.durationSec * 1000 > w.nowMs) throw fail('INVALID_VALUE', 'startTimeMillis: the footage would end after now');
    const clips: SavedClipRecord[] = [];
    for (const deviceUuid of cameras) {
      clips.push(
        await createSavedClip(w, deps.config.region, {
          deviceUuid,
          timestampMs: input.startMs,
          durationSec: input.durationSec,
          title: input.title,
          description: input.description,
          accessSettings: input.accessSettings,
          fisheyeMap: input.fisheyeMap,
          spliced: true,
        }),
      );
    }
    return clips;
  });
}

/**
 * spliceFrame: a saved clip (kind FRAME, no duration) holding the camera's JPEG frame at that instant, rendered by
 * the clip renderer as a splice is; refused past now.
 */
export async function spliceFrame(deps: ClipDeps, ctx: CallerContext, input: { camera: string; atMs: number }): Promise<SavedClipRecord> {
  return write(deps, ctx, async (w) => {
    if (input.atMs > w.nowMs) throw fail('INVALID_VALUE', 'timestampMs: the frame would be after now');
    return createSavedClip(w, deps.config.region, {
      deviceUuid: deviceOfFacet(input.camera) ?? input.camera,
      timestampMs: input.atMs,
      durationSec: 0,
      kind: 'FRAME',
      spliced: true,
    });
  });
}

async function spliceRow(w: { tx: Parameters<typeof store.findClip>[0] }, orgUuid: string, uuid: string): Promise<SavedClipsTable> {
  const row = await store.findClip(w.tx, orgUuid, uuid);
  if (!row || row.spliced !== 1) throw fail('NOT_FOUND', 'Spliced clip');
  return row;
}

/**
 * Cancels splices in progress: each becomes FAILED (a render under way drops its work). Every named clip must be
 * a splice of the organization in progress, or nothing changes; `cameras` limits the clips to those cameras'.
 */
export async function cancelSplices(deps: ClipDeps, ctx: CallerContext, uuids: readonly string[], cameras?: readonly string[] | null): Promise<number> {
  if (uuids.length === 0) throw fail('INVALID_VALUE', 'clipUuid: name the splice to cancel (clipUuid or clipUuidList)');
  const only = cameras && cameras.length > 0 ? new Set(cameras.map((c) => deviceOfFacet(c) ?? c)) : null;
  return write(deps, ctx, async (w) => {
    let cancelled = 0;
    for (const uuid of new Set(uuids)) {
      const row = await spliceRow(w, ctx.orgUuid, uuid);
      if (only && !only.has(row.device_uuid)) continue;
      const values = { status: 'FAILED' as const, updated_at_ms: w.nowMs };
      if (!(await store.moveClip(w.tx, ctx.orgUuid, row.uuid, { statuses: IN_PROGRESS }, values))) {
        throw fail('CONFLICT', `Spliced clip ${row.uuid} is ${row.status}: only a splice in progress can be cancelled`);
      }
      w.change({ entity: SAVED_CLIP_ENTITY, entityUuid: row.uuid, type: 'UPDATE', deviceUuid: row.device_uuid, update: clipRecord({ ...row, ...values }) });
      cancelled++;
    }
    return cancelled;
  });
}

/** retrySplice: a FAILED splice starts again (INITIATING, a new render attempt). */
export async function retrySplice(deps: ClipDeps, ctx: CallerContext, uuid: string): Promise<SavedClipRecord> {
  return write(deps, ctx, async (w) => {
    const row = await spliceRow(w, ctx.orgUuid, uuid);
    const values = { status: 'INITIATING' as const, render_attempt: row.render_attempt + 1, updated_at_ms: w.nowMs, sha256_hex: null, byte_count: null };
    if (!(await store.moveClip(w.tx, ctx.orgUuid, row.uuid, { statuses: ['FAILED'] }, values))) {
      throw fail('CONFLICT', `Spliced clip ${row.uuid} is ${row.status}: only a failed splice can be retried`);
    }
    const record = clipRecord({ ...row, ...values });
    w.change({ entity: SAVED_CLIP_ENTITY, entityUuid: row.uuid, type: 'UPDATE', deviceUuid: row.device_uuid, update: record });
    return record;
  });
}

const RENDER_STEPS: Partial<Record<ClipStatus, number>> = { INITIATING: 0, UPLOADING: 1, RENDERING: 2 };

/** The organization's splices not complete yet (the reference's SplicedClipType). */
export async function getSplicedClipsInProgress(deps: Pick<Deps, 'store'>, ctx: CallerContext) {
  const rows = await store.listSplices(deps.store.db, ctx.orgUuid, LISTED);
  return rows.map((row) => {
    const clip = clipRecord(row);
    return {
      clipUuid: row.uuid,
      transactionUuid: row.uuid,
      orgUuid: row.org_uuid,
      userUuid: row.user_uuid,
      deviceUuid: facetId(row.device_uuid),
      devicePresentationOrder: clip.devicePresentationOrder,
      status: row.status,
      statusUpdatedAtMs: row.updated_at_ms ?? row.created_at_ms,
      startTime: row.timestamp_ms,
      timestampMs: row.created_at_ms,
      duration: row.duration_sec,
      title: row.title,
      description: row.description,
      accessSettings: clip.accessSettings,
      clipTargetLocation: clip.clipLocation,
      metadataBucketRegion: clip.clipLocation?.region ?? null,
      totalSegments: 3,
      segmentsUploaded: RENDER_STEPS[row.status] ?? 0,
      saveClip: row.kind !== 'FRAME',
      saveFrame: row.kind === 'FRAME',
      deleted: false,
      consoleDelete: false,
      analyzeClip: false,
      isPolicyEvent: false,
      sendToSharedStorage: false,
      integrationUploadList: [],
    };
  });
}

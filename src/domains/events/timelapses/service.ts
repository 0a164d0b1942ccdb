import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet, facetId, isRuuid } from '../../../ids.js';
import type { TimelapseFormat } from '../../../footage/render-timelapse.js';
import { mediaUrlPath } from '../../../footage/storage.js';
import { fromJson } from '../../../store/columns.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write } from '../../../bus/write.js';
import { findDevices, findLocation, type DeviceRecord } from '../../devices/service.js';
import { newClipRow, type ClipDeps } from '../clips/service.js';
import * as store from '../clips/store.js';
import { PROGRESS, removeClipMedia } from '../clips/saved-clips.service.js';
import { listGroupsWithClips } from '../shared-groups.js';
import type { ClipStatus, SavedClipsTable } from '../tables.js';
import { sampledWindows } from './timelapse-sampling.js';
import { TIMELAPSE, type GenerateTimelapseClipRequest, type TIMELAPSE_STATES, type TimelapseClipRecord } from './schemas.js';

/**
 * Timelapses: a span of cameras' footage, sampled into a short video. A timelapse is a clip row of its own kind
 * (TIMELAPSE): the clip renderer (clip-renderer.ts) renders it as it renders splices (INITIATING, UPLOADING,
 * RENDERING, COMPLETE or FAILED: the timelapse states INITIATED, INPROGRESS, COMPLETE, FAILED), and the media
 * host serves it at its clip path. The saved-clip operations leave timelapses out.
 */
export const TIMELAPSE_ENTITY = 'TIMELAPSE_CLIP';

/** What a timelapse is made of, kept in its clip's details. */
export interface TimelapseSettings {
  stopMs: number;
  format: TimelapseFormat;
  drawCameraDetails: boolean;
  drawTimestamp: boolean;
  skipNights: boolean;
  skipWeekends: boolean;
  /** Its cameras, in the order of the video's sections. */
  cameras: string[];
}

export const timelapseSettings = (row: SavedClipsTable): TimelapseSettings => fromJson<{ timelapse: TimelapseSettings }>(row.details)!.timelapse;

const STATE: Record<ClipStatus, (typeof TIMELAPSE_STATES)[number]> = {
  INITIATING: 'INITIATED',
  UPLOADING: 'INPROGRESS',
  RENDERING: 'INPROGRESS',
  COMPLETE: 'COMPLETE',
  FAILED: 'FAILED',
  OFFLINE: 'FAILED',
  DELETED: 'FAILED',
  UNKNOWN: 'FAILED',
};

export function timelapseRecord(row: SavedClipsTable, shared: boolean): TimelapseClipRecord {
  const settings = timelapseSettings(row);
  return {
    clipUuid: row.uuid,
    orgUuid: row.org_uuid,
    title: row.title,
    clipCreationTime: row.created_at_ms,
    clipDuration: row.duration_sec,
    clipFormat: settings.format,
    videoStartTime: row.timestamp_ms,
    videoStopTime: settings.stopMs,
    sources: settings.cameras.map((uuid) => ({ deviceUuid: facetId(uuid) })),
    status: { percentComplete: PROGRESS[row.status].percent, state: STATE[row.status] },
    drawCameraDetails: settings.drawCameraDetails,
    drawTimestamp: settings.drawTimestamp,
    drawWatermark: false,
    skipNights: settings.skipNights,
    skipWeekends: settings.skipWeekends,
    skipNonBusinessHours: false,
    shared,
    passwordDigest: null,
    videoUrl: row.status === 'COMPLETE' ? mediaUrlPath(row.uuid, 'video') : null,
  };
}

/** The timelapses held by a shared timelapse group whose link still works. */
export async function sharedTimelapses(deps: Pick<Deps, 'clock'>, source: ReadSource, orgUuid: string): Promise<Set<string>> {
  const groups = await listGroupsWithClips(dbOf(source), orgUuid, 'TIMELAPSES');
  return new Set(groups.filter((g) => g.group.expires_at_ms > deps.clock.now()).flatMap((g) => g.clips.map((c) => c.uuid)));
}

/** The organization's cameras named (uuid or facet id), in that order, each once; NOT_FOUND for another's. */
async function camerasOf(source: ReadSource, orgUuid: string, refs: readonly string[]): Promise<DeviceRecord[]> {
  const uuids = [...new Set(refs.map((ref) => (isRuuid(ref) ? ref : deviceOfFacet(ref))))];
  const found = await findDevices(
    source,
    orgUuid,
    uuids.filter((u): u is string => u !== null),
    ['CAMERA'],
  );
  return uuids.map((uuid) => {
    const camera = uuid ? found.get(uuid) : undefined;
    if (!camera) throw fail('NOT_FOUND', 'Camera');
    return camera;
  });
}

/** The wall clock nights and weekends are read on: the first camera's location's time zone (UTC without one). */
export async function timelapseTimeZone(source: ReadSource, camera: Pick<DeviceRecord, 'orgUuid' | 'locationUuid'>): Promise<string> {
  const location = camera.locationUuid ? await findLocation(source, camera.orgUuid, camera.locationUuid) : null;
  return location?.tz ?? 'UTC';
}

/** generateTimelapseClip: a timelapse of the cameras over the span, INITIATED; the clip renderer makes its video. */
export async function generateTimelapse(deps: ClipDeps, ctx: CallerContext, input: GenerateTimelapseClipRequest): Promise<string> {
  const now = deps.clock.now();
  if (input.stopTime <= input.startTime) throw fail('INVALID_VALUE', 'stopTime: must be after startTime');
  if (input.stopTime > now) throw fail('INVALID_VALUE', 'stopTime: the span would end after now');
  if (input.startTime < now - TIMELAPSE.retentionMs) {
    throw fail('INVALID_VALUE', `startTime: footage is kept ${TIMELAPSE.retentionMs / 86_400_000} days (getTimelapseMetadata)`);
  }
  return write(deps, ctx, async (w) => {
    const cameras = await camerasOf(w, ctx.orgUuid, input.deviceUuids);
    const settings: TimelapseSettings = {
      stopMs: input.stopTime,
      format: input.videoFormat ?? 'MPEG',
      drawCameraDetails: input.drawCameraDetails ?? true,
      drawTimestamp: input.drawTimestamp ?? true,
      skipNights: input.skipNights ?? false,
      skipWeekends: input.skipWeekends ?? false,
      cameras: cameras.map((c) => c.uuid),
    };
    if (sampledWindows(input.startTime, input.stopTime, settings, await timelapseTimeZone(w, cameras[0])).length === 0) {
      throw fail('INVALID_VALUE', 'skipNights, skipWeekends: they leave nothing of the span to sample');
    }
    const facets = cameras.map((c) => facetId(c.uuid));
    const row = await newClipRow(w, deps.config.region, {
      deviceUuid: cameras[0].uuid,
      timestampMs: input.startTime,
      durationSec: input.videoDuration ?? TIMELAPSE.defaultVideoSec,
      title: input.title ?? `Timelapse of ${cameras.map((c) => c.name).join(', ')}`,
      kind: 'TIMELAPSE',
      spliced: true,
      details: { deviceUuids: facets, devicePresentationOrder: facets, timelapse: settings },
    });
    await store.insertClip(w.tx, row);
    w.change({ entity: TIMELAPSE_ENTITY, entityUuid: row.uuid, type: 'CREATE', deviceUuid: row.device_uuid, update: timelapseRecord(row, false) });
    return row.uuid;
  });
}

/** getTimelapseClips: the organization's timelapses, newest first, with their progress. */
export async function getTimelapseClips(deps: Pick<Deps, 'store' | 'clock'>, ctx: CallerContext): Promise<TimelapseClipRecord[]> {
  const rows = await store.listClipsOfKind(deps.store.db, ctx.orgUuid, 'TIMELAPSE');
  const shared = await sharedTimelapses(deps, deps, ctx.orgUuid);
  return rows.map((row) => timelapseRecord(row, shared.has(row.uuid)));
}

/** getTimelapseMetadata: the earliest footage a timelapse may start from, for each camera as named. */
export async function getTimelapseMetadata(deps: Pick<Deps, 'store' | 'clock'>, ctx: CallerContext, refs: readonly string[]): Promise<Record<string, string>> {
  await camerasOf(deps, ctx.orgUuid, refs);
  const earliest = String(deps.clock.now() - TIMELAPSE.retentionMs);
  return Object.fromEntries(refs.map((ref) => [ref, earliest]));
}

/** deleteTimelapseClips: every one named is deleted, or none; their media leaves the media host. */
export async function deleteTimelapses(deps: ClipDeps, ctx: CallerContext, uuids: readonly string[]): Promise<void> {
  const wanted = [...new Set(uuids)];
  const rows = await write(deps, ctx, async (w) => {
    const found = await store.findClips(w.tx, ctx.orgUuid, wanted, ['TIMELAPSE']);
    if (found.length !== wanted.length) throw fail('NOT_FOUND', 'Timelapse clip');
    for (const row of found) {
      await store.deleteClip(w.tx, ctx.orgUuid, row.uuid);
      w.change({ entity: TIMELAPSE_ENTITY, entityUuid: row.uuid, type: 'DELETE', deviceUuid: row.device_uuid, update: timelapseRecord(row, false) });
    }
    return found;
  });
  await Promise.all(rows.map((row) => removeClipMedia(deps, row)));
}

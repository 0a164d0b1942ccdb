import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceUuidOf, facetId } from '../../../ids.js';
import { write } from '../../../bus/write.js';
import { createCustomSeekpoints, deleteCustomSeekpoints, listCustomSeekpoints, toSeekpointIndex } from '../../timeline/custom-seekpoints.js';
import type { FootageSeekPoint, PresenceWindowsRequest, SeekpointIndex, TimeWindow } from '../../timeline/seekpoints.schemas.js';
import { inTimeOrder, SOURCE_LIMIT, SPAN_PLAIN, SPAN_SEC, spanOf } from '../../timeline/span.js';
import { mergedPresence, PRESENCE } from '../../timeline/windows.js';
import { findDevices, listLocations } from '../../devices/service.js';
import {
  DELETE_RANGE_MAX_MS,
  type CreateCustomFootageSeekpointsRequest,
  type DeleteCustomFootageSeekpointsRequest,
  type FootageSeekPointSummary,
  type GetAudioSeekpointsRequest,
  type GetCameraFootageSeekpointsV2Request,
  type GetCameraPresenceWindowsRequest,
  type GetCustomFootageSeekpointsV2Request,
  type GetFootageSeekpointsForMultipleRequest,
} from './schemas.js';
import { alertActivities, cameraActivities, deviceOf, devicesOf, toFootageSeekPoint, type CameraActivity } from './service.js';
import * as timeline from './timeline.store.js';

/**
 * The camera and audio gateway timeline operations: seekpoints (activities, custom marks) and presence
 * windows. Every id is checked to be the caller's first; another organization's answers as an unknown one.
 */

type ReadDeps = Pick<Deps, 'store'>;
type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

const CAMERA = ['CAMERA'] as const;
const AUDIO_GATEWAY = ['AUDIO_GATEWAY'] as const;

/** getFootageSeekpointsV2: one camera's activities over the span, oldest first. */
export async function getCameraSeekpoints(deps: ReadDeps, ctx: CallerContext, input: GetCameraFootageSeekpointsV2Request): Promise<FootageSeekPoint[]> {
  const span = spanOf(input.startTime, input.duration, SPAN_PLAIN);
  const camera = await deviceOf(deps, ctx.orgUuid, input.cameraUuid, 'cameraUuid', CAMERA, 'Camera');
  return (await cameraActivities(deps, ctx.orgUuid, [camera.uuid], span, input.includeAnyMotion ?? false)).map(toFootageSeekPoint);
}

const unique = (values: ReadonlyArray<string | null | undefined>) => [...new Set(values.filter((v): v is string => !!v))];

/** A camera's activities summed up: per minute and activity, with the faces, plates and objects seen. */
function summaryOf(activities: readonly CameraActivity[]): FootageSeekPointSummary {
  const counts: Record<string, Record<string, number>> = {};
  for (const a of activities) {
    const minute = String(Math.floor(a.ts / 60_000) * 60);
    const byActivity = (counts[minute] ??= {});
    byActivity[a.activity] = (byActivity[a.activity] ?? 0) + 1;
  }
  return {
    activityCountMap: counts,
    alert: activities.some((a) => a.alert),
    faceNames: unique(activities.map((a) => a.faceName)),
    poses: [],
    recognizedObjects: unique(activities.flatMap((a) => a.recognizedObjects ?? [])),
    unidentifiedFaceIds: unique(activities.map((a) => a.unidentifiedFaceId)),
    vehicleLicensePlates: unique(activities.map((a) => a.licensePlate)),
    vehicleNames: unique(activities.map((a) => a.vehicleName)),
  };
}

/** getFootageSeekpointsForMultiple: each camera's activities over the span summed up, by the camera as named. */
export async function getSeekpointsForMultiple(
  deps: ReadDeps,
  ctx: CallerContext,
  input: GetFootageSeekpointsForMultipleRequest,
): Promise<Record<string, FootageSeekPointSummary>> {
  const span = spanOf(input.startTimeSec, input.durationSec, SPAN_SEC);
  const refs = input.cameraUuids ?? [];
  if (refs.length === 0) throw fail('INVALID_VALUE', 'cameraUuids: name at least one camera');
  const cameras = await devicesOf(deps, ctx.orgUuid, refs, CAMERA, 'Camera');
  const activities = await cameraActivities(deps, ctx.orgUuid, unique(cameras.map((c) => c.uuid)), span, input.includeAnyMotion ?? false);
  return Object.fromEntries(refs.map((ref, i) => [ref, summaryOf(activities.filter((a) => a.cameraUuid === cameras[i].uuid))]));
}

/** createCustomFootageSeekpoints: marks on the caller's camera, in one write, each announced as a CUSTOM_SEEKPOINT. */
export async function createCameraSeekpoints(deps: WriteDeps, ctx: CallerContext, input: CreateCustomFootageSeekpointsRequest): Promise<void> {
  const points = input.footageSeekPoints ?? [];
  if (points.length === 0) throw fail('INVALID_VALUE', 'footageSeekPoints: give at least one seekpoint');
  await write(deps, ctx, async (w) => {
    const camera = await deviceOf(w, ctx.orgUuid, input.cameraUuid, 'cameraUuid', CAMERA, 'Camera');
    await createCustomSeekpoints(w, { kind: 'CAMERA', uuid: camera.uuid, locationUuid: camera.locationUuid }, points);
  });
}

/**
 * getCustomFootageSeekpointsV2: the marks of the cameras named, or else of the locations named (cameras' and
 * doors' marks), over the span, oldest first; narrowed by name and description.
 */
export async function getCameraCustomSeekpoints(deps: ReadDeps, ctx: CallerContext, input: GetCustomFootageSeekpointsV2Request): Promise<SeekpointIndex[]> {
  const span = spanOf(input.startTime, input.duration, SPAN_PLAIN);
  const filter = { name: input.customDisplayName, description: input.customDescription };
  let marks;
  if (input.deviceUuids?.length) {
    const cameras = await devicesOf(deps, ctx.orgUuid, input.deviceUuids, CAMERA, 'Camera');
    marks = await listCustomSeekpoints(deps, ctx.orgUuid, span, { ...filter, targetUuids: unique(cameras.map((c) => c.uuid)) });
  } else if (input.locationUuids?.length) {
    const known = new Set((await listLocations(deps, ctx.orgUuid)).map((l) => l.uuid));
    const missing = input.locationUuids.find((l) => !known.has(l));
    if (missing) throw fail('NOT_FOUND', `Location ${missing}`);
    marks = await listCustomSeekpoints(deps, ctx.orgUuid, span, { ...filter, locationUuids: unique(input.locationUuids) });
  } else {
    throw fail('INVALID_VALUE', 'name deviceUuids or locationUuids');
  }
  return inTimeOrder([marks], (m) => m.timestampMs).map(toSeekpointIndex);
}

/**
 * deleteCustomFootageSeekpoints: deletes each camera's marks in [start, end] (of one name when given), in one
 * write. Each camera answers for itself: one that is not the caller's answers `err` as an unknown one does.
 */
export async function deleteCameraSeekpoints(
  deps: WriteDeps,
  ctx: CallerContext,
  input: DeleteCustomFootageSeekpointsRequest,
): Promise<Record<string, { err: boolean; errMsg: string | null }>> {
  const refs = input.cameraUuids ?? [];
  const { startTimestampMs: fromMs, endTimestampMs: toMs } = input;
  if (refs.length === 0) throw fail('INVALID_VALUE', 'cameraUuids: name at least one camera');
  if (fromMs == null || toMs == null) throw fail('INVALID_VALUE', 'startTimestampMs and endTimestampMs are required');
  if (toMs < fromMs || toMs - fromMs > DELETE_RANGE_MAX_MS) throw fail('INVALID_VALUE', 'endTimestampMs: from startTimestampMs to a day after it');
  return write(deps, ctx, async (w) => {
    const uuids = refs.map((ref) => deviceUuidOf(ref));
    const cameras = await findDevices(
      w,
      ctx.orgUuid,
      uuids.filter((u): u is string => u !== null),
      CAMERA,
    );
    const answer: Record<string, { err: boolean; errMsg: string | null }> = {};
    for (const [i, ref] of refs.entries()) {
      const camera = uuids[i] ? cameras.get(uuids[i]) : undefined;
      if (!camera) answer[ref] = { err: true, errMsg: 'Camera not found' };
      else {
        await deleteCustomSeekpoints(w, camera.uuid, { fromMs, toMs, name: input.customName });
        answer[ref] = { err: false, errMsg: null };
      }
    }
    return answer;
  });
}

/** getAudioSeekpoints: the activities an audio gateway alerted on over the span (its policy alerts' triggers), oldest first. */
export async function getAudioSeekpoints(deps: ReadDeps, ctx: CallerContext, input: GetAudioSeekpointsRequest): Promise<FootageSeekPoint[]> {
  const span = spanOf(input.startTime, input.duration, SPAN_PLAIN);
  const gateway = await deviceOf(deps, ctx.orgUuid, input.deviceUuid, 'deviceUuid', AUDIO_GATEWAY, 'Audio gateway');
  const alerts = await timeline.listAlertsInSpan(deps.store.db, { orgUuid: ctx.orgUuid, deviceUuids: [gateway.uuid], ...span }, SOURCE_LIMIT);
  return inTimeOrder([alerts.flatMap((row) => alertActivities(row, true))], (a) => a.ts).map(toFootageSeekPoint);
}

/** getPresenceWindows (camera): the spans of its alerts and its line crossings, by its facet id. */
export async function getCameraPresenceWindows(
  deps: ReadDeps,
  ctx: CallerContext,
  input: GetCameraPresenceWindowsRequest,
): Promise<Record<string, TimeWindow[]>> {
  const span = spanOf(input.startTimeSec, input.durationSec, SPAN_SEC);
  const camera = await deviceOf(deps, ctx.orgUuid, input.cameraUuid, 'cameraUuid', CAMERA, 'Camera');
  const q = { orgUuid: ctx.orgUuid, deviceUuids: [camera.uuid], ...span };
  const [alerts, crossings] = await Promise.all([
    timeline.alertBuckets(deps.store.db, q, PRESENCE.gapMs),
    timeline.crossingBuckets(deps.store.db, q, PRESENCE.gapMs),
  ]);
  const windows = mergedPresence(
    [
      { buckets: alerts, instantMs: PRESENCE.instantMs },
      { buckets: crossings, instantMs: PRESENCE.instantMs },
    ],
    span,
  );
  return { [facetId(camera.uuid)]: windows };
}

/** getPresenceWindows (audio gateway): the spans of its alerts, by its facet id (`<uuid>.a0`). */
export async function getAudioGatewayPresenceWindows(deps: ReadDeps, ctx: CallerContext, input: PresenceWindowsRequest): Promise<Record<string, TimeWindow[]>> {
  const span = spanOf(input.startTimeSec, input.durationSec, SPAN_SEC);
  const gateway = await deviceOf(deps, ctx.orgUuid, input.deviceUuid, 'deviceUuid', AUDIO_GATEWAY, 'Audio gateway');
  const alerts = await timeline.alertBuckets(deps.store.db, { orgUuid: ctx.orgUuid, deviceUuids: [gateway.uuid], ...span }, PRESENCE.gapMs);
  return { [facetId(gateway.uuid, 'a0')]: mergedPresence([{ buckets: alerts, instantMs: PRESENCE.instantMs }], span) };
}

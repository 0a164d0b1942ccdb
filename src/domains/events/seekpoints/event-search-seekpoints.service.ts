import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import type { Activity } from '../../../schemas/activities.js';
import type { CombinedSeekPoint, ComponentSeekPoint } from '../../timeline/seekpoints.schemas.js';
import { inTimeOrder, SOURCE_LIMIT, spanOf, type Span } from '../../timeline/span.js';
import { COMPONENT_SEEKPOINT_FINDERS, findComponentSeekpoints, findDoorsSeekpoints } from '../../access/door-events/component-seekpoints.service.js';
import { deviceEventsInSpan } from '../../devices/device-reads/device-events.service.js';
import type { GetCameraOrDoorbellCameraSeekpointsRequest, GetEventSeekpointsRequest } from './schemas.js';
import { CAMERA_KINDS, cameraActivities, deviceOf, devicesOf, toCombinedSeekPoints, type CameraActivity } from './service.js';

/**
 * The event search's seekpoints (both deprecated by the platform): a camera's or doorbell camera's activities
 * as combined seekpoints, and one answer gathering the seekpoints of cameras and access-controlled doors.
 */

type ReadDeps = Pick<Deps, 'store'>;

const keep = (activitySet: readonly Activity[] | null | undefined) => {
  const only = activitySet?.length ? new Set<string>(activitySet) : null;
  return (activity: string | null | undefined) => !only || (!!activity && only.has(activity));
};

/** A camera's activities over the span, with a doorbell camera's presses (AC_DB_TRIGGERED). */
async function deviceActivities(deps: ReadDeps, orgUuid: string, device: { uuid: string; deviceType: string }, span: Span, includeAnyMotion: boolean) {
  const [activities, presses] = await Promise.all([
    cameraActivities(deps, orgUuid, [device.uuid], span, includeAnyMotion),
    device.deviceType === 'DOORBELL_CAMERA'
      ? deviceEventsInSpan(deps, { orgUuid, deviceUuids: [device.uuid], families: ['component'], ...span, limit: SOURCE_LIMIT })
      : [],
  ]);
  const pressed = presses.map((p): CameraActivity => ({ ts: p.ts, activity: 'AC_DB_TRIGGERED', cameraUuid: device.uuid, alert: false, original: p.record }));
  return inTimeOrder([activities, pressed], (a) => a.ts);
}

/** getCameraOrDoorbellCameraSeekpoints: the device's activities of the set (all when none), combined as asked. */
export async function getCameraOrDoorbellSeekpoints(
  deps: ReadDeps,
  ctx: CallerContext,
  input: GetCameraOrDoorbellCameraSeekpointsRequest,
): Promise<CombinedSeekPoint[]> {
  const span = spanOf(input.startTimeSec, input.durationSecs, { start: 'startTimeSec', duration: 'durationSecs' });
  const device = await deviceOf(deps, ctx.orgUuid, input.deviceUuid, 'deviceUuid', CAMERA_KINDS, 'Camera');
  const wanted = keep(input.activitySet);
  const activities = (await deviceActivities(deps, ctx.orgUuid, device, span, input.includeAnyMotion ?? false)).filter((a) => wanted(a.activity));
  return toCombinedSeekPoints(activities, (input.seekpointDurationIntervalSecs ?? 0) * 1000);
}

/** A component seekpoint as the event search answers it. */
function componentCombined(p: ComponentSeekPoint): CombinedSeekPoint {
  return {
    activity: p.activity,
    ...(p.customActivityColor ? { customActivityColor: p.customActivityColor } : {}),
    customActivityDescription: p.customActivityDescription,
    customActivityDisplayName: p.customActivityDisplayName,
    originalEvent: p.originalEvent,
    timestampMs: p.timestampMs,
    seekpointStartTimeMs: p.timestampMs,
    seekpointEndTimeMs: p.timestampMs,
  };
}

const byField = (field: string) => COMPONENT_SEEKPOINT_FINDERS.find((f) => f.finder.field === field)!;

/**
 * getEventSeekpoints: the seekpoints of each sub-request (a camera's, several cameras', doors' and a
 * controller's doors'), together in time order and narrowed to the activity set. A sub-request without its
 * own span takes the request's. Clothing colours and motion grids are not recorded, so those searches are refused.
 */
export async function getEventSeekpoints(deps: ReadDeps, ctx: CallerContext, input: GetEventSeekpointsRequest): Promise<CombinedSeekPoint[]> {
  if (input.searchColorAndVehicleByColorWSRequest)
    throw fail('INVALID_VALUE', 'searchColorAndVehicleByColorWSRequest: Gatehouse records no clothing or vehicle colours');
  if (input.searchMotionGridWithActivitiesWSRequest) throw fail('INVALID_VALUE', 'searchMotionGridWithActivitiesWSRequest: Gatehouse records no motion grids');
  const orgUuid = ctx.orgUuid;
  const start = (own: number | null | undefined) => own ?? input.startTimeSec;
  const length = (own: number | null | undefined) => own ?? input.durationSec;
  const answers: Array<Promise<CombinedSeekPoint[]>> = [];

  const single = input.seekpointsWSRequest;
  if (single) {
    const span = spanOf(start(single.startTimeSec), length(single.durationSecs), {
      start: 'seekpointsWSRequest.startTimeSec',
      duration: 'seekpointsWSRequest.durationSecs',
    });
    const device = await deviceOf(deps, orgUuid, single.deviceUuid, 'seekpointsWSRequest.deviceUuid', CAMERA_KINDS, 'Camera');
    answers.push(deviceActivities(deps, orgUuid, device, span, single.includeAnyMotion ?? false).then((a) => toCombinedSeekPoints(a, 0)));
  }
  const footage = input.videoFootageWSRequest;
  if (footage) {
    const span = spanOf(start(footage.startTime), length(footage.duration), {
      start: 'videoFootageWSRequest.startTime',
      duration: 'videoFootageWSRequest.duration',
    });
    const refs = footage.useMultiCamera || !footage.cameraUuid ? (footage.cameraUuids ?? []) : [footage.cameraUuid];
    if (refs.length === 0) throw fail('INVALID_VALUE', 'videoFootageWSRequest: name cameraUuid or cameraUuids');
    const cameras = await devicesOf(deps, orgUuid, refs, ['CAMERA'], 'Camera');
    const uuids = [...new Set(cameras.map((c) => c.uuid))];
    answers.push(cameraActivities(deps, orgUuid, uuids, span, footage.includeAnyMotion ?? false).then((a) => toCombinedSeekPoints(a, 0)));
  }
  const door = input.componentSeekPointsByAccessControlledDoorWSRequest;
  const doors = input.componentSeekPointsByAccessControlledDoorsWSRequest;
  const owner = input.componentSeekPointsByOwnerDeviceWSRequest;
  const componentSpan = (own: { startTimeSecEpochExclusive?: number | null; durationSec?: number | null }) => ({
    startTimeSecEpochExclusive: start(own.startTimeSecEpochExclusive),
    durationSec: length(own.durationSec),
  });
  if (door)
    answers.push(
      findComponentSeekpoints(deps, ctx, byField('accessControlledDoorUuid'), { ...door, ...componentSpan(door) }).then((p) => p.map(componentCombined)),
    );
  if (doors) answers.push(findDoorsSeekpoints(deps, ctx, { ...doors, ...componentSpan(doors) }).then((p) => p.map(componentCombined)));
  if (owner)
    answers.push(findComponentSeekpoints(deps, ctx, byField('ownerDeviceUuid'), { ...owner, ...componentSpan(owner) }).then((p) => p.map(componentCombined)));
  if (answers.length === 0) throw fail('INVALID_VALUE', 'give at least one sub-request (seekpointsWSRequest, videoFootageWSRequest, componentSeekPointsBy...)');
  const wanted = keep(input.activitySet);
  const all = (await Promise.all(answers)).map((list) => list.filter((p) => wanted(p.activity)));
  return inTimeOrder(all, (p) => p.timestampMs!);
}

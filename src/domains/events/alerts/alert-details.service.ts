import type { Static } from 'typebox';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { listCameraBoxes, type FootageBox } from '../../devices/cameras/footage-boxes.service.js';
import type { ClipBoundingBox, ClipSeekPoint, PolicyAlertWithDetails } from './alert-details.schemas.js';
import type { PolicyAlertRecord } from './schemas.js';
import { findPolicyAlert } from './service.js';

type Details = Static<typeof PolicyAlertWithDetails>;

/** A footage box as a clip box of the alert: the catalogue's long names, its time as seconds from the alert. */
function clipBox(box: FootageBox, alertMs: number): ClipBoundingBox {
  return {
    activity: box.a,
    alert: box.al,
    left: box.l,
    top: box.t,
    right: box.r,
    bottom: box.b,
    confidence: box.c,
    croppedImageLocator: box.croppedImageLocator,
    customActivityColor: box.customActivityColor,
    customActivityDescription: box.cd,
    customActivityDisplayName: box.cdn,
    faceName: box.fn,
    inMotion: box.m,
    keypointsV2: box.kp,
    licensePlate: box.lp,
    loudness: box.loudness,
    objectId: box.objectId,
    pose: box.p,
    relativeSecond: (box.ts - alertMs) / 1000,
    sensorValType: box.sensorValType,
    toastOrderIdInfo: box.toastOrderIdInfo,
    unidentifiedFaceId: box.uf,
    vehicleName: box.vn,
  };
}

/** One seek point per trigger of the alert, at its start. */
function seekPoints(alert: PolicyAlertRecord): ClipSeekPoint[] {
  return alert.policyAlertTriggers.map((activity, id) => ({ id, activity, alert: true, relativeSecond: 0 }));
}

/** `getPolicyAlertDetails`: the alert with its boxes (the camera's over the alert), seek points, faces and vehicles. */
export async function getPolicyAlertDetails(deps: Pick<Deps, 'store'>, ctx: CallerContext, uuid: string): Promise<Details> {
  const alert = await findPolicyAlert(deps, ctx.orgUuid, uuid);
  if (!alert) throw fail('NOT_FOUND', 'Policy alert');
  const untilMs = alert.timestampMs + Math.max(alert.durationSec ?? 0, 1) * 1000;
  const boxes = (await listCameraBoxes(deps, alert.deviceUuid, alert.timestampMs, untilMs)).map((box) => clipBox(box, alert.timestampMs));
  const points = seekPoints(alert);
  const faces = alert.alertingEventFaces ?? [];
  const vehicles = alert.alertingEventVehicles ?? [];
  return {
    ...alert,
    boundingBoxes: boxes,
    boundingBoxesMap: { [alert.deviceUuid]: boxes },
    seekPoints: points,
    seekPointsMap: { [alert.deviceUuid]: points },
    componentCompositeSeekPointsMap: {},
    recognizedEventFaces: faces.filter((f) => f.personUuid),
    unrecognizedEventFaces: faces.filter((f) => !f.personUuid),
    recognizedEventVehicles: vehicles.filter((v) => v.vehicleName),
    unrecognizedEventVehicles: vehicles.filter((v) => !v.vehicleName),
  };
}

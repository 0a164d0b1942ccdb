import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceUuidOf, facetId } from '../../../ids.js';
import type { Activity, FootageColor } from '../../../schemas/activities.js';
import type { ReadSource } from '../../../store/reader.js';
import { listCustomSeekpoints, type CustomSeekpointRecord } from '../../timeline/custom-seekpoints.js';
import type { CombinedSeekPoint, FootageSeekPoint } from '../../timeline/seekpoints.schemas.js';
import { inTimeOrder, SOURCE_LIMIT, type Span } from '../../timeline/span.js';
import { findDevices, type DeviceRecord } from '../../devices/service.js';
import type { DeviceKind } from '../../devices/tables.js';
import { faceEventsInSpan } from '../../faces/face-events.service.js';
import { toRecord as toAlertRecord } from '../alerts/service.js';
import * as timeline from './timeline.store.js';

/**
 * A camera's seekpoints: the activities of its footage over a span, read from the records the events domain
 * keeps (policy alerts, line crossings, plate reads), the faces domain's sightings and the camera's custom
 * marks. One query per source whatever the span, each over a (org, device, time) index; a span holding more
 * than one answer carries is refused (src/domains/timeline/span.ts).
 */

type ReadDeps = Pick<Deps, 'store'>;

/** One activity of a camera at an instant, before it takes one of the answers' shapes. */
export interface CameraActivity {
  ts: number;
  activity: Activity;
  /** The camera's (or doorbell camera's) uuid. */
  cameraUuid: string;
  alert: boolean;
  faceName?: string | null;
  unidentifiedFaceId?: string | null;
  licensePlate?: string | null;
  vehicleName?: string | null;
  recognizedObjects?: string[];
  custom?: { name: string; description: string | null; color: FootageColor | null; displayOverlay: boolean | null };
  /** The record behind the activity (the alert, crossing, sighting, plate read or mark). */
  original: Record<string, unknown>;
}

export const CAMERA_KINDS: readonly DeviceKind[] = ['CAMERA', 'DOORBELL_CAMERA'];

/**
 * The organization's devices of the references (uuids or facet ids), in one query, in the order named; an
 * unknown one, another organization's or one of another kind is refused as not found.
 */
export async function devicesOf(
  source: ReadSource,
  orgUuid: string,
  refs: readonly string[],
  kinds: readonly DeviceKind[],
  what: string,
): Promise<DeviceRecord[]> {
  const uuids = refs.map((ref) => deviceUuidOf(ref));
  const found = await findDevices(
    source,
    orgUuid,
    uuids.filter((u): u is string => u !== null),
    kinds,
  );
  return refs.map((ref, i) => {
    const device = uuids[i] ? found.get(uuids[i]) : undefined;
    if (!device) throw fail('NOT_FOUND', `${what} ${ref}`);
    return device;
  });
}

/** One device named by a nullable field: refused when absent, unknown or of another organization. */
export async function deviceOf(
  source: ReadSource,
  orgUuid: string,
  ref: string | null | undefined,
  field: string,
  kinds: readonly DeviceKind[],
  what: string,
): Promise<DeviceRecord> {
  if (!ref) throw fail('INVALID_VALUE', `${field} is required`);
  const uuid = deviceUuidOf(ref);
  const found = uuid ? (await findDevices(source, orgUuid, [uuid], kinds)).get(uuid) : undefined;
  if (!found) throw fail('NOT_FOUND', what);
  return found;
}

const ENTER_EXIT = { HUMAN: ['HUMAN_ENTER', 'HUMAN_EXIT'], VEHICLE: ['CAR_ENTER', 'CAR_EXIT'] } as const;

/** Each trigger of an alert is an activity (plain MOTION only with includeAnyMotion: it is the noisiest). */
export function alertActivities(row: Awaited<ReturnType<typeof timeline.listAlertsInSpan>>[number], includeAnyMotion: boolean): CameraActivity[] {
  const alert = toAlertRecord(row);
  const face = alert.alertingEventFaces?.[0];
  const vehicle = alert.alertingEventVehicles?.[0];
  return (alert.policyAlertTriggers ?? [])
    .filter((t) => includeAnyMotion || t !== 'MOTION')
    .map((activity) => ({
      ts: row.timestamp_ms,
      activity,
      cameraUuid: row.device_uuid,
      alert: true,
      faceName: face?.faceName ?? null,
      licensePlate: vehicle?.licensePlateNumber ?? null,
      vehicleName: vehicle?.vehicleName ?? null,
      original: alert as unknown as Record<string, unknown>,
    }));
}

/** A crossing is an ENTER when objects came in and an EXIT when they went out (faces cross as sightings instead). */
function crossingActivities(row: timeline.CrossingRow): CameraActivity[] {
  if (row.object === 'FACE') return [];
  const [enter, exit] = ENTER_EXIT[row.object];
  const original = { deviceUuid: row.device_uuid, crossingObject: row.object, ingress: row.ingress, egress: row.egress, timestampMs: row.timestamp_ms };
  const base = { ts: Number(row.timestamp_ms), cameraUuid: row.device_uuid, alert: false, recognizedObjects: [row.object], original };
  return [...(row.ingress > 0 ? [{ ...base, activity: enter }] : []), ...(row.egress > 0 ? [{ ...base, activity: exit }] : [])];
}

export function customActivity(mark: CustomSeekpointRecord, cameraUuid: string): CameraActivity {
  return {
    ts: mark.timestampMs,
    activity: 'CUSTOM',
    cameraUuid,
    alert: false,
    custom: { name: mark.name, description: mark.description, color: mark.color, displayOverlay: mark.displayOverlay },
    original: mark as unknown as Record<string, unknown>,
  };
}

/**
 * The activities of some cameras over the span, oldest first: alerts' triggers, crossings, face sightings
 * (identified or not), plate reads (trusted, identified by a saved vehicle's name, or not) and custom marks.
 */
export async function cameraActivities(deps: ReadDeps, orgUuid: string, cameraUuids: readonly string[], span: Span, includeAnyMotion: boolean) {
  const q = { orgUuid, deviceUuids: cameraUuids, ...span };
  const db = deps.store.db;
  const [alerts, crossings, faces, plates, marks] = await Promise.all([
    timeline.listAlertsInSpan(db, q, SOURCE_LIMIT),
    timeline.listCrossingsInSpan(db, q, ['HUMAN', 'VEHICLE'], SOURCE_LIMIT),
    faceEventsInSpan(deps, { orgUuid, cameraUuids, ...span, limit: SOURCE_LIMIT }),
    timeline.listPlateReadsInSpan(db, q, SOURCE_LIMIT),
    listCustomSeekpoints(deps, orgUuid, span, { targetUuids: cameraUuids, kind: 'CAMERA' }),
  ]);
  const vehicles = new Map(
    (await timeline.findVehiclesByPlates(db, orgUuid, [...new Set(plates.map((p) => p.license_plate))])).map((v) => [v.license_plate, v]),
  );
  return inTimeOrder<CameraActivity>(
    [
      alerts.flatMap((row) => alertActivities(row, includeAnyMotion)),
      crossings.flatMap(crossingActivities),
      faces.map((f) => ({
        ts: f.eventTimestamp!,
        activity: f.personUuid ? 'FACE_IDENTIFIED' : 'FACE_UNIDENTIFIED',
        cameraUuid: deviceUuidOf(f.deviceUuid!)!,
        alert: false,
        faceName: f.faceName,
        unidentifiedFaceId: f.personUuid ? null : f.uuid,
        original: f as unknown as Record<string, unknown>,
      })),
      plates.map((p) => {
        const vehicle = vehicles.get(p.license_plate);
        const activity: Activity = vehicle?.trust ? 'LICENSEPLATE_TRUSTED' : vehicle?.name ? 'LICENSEPLATE_IDENTIFIED' : 'LICENSEPLATE_UNIDENTIFIED';
        return {
          ts: Number(p.timestamp_ms),
          activity,
          cameraUuid: p.device_uuid,
          alert: false,
          licensePlate: p.license_plate,
          vehicleName: vehicle?.name ?? null,
          original: { uuid: p.uuid, deviceUuid: facetId(p.device_uuid), licensePlate: p.license_plate, timestampMs: Number(p.timestamp_ms) },
        };
      }),
      marks.map((m) => customActivity(m, m.deviceUuid!.slice(0, 22))),
    ],
    (a) => a.ts,
  );
}

/** An activity as FootageSeekPointV2Type. */
export function toFootageSeekPoint(a: CameraActivity): FootageSeekPoint {
  return {
    a: a.activity,
    ts: a.ts,
    al: a.alert,
    m: a.activity.startsWith('MOTION'),
    fn: a.faceName ?? null,
    uf: a.unidentifiedFaceId ?? null,
    lp: a.licensePlate ?? null,
    vn: a.vehicleName ?? null,
    ro: a.recognizedObjects ?? null,
    cdn: a.custom?.name ?? null,
    cd: a.custom?.description ?? null,
    // The colour is an enum the catalogue does not make nullable: an activity without one leaves it out.
    ...(a.custom?.color ? { cc: a.custom.color } : {}),
    dcao: a.custom?.displayOverlay ?? null,
  };
}

/**
 * Activities as the event search's combined seekpoints: consecutive activities of the same kind on the same
 * camera less than `intervalMs` apart make one run (start and end times; 0: every activity its own).
 */
export function toCombinedSeekPoints(activities: readonly CameraActivity[], intervalMs: number): CombinedSeekPoint[] {
  const runs: Array<{ first: CameraActivity; endMs: number }> = [];
  const open = new Map<string, (typeof runs)[number]>();
  for (const a of activities) {
    const key = `${a.cameraUuid}/${a.activity}/${a.custom?.name ?? ''}`;
    const run = open.get(key);
    if (run && intervalMs > 0 && a.ts - run.endMs < intervalMs) run.endMs = a.ts;
    else {
      const next = { first: a, endMs: a.ts };
      runs.push(next);
      open.set(key, next);
    }
  }
  return runs.map(({ first: a, endMs }) => ({
    activity: a.activity,
    cameraUuid: facetId(a.cameraUuid),
    // An enum the catalogue does not let be null: left out when the activity is not a custom one.
    ...(a.custom?.color ? { customActivityColor: a.custom.color } : {}),
    customActivityDescription: a.custom?.description ?? null,
    customActivityDisplayName: a.custom?.name ?? null,
    faceName: a.faceName ?? null,
    licensePlate: a.licensePlate ?? null,
    unidentifiedFaceId: a.unidentifiedFaceId ?? null,
    originalEvent: a.original,
    timestampMs: a.ts,
    seekpointStartTimeMs: a.ts,
    seekpointEndTimeMs: endMs,
  }));
}

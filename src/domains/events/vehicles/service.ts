import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { facetId, newRuuid } from '../../../ids.js';
import { fromJson, toJson } from '../../../store/columns.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type Actor } from '../../../bus/write.js';
import { sightingImageKey } from '../../../footage/sighting-images.js';
import { devicesNamed, findDevice } from '../../devices/service.js';
import type { PolicyAlertRecord } from '../alerts/schemas.js';
import { createPolicyAlert } from '../alerts/service.js';
import * as store from './store.js';
import {
  VEHICLE_EVENT_PAGE,
  type GetVehicleEventsRequest,
  type SaveVehicleRequest,
  type SearchLicensePlatesRequest,
  type VehicleEventRecord,
  type VehicleRecord,
} from './schemas.js';
import type { VehicleEventsTable, VehiclesTable } from '../tables.js';

/** The stream's entity names of a saved vehicle and of a plate read. */
export const VEHICLE_ENTITY = 'VEHICLE';
export const VEHICLE_EVENT_ENTITY = 'VEHICLE_EVENT';

type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;
type ReadDeps = Pick<Deps, 'store'>;

/** A plate as stored and compared: upper case, without spaces and dashes. */
export function normalisePlate(plate: string): string {
  const normal = plate.toUpperCase().replace(/[\s-]/g, '');
  if (!/^[A-Z0-9]{1,16}$/.test(normal)) throw fail('INVALID_VALUE', `licence plate "${plate}": 1 to 16 letters and digits (spaces and dashes are ignored)`);
  return normal;
}

function toVehicle(row: VehiclesTable): VehicleRecord {
  return {
    orgUuid: row.org_uuid,
    licensePlate: row.license_plate,
    name: row.name,
    alert: row.alert === 1,
    trust: row.trust === 1,
    thumbnailS3Key: row.thumbnail_s3_key,
    createdAtMillis: row.created_at_ms,
    labels: fromJson<string[]>(row.labels) ?? [],
  };
}

/** saveVehicle: creates the vehicle of a plate, or updates the fields given of the one saved. */
export async function saveVehicle(deps: WriteDeps, ctx: CallerContext, input: SaveVehicleRequest): Promise<VehicleRecord> {
  const plate = normalisePlate(input.vehicleLicensePlate);
  return write(deps, ctx, async (w) => {
    const existing = await store.findVehicle(w.tx, ctx.orgUuid, plate);
    const values = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.alert != null ? { alert: input.alert ? 1 : 0 } : {}),
      ...(input.trust != null ? { trust: input.trust ? 1 : 0 } : {}),
      ...(input.thumbnailS3Key !== undefined ? { thumbnail_s3_key: input.thumbnailS3Key } : {}),
    };
    let row: VehiclesTable;
    if (existing) {
      row = { ...existing, ...values };
      await store.updateVehicle(w.tx, ctx.orgUuid, plate, values);
    } else {
      row = {
        org_uuid: ctx.orgUuid,
        license_plate: plate,
        name: null,
        alert: 0,
        trust: 0,
        thumbnail_s3_key: null,
        labels: '[]',
        created_at_ms: input.createdAtMillis ?? w.nowMs,
        ...values,
      };
      await store.insertVehicle(w.tx, row);
    }
    const record = toVehicle(row);
    w.change({ entity: VEHICLE_ENTITY, entityUuid: plate, type: existing ? 'UPDATE' : 'CREATE', update: record });
    return record;
  });
}

export async function getVehicles(deps: ReadDeps, ctx: CallerContext): Promise<VehicleRecord[]> {
  return (await store.listVehicles(deps.store.db, ctx.orgUuid)).map(toVehicle);
}

export async function deleteVehicle(deps: WriteDeps, ctx: CallerContext, plateInput: string): Promise<void> {
  const plate = normalisePlate(plateInput);
  await write(deps, ctx, async (w) => {
    const row = await store.findVehicle(w.tx, ctx.orgUuid, plate);
    if (!row) throw fail('NOT_FOUND', 'Vehicle');
    await store.deleteVehicle(w.tx, ctx.orgUuid, plate);
    w.change({ entity: VEHICLE_ENTITY, entityUuid: plate, type: 'DELETE', update: toVehicle(row) });
  });
}

/** Adds or removes a label of a saved vehicle; adding one it has, or removing one it has not, changes nothing. */
export async function changeVehicleLabel(
  deps: WriteDeps,
  ctx: CallerContext,
  input: { vehicleLicensePlate: string; label: string },
  add: boolean,
): Promise<VehicleRecord> {
  const plate = normalisePlate(input.vehicleLicensePlate);
  return write(deps, ctx, async (w) => {
    const row = await store.findVehicle(w.tx, ctx.orgUuid, plate);
    if (!row) throw fail('NOT_FOUND', 'Vehicle');
    const labels = fromJson<string[]>(row.labels) ?? [];
    const next = add ? [...new Set([...labels, input.label])].sort() : labels.filter((l) => l !== input.label);
    if (next.length === labels.length && next.every((l, i) => l === labels[i])) return toVehicle(row);
    const updated = { ...row, labels: toJson(next)! };
    await store.updateVehicle(w.tx, ctx.orgUuid, plate, { labels: updated.labels });
    const record = toVehicle(updated);
    w.change({ entity: VEHICLE_ENTITY, entityUuid: plate, type: 'UPDATE', update: record });
    return record;
  });
}

export async function getVehicleLabels(deps: ReadDeps, ctx: CallerContext): Promise<Record<string, string[]>> {
  const answer: Record<string, string[]> = {};
  for (const v of await getVehicles(deps, ctx)) if (v.labels && v.labels.length > 0) answer[v.licensePlate!] = v.labels;
  return answer;
}

/** A plate read as the API answers it, named after its saved vehicle (names: plate to vehicle name). */
export function toEvent(row: VehicleEventsTable, names: ReadonlyMap<string, string | null>): VehicleEventRecord {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    deviceUuid: facetId(row.device_uuid),
    locationUuid: row.location_uuid,
    eventTimestamp: row.timestamp_ms,
    vehicleLicensePlate: row.license_plate,
    name: names.get(row.license_plate) ?? null,
    matchingLicensePlates: [row.license_plate],
    partialLicensePlates: [],
    // The examples append the key to `/media/faces?s3ObjectKey=` (M14): the media host renders the read's camera.
    imageS3Key: sightingImageKey('plate', row.org_uuid, row.uuid, 'image'),
    thumbnailS3Key: sightingImageKey('plate', row.org_uuid, row.uuid, 'thumb'),
    readLicensePlate: row.read_plate ?? null,
    reportedAtMs: row.reported_at_ms == null ? null : Number(row.reported_at_ms),
    confidence: row.confidence ?? null,
  };
}

/** The camera and instant of a plate read of the organization (what its image shows); null when it has none such. */
export async function plateReadAt(deps: ReadDeps, orgUuid: string, uuid: string): Promise<{ cameraUuid: string; timestampMs: number } | null> {
  const [row] = await store.findVehicleEvents(deps.store.db, orgUuid, [uuid]);
  return row ? { cameraUuid: row.device_uuid, timestampMs: row.timestamp_ms } : null;
}

export interface PlateReadResult {
  vehicleEvent: VehicleEventRecord;
  /** The LICENSEPLATE_ALERT raised when the plate is on the watch list (and not trusted). */
  policyAlert: PolicyAlertRecord | null;
}

/**
 * A camera read a plate (the simulator's `plate` event, a device's report): records the event and, when the
 * plate's saved vehicle is on the watch list and not trusted, raises a LICENSEPLATE_ALERT policy alert in
 * the same write.
 */
export async function recordPlateRead(
  deps: WriteDeps,
  actor: Actor,
  input: { cameraUuid: string; plate: string; confidence: number; timestampMs?: number },
): Promise<PlateReadResult> {
  const plate = normalisePlate(input.plate);
  return write(deps, actor, async (w) => {
    const camera = await findDevice(w, actor.orgUuid, input.cameraUuid, ['CAMERA']);
    if (!camera) throw fail('NOT_FOUND', 'Camera');
    const row: VehicleEventsTable = {
      uuid: newRuuid(),
      org_uuid: actor.orgUuid,
      device_uuid: camera.uuid,
      location_uuid: camera.locationUuid,
      license_plate: plate,
      timestamp_ms: input.timestampMs ?? w.nowMs,
      confidence: input.confidence,
    };
    await store.insertVehicleEvent(w.tx, row);
    const vehicle = await store.findVehicle(w.tx, actor.orgUuid, plate);
    const vehicleEvent = toEvent(row, new Map([[plate, vehicle?.name ?? null]]));
    w.change({
      entity: VEHICLE_EVENT_ENTITY,
      entityUuid: row.uuid,
      type: 'CREATE',
      deviceUuid: camera.uuid,
      update: vehicleEvent,
      timestampMs: row.timestamp_ms,
    });
    let policyAlert: PolicyAlertRecord | null = null;
    if (vehicle && vehicle.alert === 1 && vehicle.trust === 0) {
      const v = toVehicle(vehicle);
      policyAlert = await createPolicyAlert(w, {
        deviceUuid: camera.uuid,
        policyAlertTriggers: ['LICENSEPLATE_ALERT'],
        timestampMs: row.timestamp_ms,
        alertingEventVehicles: [
          { licensePlateNumber: plate, vehicleName: v.name, labels: v.labels, imageS3Bucket: null, imageS3Key: null, imageS3Region: null },
        ],
        textDescription: `Watched licence plate ${plate}${v.name ? ` (${v.name})` : ''} on ${camera.name}`,
      });
    }
    return { vehicleEvent, policyAlert };
  });
}

export function checkRange(fromMs: number | null | undefined, beforeMs: number | null | undefined): void {
  if (fromMs != null && beforeMs != null && fromMs > beforeMs) throw fail('INVALID_VALUE', 'the start time must not be after the end time');
}

/** The organization's saved vehicles by plate. */
export async function namesOf(source: ReadSource, orgUuid: string): Promise<Map<string, VehicleRecord>> {
  return new Map((await store.listVehicles(dbOf(source), orgUuid)).map((row) => [row.license_plate, toVehicle(row)]));
}

/**
 * getVehicleEvents: plate reads newest first. The plate queries (exact plates, a fuzzy plate, saved
 * vehicles' names and labels) add up to the set of plates searched; unnamedQuery keeps the plates no saved
 * vehicle names. Pages by the last event (lastEventTimestamp, lastUuid).
 */
export async function getVehicleEvents(deps: ReadDeps, ctx: CallerContext, input: GetVehicleEventsRequest): Promise<VehicleEventRecord[]> {
  checkRange(input.startTimeMs, input.endTimeMs);
  if ((input.lastEventTimestamp != null) !== (input.lastUuid != null))
    throw fail('INVALID_VALUE', 'lastEventTimestamp and lastUuid form the pagination cursor: give both (the last event of the previous page) or neither');
  const vehicles = await namesOf(deps, ctx.orgUuid);
  let plates: Set<string> | null = null;
  const addPlates = (list: Iterable<string>) => {
    plates ??= new Set();
    for (const p of list) plates.add(p);
  };
  if (input.licensePlateExactQuery?.length) addPlates(input.licensePlateExactQuery.map(normalisePlate));
  if (input.licensePlateFuzzyQuery)
    addPlates(
      fuzzyMatches(
        normalisePlate(input.licensePlateFuzzyQuery),
        await store.listReadPlates(deps.store.db, ctx.orgUuid, input.startTimeMs ?? null, input.endTimeMs ?? null),
        null,
      ),
    );
  if (input.nameQuery?.length) {
    const wanted = new Set(input.nameQuery.map((n) => n.toLowerCase()));
    addPlates([...vehicles.values()].filter((v) => v.name && wanted.has(v.name.toLowerCase())).map((v) => v.licensePlate!));
  }
  if (input.vehicleLabelQuery?.length) {
    const wanted = new Set(input.vehicleLabelQuery);
    addPlates([...vehicles.values()].filter((v) => v.labels?.some((l) => wanted.has(l))).map((v) => v.licensePlate!));
  }
  const named = [...vehicles.values()].filter((v) => v.name).map((v) => v.licensePlate!);
  const rows = await store.listVehicleEvents(deps.store.db, ctx.orgUuid, {
    deviceUuids: await devicesNamed(deps, ctx.orgUuid, input.deviceUuidFilter),
    locationUuids: input.locationUuidFilter?.length ? input.locationUuidFilter : null,
    plates: plates === null ? null : [...(plates as Set<string>)].filter((p) => !(input.unnamedQuery && named.includes(p))),
    excludedPlates: input.unnamedQuery ? named : null,
    fromMs: input.startTimeMs ?? null,
    beforeMs: input.endTimeMs ?? null,
    after: input.lastEventTimestamp != null ? { timestampMs: input.lastEventTimestamp, uuid: input.lastUuid! } : null,
    limit: input.maxResults ?? VEHICLE_EVENT_PAGE.default,
  });
  const names = new Map([...vehicles].map(([p, v]) => [p, v.name ?? null]));
  return rows.map((r) => toEvent(r, names));
}

/** Levenshtein distance, stopping early once it is known to exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, cur[j]);
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length];
}

/** The plates within the fuzzy edit distance of `plate`: 1 up to 5 characters, 2 beyond, or the one forced. */
function fuzzyMatches(plate: string, candidates: readonly string[], forced: number | null): string[] {
  const max = forced ?? (plate.length <= 5 ? 1 : 2);
  return candidates.filter((c) => editDistance(plate, c, max) <= max);
}

/** The most hits a plate search answers (newest first). */
export const SEARCH_MAX = 1000;

/** searchLicensePlates: reads of the plate (exact), and with `fuzzy`, of the plates within the edit distance. */
export async function searchLicensePlates(deps: ReadDeps, ctx: CallerContext, input: SearchLicensePlatesRequest) {
  checkRange(input.startTime, input.endTime);
  const plate = normalisePlate(input.licensePlate);
  const fromMs = input.startTime ?? null;
  const beforeMs = input.endTime ?? null;
  const plates = input.fuzzy
    ? fuzzyMatches(plate, await store.listReadPlates(deps.store.db, ctx.orgUuid, fromMs, beforeMs), input.forcedFuzziness ?? null)
    : [plate];
  if (!plates.includes(plate)) plates.push(plate);
  const rows = await store.listVehicleEvents(deps.store.db, ctx.orgUuid, {
    deviceUuids: await devicesNamed(deps, ctx.orgUuid, input.deviceUuids),
    locationUuids: null,
    plates,
    excludedPlates: null,
    fromMs,
    beforeMs,
    after: null,
    limit: SEARCH_MAX,
  });
  const names = new Map([...(await namesOf(deps, ctx.orgUuid))].map(([p, v]) => [p, v.name ?? null]));
  const vehicleEvents = rows.map((r) => ({
    ...toEvent(r, names),
    searchMatchedTerm: r.license_plate,
    searchMatchedType: r.license_plate === plate ? 'EXACT' : 'FUZZY',
  }));
  // The same reads under the newer name the platform's MCP server reads, in their short form.
  const licensePlateEvents = vehicleEvents.map(({ uuid, deviceUuid, locationUuid, eventTimestamp, vehicleLicensePlate, confidence }) => ({
    uuid,
    deviceUuid,
    locationUuid,
    eventTimestamp,
    vehicleLicensePlate,
    confidence,
  }));
  return { vehicleEvents, licensePlateEvents };
}

import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import type { ReadSource } from '../../../store/reader.js';
import { write } from '../../../bus/write.js';
import { devicesNamed } from '../../devices/service.js';
import { RECENT_VEHICLE_EVENTS, type RecentVehicleEventsQuery, type VehicleEventRecord } from './schemas.js';
import { checkRange, namesOf, normalisePlate, toEvent, VEHICLE_EVENT_ENTITY } from './service.js';
import * as store from './store.js';

type ReadDeps = Pick<Deps, 'store' | 'clock'>;
type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

const vehicleNames = async (source: ReadSource, orgUuid: string) => new Map([...(await namesOf(source, orgUuid))].map(([plate, v]) => [plate, v.name ?? null]));

/**
 * getRecentVehicleEvents and its by-location and for-vehicle forms: the reads newest first within the range
 * (default: the week before now), of the cameras, the location or the plate named; at most RECENT max.
 */
export async function getRecentVehicleEvents(deps: ReadDeps, ctx: CallerContext, q: RecentVehicleEventsQuery): Promise<VehicleEventRecord[]> {
  checkRange(q.startTimeMs, q.endTimeMs);
  const beforeMs = q.endTimeMs ?? deps.clock.now();
  const rows = await store.listVehicleEvents(deps.store.db, ctx.orgUuid, {
    deviceUuids: await devicesNamed(deps, ctx.orgUuid, q.deviceUuids),
    locationUuids: q.locationUuid ? [q.locationUuid] : null,
    plates: q.licensePlate ? [normalisePlate(q.licensePlate)] : null,
    excludedPlates: null,
    fromMs: q.startTimeMs ?? beforeMs - RECENT_VEHICLE_EVENTS.defaultRangeMs,
    beforeMs,
    after: null,
    limit: RECENT_VEHICLE_EVENTS.max,
  });
  const names = await vehicleNames(deps, ctx.orgUuid);
  return rows.map((r) => toEvent(r, names));
}

/**
 * reportVehicleEvent: the read is a misread. It is kept, marked with when and by whom it was reported, and
 * leaves every list, search and export; the stream announces it as a VEHICLE_EVENT DELETE. Reporting it
 * again answers as an unknown read. Gatehouse keeps no images to collect for training.
 */
export async function reportVehicleEvent(deps: WriteDeps, ctx: CallerContext, eventUuid: string): Promise<{ collectedMediaForTraining: boolean }> {
  return write(deps, ctx, async (w) => {
    const [row] = await store.findVehicleEvents(w.tx, ctx.orgUuid, [eventUuid]);
    if (!row || !(await store.markVehicleEventReported(w.tx, ctx.orgUuid, row.uuid, w.nowMs, ctx.userUuid))) throw fail('NOT_FOUND', 'Vehicle event');
    const names = await vehicleNames(w, ctx.orgUuid);
    const record = toEvent({ ...row, reported_at_ms: w.nowMs, reported_by: ctx.userUuid }, names);
    w.change({ entity: VEHICLE_EVENT_ENTITY, entityUuid: row.uuid, type: 'DELETE', deviceUuid: row.device_uuid, update: record, timestampMs: w.nowMs });
    return { collectedMediaForTraining: false };
  });
}

/**
 * associateEventsToVehicle: files reads (a partial or wrong read of a known vehicle, typically) under a saved
 * vehicle's plate, all or none; each keeps the plate the camera read (readLicensePlate). The reads then answer
 * every query of the vehicle's plate, name and labels. Each is a VEHICLE_EVENT UPDATE.
 */
export async function associateEventsToVehicle(
  deps: WriteDeps,
  ctx: CallerContext,
  input: { eventUuids: readonly string[]; vehicleLicensePlate: string },
): Promise<void> {
  const plate = normalisePlate(input.vehicleLicensePlate);
  const uuids = [...new Set(input.eventUuids)];
  await write(deps, ctx, async (w) => {
    const vehicle = await store.findVehicle(w.tx, ctx.orgUuid, plate);
    if (!vehicle) throw fail('NOT_FOUND', 'Vehicle');
    const rows = await store.findVehicleEvents(w.tx, ctx.orgUuid, uuids);
    const found = new Set(rows.map((r) => r.uuid));
    const missing = uuids.find((u) => !found.has(u));
    if (missing) throw fail('NOT_FOUND', `Vehicle event ${missing}`);
    await store.associateVehicleEvents(w.tx, ctx.orgUuid, uuids, plate);
    const names = new Map([[plate, vehicle.name]]);
    for (const row of rows) {
      const update = toEvent({ ...row, license_plate: plate, read_plate: row.read_plate ?? row.license_plate }, names);
      w.change({ entity: VEHICLE_EVENT_ENTITY, entityUuid: row.uuid, type: 'UPDATE', deviceUuid: row.device_uuid, update, timestampMs: w.nowMs });
    }
  });
}

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import { bucketColumns, bucketOf, readDeviceSpan, toBuckets, type DeviceSpan } from '../../../store/time-spans.js';
import { CROSSING_OBJECTS, type CrossingObject, type PolicyAlertsTable, type VehicleEventsTable, type VehiclesTable } from '../tables.js';

type Db = Kysely<DB>;

/**
 * What the timeline reads (seekpoints, presence windows) ask of the events domain's tables: some devices'
 * records in [fromMs, toMs), each over its (org, device, [object,] time) index (readDeviceSpan).
 */
export type { DeviceSpan };

const BY_TIME = { device: 'device_uuid', time: 'timestamp_ms', order: ['device_uuid', 'timestamp_ms', 'uuid'] };

/** The devices' policy alerts in the span, dismissed ones included (their footage stays). */
export async function listAlertsInSpan(db: Db, q: DeviceSpan, limit: number): Promise<PolicyAlertsTable[]> {
  return readDeviceSpan(db.selectFrom('policy_alerts').selectAll(), q, BY_TIME, limit);
}

export interface CrossingRow {
  id: number;
  device_uuid: string;
  object: CrossingObject;
  timestamp_ms: number;
  ingress: number;
  egress: number;
}

/** The cameras' line crossings of some objects in the span. */
export async function listCrossingsInSpan(db: Db, q: DeviceSpan, objects: readonly CrossingObject[], limit: number): Promise<CrossingRow[]> {
  if (q.deviceUuids.length === 0 || objects.length === 0) return [];
  const rows = await readDeviceSpan(
    db.selectFrom('crossing_events').select(['id', 'device_uuid', 'object', 'timestamp_ms', 'ingress', 'egress']).where('object', 'in', objects),
    q,
    { device: 'device_uuid', time: 'timestamp_ms', order: ['device_uuid', 'object', 'timestamp_ms', 'id'] },
    limit,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** The cameras' plate reads in the span (over the (org, device, time) index of migration 0055). */
export async function listPlateReadsInSpan(db: Db, q: DeviceSpan, limit: number): Promise<VehicleEventsTable[]> {
  return readDeviceSpan(db.selectFrom('vehicle_events').selectAll(), q, BY_TIME, limit);
}

/** The organization's saved vehicles of some plates. */
export async function findVehiclesByPlates(db: Db, orgUuid: string, plates: readonly string[]): Promise<VehiclesTable[]> {
  if (plates.length === 0) return [];
  return db.selectFrom('vehicles').selectAll().where('org_uuid', '=', orgUuid).where('license_plate', 'in', plates).execute();
}

/** A device's alerts in the span grouped by buckets of `widthMs` (presence windows: src/domains/timeline/windows.ts). */
export async function alertBuckets(db: Db, q: DeviceSpan, widthMs: number) {
  if (q.deviceUuids.length === 0) return [];
  const rows = await db
    .selectFrom('policy_alerts')
    .select(bucketColumns('timestamp_ms', sql<number>`timestamp_ms + coalesce(duration_sec, 0) * 1000`))
    .where('org_uuid', '=', q.orgUuid)
    .where('device_uuid', 'in', q.deviceUuids)
    .where('timestamp_ms', '>=', q.fromMs)
    .where('timestamp_ms', '<', q.toMs)
    .groupBy(bucketOf('timestamp_ms', widthMs))
    .execute();
  return toBuckets(rows);
}

/** A camera's crossings in the span grouped by buckets of `widthMs`. */
export async function crossingBuckets(db: Db, q: DeviceSpan, widthMs: number) {
  if (q.deviceUuids.length === 0) return [];
  const rows = await db
    .selectFrom('crossing_events')
    .select(bucketColumns('timestamp_ms', sql<number>`timestamp_ms`))
    .where('org_uuid', '=', q.orgUuid)
    .where('device_uuid', 'in', q.deviceUuids)
    // Every object, named: the (org, device, object, time) index then seeks each object's span.
    .where('object', 'in', CROSSING_OBJECTS)
    .where('timestamp_ms', '>=', q.fromMs)
    .where('timestamp_ms', '<', q.toMs)
    .groupBy(bucketOf('timestamp_ms', widthMs))
    .execute();
  return toBuckets(rows);
}

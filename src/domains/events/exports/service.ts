import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { facetId } from '../../../ids.js';
import { auditFeed, type AuditEventRecord } from '../../audit/service.js';
import { findDevice, listDevices, type DeviceRecord } from '../../devices/service.js';
import type { FaceEventRecord } from '../../faces/face-events.schemas.js';
import { findFaceEvents } from '../../faces/face-events.service.js';
import { listUsers, type UserView } from '../../orgs/users/service.js';
import { toRecord as toAlertRecord } from '../alerts/service.js';
import type { PolicyAlertRecord } from '../alerts/schemas.js';
import * as alertStore from '../alerts/store.js';
import { checkExportRange, drain, EXPORT_MAX_ROWS, EXPORT_PAGE, utcDate, utcTime, type CsvColumn } from './csv-export.js';
import { diagnosticEvents, type DiagnosticEventRecord } from '../reports/diagnostics.service.js';
import type {
  ExportAuditRequest,
  ExportIntervalRequest,
  ExportInventoryRequest,
  ExportMotionEventsRequest,
  ExportUsersRequest,
  ExportVehicleEventsRequest,
} from './schemas.js';
import * as store from '../reports/store.js';
import type { GetVehicleEventsRequest, VehicleEventRecord } from '../vehicles/schemas.js';
import { getVehicleEvents } from '../vehicles/service.js';

/** What each CSV export reads (through its domain's service) and its columns; csv-export.ts does the rest. */

type ReadDeps = Pick<Deps, 'store'>;
const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());

// People counts: the HUMAN crossings, oldest first.
export const PEOPLE_COUNT_COLUMNS: ReadonlyArray<CsvColumn<store.CrossingEventRow>> = [
  { header: 'timestampMs', value: (r) => r.timestamp_ms },
  { header: 'dateUtc', value: (r) => iso(r.timestamp_ms) },
  { header: 'deviceUuid', value: (r) => facetId(r.device_uuid) },
  { header: 'ingress', value: (r) => r.ingress },
  { header: 'egress', value: (r) => r.egress },
];

export function readPeopleCounts(deps: ReadDeps, ctx: CallerContext, input: ExportIntervalRequest): Promise<store.CrossingEventRow[]> {
  checkExportRange(input.startInterval, input.endInterval);
  return drain<store.CrossingEventRow, { timestampMs: number; id: number }>(async (after) => {
    const records = await store.pageOrgCrossings(
      deps.store.db,
      ctx.orgUuid,
      'HUMAN',
      input.startInterval ?? null,
      input.endInterval ?? null,
      after,
      EXPORT_PAGE,
    );
    const last = records.at(-1);
    return { records, next: records.length === EXPORT_PAGE && last ? { timestampMs: last.timestamp_ms, id: last.id } : null };
  });
}

// Licence plate reads, newest first.
export const VEHICLE_EVENT_COLUMNS: ReadonlyArray<CsvColumn<VehicleEventRecord>> = [
  { header: 'eventTimestamp', value: (r) => r.eventTimestamp },
  { header: 'dateUtc', value: (r) => iso(r.eventTimestamp) },
  { header: 'uuid', value: (r) => r.uuid },
  { header: 'deviceUuid', value: (r) => r.deviceUuid },
  { header: 'locationUuid', value: (r) => r.locationUuid },
  { header: 'vehicleLicensePlate', value: (r) => r.vehicleLicensePlate },
  { header: 'name', value: (r) => r.name },
];

export function readVehicleEventsV2(deps: ReadDeps, ctx: CallerContext, input: GetVehicleEventsRequest): Promise<VehicleEventRecord[]> {
  return drain<VehicleEventRecord, { lastEventTimestamp: number; lastUuid: string }>(async (cursor) => {
    const records = await getVehicleEvents(deps, ctx, { ...input, ...cursor, maxResults: EXPORT_PAGE });
    const last = records.at(-1);
    return { records, next: records.length === EXPORT_PAGE && last ? { lastEventTimestamp: last.eventTimestamp!, lastUuid: last.uuid! } : null };
  });
}

/** The V1 export's filters as the V2 query: exact plates, or the first plate matched approximately. */
export function readVehicleEvents(deps: ReadDeps, ctx: CallerContext, input: ExportVehicleEventsRequest): Promise<VehicleEventRecord[]> {
  const plates = input.plateNumbers?.length ? input.plateNumbers : null;
  return readVehicleEventsV2(deps, ctx, {
    deviceUuidFilter: input.deviceUuids,
    startTimeMs: input.interval?.startMs,
    endTimeMs: input.interval?.endMs,
    licensePlateExactQuery: plates && !input.fuzzy ? plates : null,
    licensePlateFuzzyQuery: plates && input.fuzzy ? plates[0] : null,
    vehicleLabelQuery: input.labels?.length ? input.labels : null,
  });
}

// A camera's motion alerts, newest first.
export const MOTION_EVENT_COLUMNS: ReadonlyArray<CsvColumn<PolicyAlertRecord>> = [
  { header: 'timestampMs', value: (r) => r.timestampMs },
  { header: 'dateUtc', value: (r) => iso(r.timestampMs) },
  { header: 'uuid', value: (r) => r.uuid },
  { header: 'deviceUuid', value: (r) => r.deviceUuid },
  { header: 'triggers', value: (r) => r.policyAlertTriggers.join(' ') },
];

export async function readMotionEvents(deps: ReadDeps, ctx: CallerContext, input: ExportMotionEventsRequest): Promise<PolicyAlertRecord[]> {
  checkExportRange(input.createdAfterMs, input.createdBeforeMs);
  const device = await findDevice(deps, ctx.orgUuid, input.deviceUuid);
  if (!device) throw fail('NOT_FOUND', `Device ${input.deviceUuid}`);
  const alerts = await drain<PolicyAlertRecord, alertStore.AlertCursor>(async (after) => {
    const rows = await alertStore.listOrgAlerts(deps.store.db, ctx.orgUuid, {
      deviceUuids: [device.uuid],
      fromMs: input.createdAfterMs,
      beforeMs: input.createdBeforeMs,
      after,
      limit: EXPORT_PAGE,
    });
    const last = rows.at(-1);
    return { records: rows.map(toAlertRecord), next: rows.length === EXPORT_PAGE && last ? { timestampMs: last.timestamp_ms, uuid: last.uuid } : null };
  });
  return alerts.filter((a) => a.policyAlertTriggers.includes('MOTION'));
}

// The organization's devices.
export const INVENTORY_COLUMNS: ReadonlyArray<CsvColumn<DeviceRecord>> = [
  { header: 'uuid', value: (d) => d.uuid },
  { header: 'name', value: (d) => d.name },
  { header: 'deviceType', value: (d) => d.deviceType },
  { header: 'serialNumber', value: (d) => d.serialNumber },
  { header: 'macAddress', value: (d) => d.macAddress },
  { header: 'firmwareVersion', value: (d) => d.firmwareVersion },
  { header: 'locationUuid', value: (d) => d.locationUuid },
  { header: 'connectionStatus', value: (d) => d.connectionStatus },
  { header: 'healthStatus', value: (d) => d.healthStatus },
  { header: 'createdAtMillis', value: (d) => d.createdAtMillis },
];

/** Named devices must all be the organization's: another organization's answers as an unknown one. */
function pick<R>(all: readonly R[], uuidOf: (r: R) => string, wanted: readonly string[] | null | undefined, what: string): R[] {
  if (!wanted || wanted.length === 0) return [...all];
  const byUuid = new Map(all.map((r) => [uuidOf(r), r]));
  const picked: R[] = [];
  for (const uuid of new Set(wanted)) {
    const r = byUuid.get(uuid);
    if (!r) throw fail('NOT_FOUND', `${what} ${uuid}`);
    picked.push(r);
  }
  return picked;
}

export async function readInventory(deps: ReadDeps, ctx: CallerContext, input: ExportInventoryRequest): Promise<DeviceRecord[]> {
  const wanted = [...(input.deviceUuids ?? []), ...(input.cameraUuids ?? [])];
  return pick(await listDevices(deps, ctx.orgUuid), (d) => d.uuid, wanted, 'Device');
}

// The organization's users.
export const USER_COLUMNS: ReadonlyArray<CsvColumn<UserView>> = [
  { header: 'uuid', value: (u) => u.uuid },
  { header: 'name', value: (u) => u.name },
  { header: 'email', value: (u) => u.email },
  { header: 'permissionGroupUuid', value: (u) => u.permissionGroupUuid },
  { header: 'status', value: (u) => u.status },
  { header: 'accountOwner', value: (u) => u.accountOwner },
  { header: 'mfaEnabled', value: (u) => u.mfaEnabled },
  { header: 'createdAtMillis', value: (u) => u.createdAtMillis },
];

export async function readUsers(deps: ReadDeps, ctx: CallerContext, input: ExportUsersRequest): Promise<UserView[]> {
  return pick(await listUsers(deps, ctx), (u) => u.uuid, input.userUuids, 'User');
}

// The audit trail, newest first.
export const AUDIT_COLUMNS: ReadonlyArray<CsvColumn<AuditEventRecord>> = [
  { header: 'timestampMs', value: (e) => e.timestampMs },
  { header: 'timestamp', value: (e) => e.timestamp },
  { header: 'uuid', value: (e) => e.uuid },
  { header: 'action', value: (e) => e.action },
  { header: 'principalType', value: (e) => e.principalType },
  { header: 'principalUuid', value: (e) => e.principalUuid },
  { header: 'clientType', value: (e) => e.clientType },
  { header: 'targetUuid', value: (e) => e.targetUuid },
  { header: 'targetName', value: (e) => e.targetName },
  { header: 'operation', value: (e) => e.operation },
  { header: 'displayText', value: (e) => e.displayText },
];

export function readAudit(deps: ReadDeps, ctx: CallerContext, input: ExportAuditRequest): Promise<AuditEventRecord[]> {
  checkExportRange(input.startInterval, input.endInterval);
  return drain<AuditEventRecord, string>(async (key) => {
    const page = await auditFeed(deps, ctx, {
      includeActions: input.includeActions,
      excludeActions: input.excludeActions,
      timestampMsAfter: input.startInterval,
      timestampMsBefore: input.endInterval,
      maxPageSize: EXPORT_PAGE,
      lastEvaluatedKey: key,
    });
    return { records: page.auditEvents, next: page.lastEvaluatedKey };
  });
}

// Device diagnostics, newest first.
// The first four columns are read by position by the platform's uptime example: date, time with offset, device, event.
export const DIAGNOSTIC_COLUMNS: ReadonlyArray<CsvColumn<DiagnosticEventRecord>> = [
  { header: 'Date', value: (e) => utcDate(Date.parse(e.timestamp)) },
  { header: 'Time', value: (e) => utcTime(Date.parse(e.timestamp), true) },
  { header: 'Device', value: (e) => e.deviceName },
  { header: 'Event', value: (e) => e.activity },
  { header: 'timestamp', value: (e) => e.timestamp },
  { header: 'uuid', value: (e) => e.uuid },
  { header: 'deviceUuid', value: (e) => e.deviceUuid },
  { header: 'deviceName', value: (e) => e.deviceName },
  { header: 'deviceType', value: (e) => e.deviceType },
  { header: 'activity', value: (e) => e.activity },
];

export const readDiagnostics = (deps: ReadDeps, ctx: CallerContext, input: ExportIntervalRequest) =>
  diagnosticEvents(deps, ctx, { afterMs: input.startInterval, beforeMs: input.endInterval }, EXPORT_MAX_ROWS);

// Faces seen by the cameras (people events), newest first.
export const PEOPLE_EVENT_COLUMNS: ReadonlyArray<CsvColumn<FaceEventRecord>> = [
  { header: 'eventTimestamp', value: (e) => e.eventTimestamp },
  { header: 'dateUtc', value: (e) => iso(e.eventTimestamp) },
  { header: 'uuid', value: (e) => e.uuid },
  { header: 'deviceUuid', value: (e) => e.deviceUuid },
  { header: 'locationUuid', value: (e) => e.locationUuid },
  { header: 'personUuid', value: (e) => e.personUuid },
  { header: 'faceName', value: (e) => e.faceName },
  { header: 'detectionConfidence', value: (e) => e.detectionConfidence },
];

/** The face events of [startInterval, endInterval) (absent: from the first, to now), through the faces domain's search. */
export function readPeopleEvents(deps: ReadDeps & Pick<Deps, 'clock'>, ctx: CallerContext, input: ExportIntervalRequest): Promise<FaceEventRecord[]> {
  checkExportRange(input.startInterval, input.endInterval);
  const end = input.endInterval ?? deps.clock.now() + 1;
  if (end === (input.startInterval ?? 0)) return Promise.resolve([]);
  const timestampFilter = { rangeStart: new Date(input.startInterval ?? 0).toISOString(), rangeEnd: new Date(end - 1).toISOString() };
  return drain<FaceEventRecord, string>(async (key) => {
    const page = await findFaceEvents(deps, ctx, { searchFilter: { timestampFilter }, pageRequest: { lastEvaluatedKey: key, maxPageSize: EXPORT_PAGE } });
    return { records: page.faceEvents, next: page.lastEvaluatedKey };
  });
}

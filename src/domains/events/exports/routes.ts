import type { Deps } from '../../../deps.js';
import { Type } from 'typebox';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { EnvelopeResponse } from '../../../schemas/common.js';
import { exportOperation } from './csv-export.js';
import {
  ExportAuditRequest,
  ExportGatewayEventsRequest,
  ExportIntervalRequest,
  ExportInventoryRequest,
  ExportMotionEventsRequest,
  ExportProximityEventsRequest,
  ExportSensorEventsRequest,
  ExportUptimeRequest,
  ExportUsersRequest,
  ExportVehicleEventsRequest,
} from './schemas.js';
import * as exports from './service.js';
import * as sensorExports from './sensor-exports.service.js';
import { UPTIME_COLUMNS, uptimeZip } from './uptime-export.service.js';
import { GetVehicleEventsRequest } from '../vehicles/schemas.js';

/** The CSV exports of recorded events and of the organization's devices, users and audit trail. */
export function exportRoutes(app: ApiApp, deps: Deps): void {
  exportOperation(app, deps, {
    path: '/api/export/peopleCountEvents',
    operationId: 'exportPeopleCountEvents',
    summary: 'Export people count events as CSV',
    body: ExportIntervalRequest,
    columns: exports.PEOPLE_COUNT_COLUMNS,
    read: exports.readPeopleCounts,
  });
  exportOperation(app, deps, {
    path: '/api/export/vehicleEvents',
    operationId: 'exportVehicleEvents',
    summary: 'Export licence plate reads as CSV',
    body: ExportVehicleEventsRequest,
    columns: exports.VEHICLE_EVENT_COLUMNS,
    read: exports.readVehicleEvents,
  });
  exportOperation(app, deps, {
    path: '/api/export/vehicleEventsV2',
    operationId: 'exportVehicleEventsV2',
    summary: 'Export licence plate reads as CSV (the getVehicleEvents query)',
    body: GetVehicleEventsRequest,
    columns: exports.VEHICLE_EVENT_COLUMNS,
    read: exports.readVehicleEventsV2,
  });
  exportOperation(app, deps, {
    path: '/api/export/motionEvents',
    operationId: 'exportMotionEvents',
    summary: "Export a camera's motion alerts as CSV",
    body: ExportMotionEventsRequest,
    columns: exports.MOTION_EVENT_COLUMNS,
    read: exports.readMotionEvents,
  });
  exportOperation(app, deps, {
    path: '/api/export/inventory',
    operationId: 'exportInventory',
    summary: "Export the organization's devices as CSV",
    body: ExportInventoryRequest,
    columns: exports.INVENTORY_COLUMNS,
    read: exports.readInventory,
  });
  exportOperation(app, deps, {
    path: '/api/export/users',
    operationId: 'exportUsers',
    summary: "Export the organization's users as CSV",
    body: ExportUsersRequest,
    columns: exports.USER_COLUMNS,
    read: exports.readUsers,
  });
  exportOperation(app, deps, {
    path: '/api/export/audit',
    operationId: 'exportAudit',
    summary: "Export the organization's audit trail as CSV",
    body: ExportAuditRequest,
    columns: exports.AUDIT_COLUMNS,
    read: exports.readAudit,
  });
  exportOperation(app, deps, {
    path: '/api/export/doorEvents',
    operationId: 'exportDoorEvents',
    summary: "Export a door sensor's events as CSV",
    body: ExportSensorEventsRequest,
    columns: sensorExports.DOOR_SENSOR_COLUMNS,
    read: sensorExports.readDoorSensorEvents,
  });
  exportOperation(app, deps, {
    path: '/api/export/climateEvents',
    operationId: 'exportClimateEvents',
    summary: "Export a climate sensor's readings as CSV",
    body: ExportSensorEventsRequest,
    columns: sensorExports.CLIMATE_COLUMNS,
    read: sensorExports.readClimateEvents,
  });
  exportOperation(app, deps, {
    path: '/api/export/environmentalGatewayEvents',
    operationId: 'exportEnvironmentalGatewayEvents',
    summary: "Export an environmental gateway's readings as CSV",
    body: ExportGatewayEventsRequest,
    columns: sensorExports.GATEWAY_COLUMNS,
    read: sensorExports.readGatewayEvents,
  });
  exportOperation(app, deps, {
    path: '/api/export/proximityEvents',
    operationId: 'exportProximityEvents',
    summary: "Export a proximity tag's events as CSV",
    body: ExportProximityEventsRequest,
    columns: sensorExports.PROXIMITY_COLUMNS,
    read: sensorExports.readProximityEvents,
  });
  exportOperation(app, deps, {
    path: '/api/export/diagnostic',
    operationId: 'exportDiagnostic',
    summary: "Export the devices' diagnostic events as CSV",
    body: ExportIntervalRequest,
    columns: exports.DIAGNOSTIC_COLUMNS,
    read: exports.readDiagnostics,
  });
  exportOperation(app, deps, {
    path: '/api/export/proximityLocomotionEvents',
    operationId: 'exportProximityLocomotionEvents',
    summary: "Export a proximity tag's movements as CSV",
    body: ExportProximityEventsRequest,
    columns: sensorExports.LOCOMOTION_COLUMNS,
    read: sensorExports.readLocomotionEvents,
  });
  exportOperation(app, deps, {
    path: '/api/export/peopleEvents',
    operationId: 'exportPeopleEvents',
    summary: 'Export the faces the cameras saw as CSV',
    body: ExportIntervalRequest,
    columns: exports.PEOPLE_EVENT_COLUMNS,
    read: exports.readPeopleEvents,
  });
  operation(
    app,
    {
      path: '/api/export/uptime',
      operationId: 'exportUptime',
      summary: "Export the cameras' uptime as a ZIP archive",
      description: `application/zip holding uptime.csv: ${UPTIME_COLUMNS.map((c) => c.header).join(',')}; one row per camera and UTC interval. Failures answer the JSON envelope.`,
      tags: ['Export'],
      envelope: false,
      body: ExportUptimeRequest,
      response: Type.Union([Type.String({ description: 'the ZIP archive' }), EnvelopeResponse]),
    },
    async (input, ctx, _request, reply) => {
      const zip = await uptimeZip(deps, ctx, input);
      reply.type('application/zip').header('content-disposition', 'attachment; filename="uptime.zip"');
      return zip as unknown as string;
    },
  );
}

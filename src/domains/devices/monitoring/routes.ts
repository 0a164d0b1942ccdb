import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as schemas from './schemas.js';
import * as pins from './monitoring-pins.service.js';
import * as monitoring from './service.js';

const tags = ['AlertMonitoring'];

/** Alert monitoring of a location, switched with the location's monitoring pin. */
export function monitoringRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/alertmonitoring/enableMonitoringForLocation',
      operationId: 'enableMonitoringForLocation',
      summary: 'Enable alert monitoring for a location',
      tags,
      body: schemas.MonitoringPinRequest,
      response: schemas.MonitoringPinResponse,
    },
    async (input, ctx) => {
      await monitoring.enableMonitoring(deps, ctx, input);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/alertmonitoring/disableMonitoringForLocation',
      operationId: 'disableMonitoringForLocation',
      summary: 'Disable alert monitoring for a location',
      tags,
      body: schemas.MonitoringPinRequest,
      response: schemas.MonitoringPinResponse,
    },
    async (input, ctx) => {
      await monitoring.disableMonitoring(deps, ctx, input);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/alertmonitoring/createPinForLocation',
      operationId: 'createPinForLocation',
      summary: 'Create a monitoring pin for a location',
      description: 'Replaces any earlier pin of the location; the pin is answered once and stored only as a digest.',
      tags,
      body: schemas.CreatePinForLocationRequest,
      response: schemas.CreatePinForLocationResponse,
    },
    (input, ctx) => monitoring.createPinForLocation(deps, ctx, input.locationUuid),
  );
  operation(
    app,
    {
      path: '/api/alertmonitoring/locationStatus',
      operationId: 'locationStatus',
      summary: 'Get the alert monitoring status of a location',
      tags,
      body: schemas.LocationStatusRequest,
      response: schemas.LocationStatusResponse,
    },
    async (input, ctx) => ({ status: await monitoring.locationStatus(deps, ctx, input.locationUuid) }),
  );
  operation(
    app,
    {
      path: '/api/alertmonitoring/orgStatus',
      operationId: 'orgStatus',
      summary: 'Get the alert monitoring status of every location of the organization',
      tags,
      body: schemas.OrgStatusRequest,
      response: schemas.OrgStatusResponse,
    },
    async (_input, ctx) => ({ locationStatuses: await monitoring.orgStatus(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/alertmonitoring/createCustomPinForLocation',
      operationId: 'createCustomPinForLocation',
      summary: 'Adds a pin of your choosing to a location (stored only as a digest)',
      tags,
      body: schemas.CreateCustomPinForLocationRequest,
      response: schemas.CreateCustomPinForLocationResponse,
    },
    (input, ctx) => pins.createCustomPin(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/alertmonitoring/deletePinForLocation',
      operationId: 'deletePinForLocation',
      summary: "Deletes the location's pin that matches",
      tags,
      body: schemas.DeletePinForLocationRequest,
      response: schemas.MonitoringPinResponse,
    },
    async (input, ctx) => {
      await pins.deletePin(deps, ctx, input);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/alertmonitoring/getAlertMonitoringSettingsForLocation',
      operationId: 'getAlertMonitoringSettingsForLocation',
      summary: "A location's alert monitoring settings and the names of its pins",
      tags,
      body: schemas.GetAlertMonitoringSettingsForLocationRequest,
      response: schemas.GetAlertMonitoringSettingsForLocationResponse,
    },
    async (input, ctx) => ({ alertMonitoringSettings: await pins.getAlertMonitoringSettings(deps, ctx, input.locationUuid), previousVersions: [] }),
  );
}

import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { EmptyRequest, EnvelopeResponse } from '../../../schemas/common.js';
import {
  AssociateEventsToVehicleRequest,
  DeleteVehicleRequest,
  GetRecentVehicleEventsByLocationRequest,
  GetRecentVehicleEventsForVehicleRequest,
  GetRecentVehicleEventsRequest,
  GetVehicleEventsRequest,
  GetVehicleEventsResponse,
  GetVehicleLabelsForOrgResponse,
  GetVehiclesResponse,
  SaveVehicleRequest,
  SaveVehicleResponse,
  SearchLicensePlatesRequest,
  SearchLicensePlatesResponse,
  ReportVehicleEventRequest,
  ReportVehicleEventResponse,
  VehicleLabelRequest,
} from './schemas.js';
import * as vehicles from './service.js';
import * as reads from './vehicle-reads.service.js';

const tags = ['Vehicle'];

export function vehicleRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/vehicle/saveVehicle',
      operationId: 'saveVehicle',
      summary: 'Save a vehicle (its licence plate)',
      description:
        'Creates the vehicle of the plate, or updates the fields given. With alert (and not trust), a read of the plate raises a LICENSEPLATE_ALERT policy alert.',
      tags,
      body: SaveVehicleRequest,
      response: SaveVehicleResponse,
    },
    async (input, ctx) => (await vehicles.saveVehicle(deps, ctx, input), {}),
  );
  operation(
    app,
    { path: '/api/vehicle/getVehicles', operationId: 'getVehicles', summary: 'Get saved vehicles', tags, body: EmptyRequest, response: GetVehiclesResponse },
    async (_input, ctx) => ({ vehicles: await vehicles.getVehicles(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/vehicle/deleteVehicle',
      operationId: 'deleteVehicle',
      summary: 'Delete a saved vehicle',
      tags,
      body: DeleteVehicleRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => (await vehicles.deleteVehicle(deps, ctx, input.vehicleLicensePlate), {}),
  );
  operation(
    app,
    {
      path: '/api/vehicle/addVehicleLabel',
      operationId: 'addVehicleLabel',
      summary: 'Add a label to a saved vehicle',
      tags,
      body: VehicleLabelRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => (await vehicles.changeVehicleLabel(deps, ctx, input, true), {}),
  );
  operation(
    app,
    {
      path: '/api/vehicle/removeVehicleLabel',
      operationId: 'removeVehicleLabel',
      summary: 'Remove a label from a saved vehicle',
      tags,
      body: VehicleLabelRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => (await vehicles.changeVehicleLabel(deps, ctx, input, false), {}),
  );
  operation(
    app,
    {
      path: '/api/vehicle/getVehicleLabelsForOrg',
      operationId: 'getVehicleLabelsForOrg',
      summary: 'Get the labels of saved vehicles',
      tags,
      body: EmptyRequest,
      response: GetVehicleLabelsForOrgResponse,
    },
    async (_input, ctx) => ({ vehicleLabels: await vehicles.getVehicleLabels(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/vehicle/getVehicleEvents',
      operationId: 'getVehicleEvents',
      summary: 'Get licence plate reads',
      description:
        'Newest first. The plate queries add up; unnamedQuery keeps plates no saved vehicle names. Page with the last event (lastEventTimestamp, lastUuid).',
      tags,
      body: GetVehicleEventsRequest,
      response: GetVehicleEventsResponse,
    },
    async (input, ctx) => ({ events: await vehicles.getVehicleEvents(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/search/searchLicensePlates',
      operationId: 'searchLicensePlates',
      summary: 'Search licence plate reads, exact or fuzzy',
      description: `Newest first, at most ${vehicles.SEARCH_MAX}.`,
      tags: ['Search'],
      deprecated: { successor: '/api/vehicle/getVehicleEvents' },
      body: SearchLicensePlatesRequest,
      response: SearchLicensePlatesResponse,
    },
    (input, ctx) => vehicles.searchLicensePlates(deps, ctx, input),
  );
  const recent = { tags, response: GetVehicleEventsResponse, deprecated: { successor: '/api/vehicle/getVehicleEvents' } } as const;
  const recentNote = 'Newest first, within the range (default: the week before now), at most 1000.';
  operation(
    app,
    {
      ...recent,
      path: '/api/vehicle/getRecentVehicleEvents',
      operationId: 'getRecentVehicleEvents',
      summary: 'Get recent licence plate reads',
      description: recentNote,
      body: GetRecentVehicleEventsRequest,
    },
    async (input, ctx) => ({ events: await reads.getRecentVehicleEvents(deps, ctx, input) }),
  );
  operation(
    app,
    {
      ...recent,
      path: '/api/vehicle/getRecentVehicleEventsByLocation',
      operationId: 'getRecentVehicleEventsByLocation',
      summary: 'Get recent licence plate reads at a location',
      description: recentNote,
      body: GetRecentVehicleEventsByLocationRequest,
    },
    async (input, ctx) => ({ events: await reads.getRecentVehicleEvents(deps, ctx, input) }),
  );
  operation(
    app,
    {
      ...recent,
      path: '/api/vehicle/getRecentVehicleEventsForVehicle',
      operationId: 'getRecentVehicleEventsForVehicle',
      summary: 'Get recent reads of a licence plate',
      description: recentNote,
      body: GetRecentVehicleEventsForVehicleRequest,
    },
    async (input, ctx) => ({ events: await reads.getRecentVehicleEvents(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/vehicle/reportVehicleEvent',
      operationId: 'reportVehicleEvent',
      summary: 'Report a plate read as a misread',
      description: 'The read is kept, marked reported, and leaves every list, search and export (a VEHICLE_EVENT DELETE on the stream).',
      tags,
      body: ReportVehicleEventRequest,
      response: ReportVehicleEventResponse,
    },
    async (input, ctx) => reads.reportVehicleEvent(deps, ctx, input.eventUuid),
  );
  operation(
    app,
    {
      path: '/api/vehicle/associateEventsToVehicle',
      operationId: 'associateEventsToVehicle',
      summary: 'File plate reads under a saved vehicle',
      description: 'All or none. Each read keeps the plate the camera read (readLicensePlate) and answers as a read of the vehicle.',
      tags,
      body: AssociateEventsToVehicleRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => (await reads.associateEventsToVehicle(deps, ctx, input), {}),
  );
}

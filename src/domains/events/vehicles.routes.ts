import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../http/operation.js';
import { EmptyRequest, EnvelopeResponse } from '../../schemas/common.js';
import {
  DeleteVehicleRequest,
  GetVehicleEventsRequest,
  GetVehicleEventsResponse,
  GetVehicleLabelsForOrgResponse,
  GetVehiclesResponse,
  SaveVehicleRequest,
  SaveVehicleResponse,
  SearchLicensePlatesRequest,
  SearchLicensePlatesResponse,
  VehicleLabelRequest,
} from './vehicles.schemas.js';
import * as vehicles from './vehicles.service.js';

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
    async (input, ctx) => ({ vehicle: await vehicles.saveVehicle(deps, ctx, input) }),
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
    async (input, ctx) => ({ vehicleEvents: await vehicles.searchLicensePlates(deps, ctx, input) }),
  );
}

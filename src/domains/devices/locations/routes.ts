import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as schemas from './schemas.js';
import * as geo from './geo.service.js';
import * as locations from './service.js';

const tags = ['Location'];

/** The organization's locations: where devices and doors stand, with their address, time zone and labels. */
export function locationRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/location/getLocations',
      aliases: ['/api/location/getLocationsV2'],
      extension: ['/api/location/getLocationsV2'],
      operationId: 'getLocations',
      summary: 'List the locations of the organization',
      description: 'Every location by name; with subLocationsIncluded each also lists its direct sub-locations.',
      tags,
      body: schemas.GetLocationsRequest,
      response: schemas.GetLocationsResponse,
    },
    async (input, ctx) => ({ locations: await locations.getLocations(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/location/getLocation',
      operationId: 'getLocation',
      summary: 'Get a location',
      tags,
      body: schemas.GetLocationRequest,
      response: schemas.GetLocationResponse,
    },
    async (input, ctx) => ({ location: await locations.getLocation(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/location/createLocation',
      operationId: 'createlocation',
      summary: 'Create a location',
      description: 'tz is an IANA time zone (default UTC); parentLocationUuid makes it a sub-location.',
      tags,
      body: schemas.CreateLocationRequest,
      response: schemas.CreateLocationResponse,
    },
    async (input, ctx) => ({ uuid: (await locations.addLocation(deps, ctx, input)).uuid }),
  );
  operation(
    app,
    {
      path: '/api/location/updateLocation',
      operationId: 'updateLocation',
      summary: 'Replace the fields of a location',
      description: 'Optional fields left out are cleared; name and tz keep their values when left out.',
      tags,
      body: schemas.UpdateLocationRequest,
      response: schemas.LocationEnvelope,
    },
    async (input, ctx) => (await locations.changeLocation(deps, ctx, input.location.uuid, input.location, true), {}),
  );
  operation(
    app,
    {
      path: '/api/location/selectiveUpdateLocation',
      operationId: 'selectiveUpdateLocation',
      summary: 'Change the given fields of a location',
      tags,
      body: schemas.SelectiveUpdateLocationRequest,
      response: schemas.LocationEnvelope,
    },
    async (input, ctx) => (await locations.changeLocation(deps, ctx, input.locationUuid, { ...input, tz: input.timezoneId ?? input.tz?.id }, false), {}),
  );
  operation(
    app,
    {
      path: '/api/location/deleteLocation',
      operationId: 'deleteLocation',
      summary: 'Delete a location',
      description: 'Refused while devices, doors or sub-locations are in it.',
      tags,
      body: schemas.DeleteLocationRequest,
      response: schemas.LocationEnvelope,
    },
    async (input, ctx) => (await locations.deleteLocation(deps, ctx, input), {}),
  );
  for (const [verb, add] of [
    ['add', true],
    ['remove', false],
  ] as const) {
    operation(
      app,
      {
        path: `/api/location/${verb}LocationLabel`,
        operationId: `${verb}LocationLabel`,
        summary: `${add ? 'Add a label to' : 'Remove a label from'} a location`,
        tags,
        body: schemas.LocationLabelRequest,
        response: schemas.LocationEnvelope,
      },
      async (input, ctx) => (await locations.changeLabel(deps, ctx, input, add), {}),
    );
  }
  operation(
    app,
    {
      path: '/api/location/getLocationLabelsForOrg',
      operationId: 'getLocationLabelsForOrg',
      summary: 'The labels of each location (location uuid to labels)',
      tags,
      body: schemas.LocationLabelsRequest,
      response: schemas.LocationLabelsResponse,
    },
    async (_input, ctx) => ({ locationLabels: await locations.labelMap(deps, ctx, 'location') }),
  );
  operation(
    app,
    {
      path: '/api/location/getLocationsAssociatedToLocationLabelsByOrg',
      operationId: 'getLocationsAssociatedToLocationLabelsByOrg',
      summary: 'The locations of each label (label to location uuids)',
      tags,
      body: schemas.LocationLabelsRequest,
      response: schemas.LocationLabelsResponse,
    },
    async (_input, ctx) => ({ locationLabels: await locations.labelMap(deps, ctx, 'label') }),
  );
  operation(
    app,
    {
      path: '/api/location/geoCode',
      operationId: 'geoCode',
      summary: "Coordinates of an address, from the organization's located locations",
      description: 'Gatehouse calls no geocoding service: the address resolves when a location with coordinates has every word of it.',
      tags,
      permission: { kind: 'read' },
      body: schemas.GeoCodeRequest,
      response: schemas.GeoCodeResponse,
    },
    (input, ctx) => geo.geoCode(deps, ctx, input.address),
  );
  operation(
    app,
    {
      path: '/api/location/getLocationsByGeo',
      operationId: 'getLocationsByGeo',
      summary: 'The locations near a point, nearest first',
      description: `Locations whose coordinates are within ${geo.GEO_MATCH_RADIUS_M} m of the point.`,
      tags,
      body: schemas.GetLocationsByGeoRequest,
      response: schemas.GetLocationsByGeoResponse,
    },
    async (input, ctx) => ({ locations: await geo.locationsNear(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/location/getLocationsBySubLocationsHierarchyKey',
      operationId: 'getLocationsBySubLocationsHierarchyKey',
      summary: 'The location at the end of a path of sub-locations',
      tags,
      body: schemas.GetLocationsBySubLocationsHierarchyKeyRequest,
      response: schemas.GetLocationsBySubLocationsHierarchyKeyResponse,
    },
    async (input, ctx) => ({ location: await geo.locationByHierarchyKey(deps, ctx, input.subLocationsHierarchyKey.locationUuids) }),
  );
}

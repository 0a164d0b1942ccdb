import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as schemas from './schemas.js';
import * as landings from './service.js';

const tags = ['Component'];

/** Access-controlled elevator landings: labels, and their shadows (current access state), paged by key. */
export function elevatorLandingRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/component/elevator/addAccessControlledElevatorLandingLabel',
      operationId: 'addAccessControlledElevatorLandingLabel',
      summary: 'Add a label to an access controlled elevator landing',
      tags,
      body: schemas.LandingLabelRequest,
      response: schemas.LandingLabelResponse,
    },
    async (input, ctx) => {
      await landings.addLandingLabel(deps, ctx, input);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/component/elevator/removeAccessControlledElevatorLandingLabel',
      operationId: 'removeAccessControlledElevatorLandingLabel',
      summary: 'Remove a label from an access controlled elevator landing',
      tags,
      body: schemas.LandingLabelRequest,
      response: schemas.LandingLabelResponse,
    },
    async (input, ctx) => {
      await landings.removeLandingLabel(deps, ctx, input);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/component/elevator/getAccessControlledElevatorLandingLabelsForOrg',
      operationId: 'getAccessControlledElevatorLandingLabelsForOrg',
      summary: 'Get every access controlled elevator landing label of the organization',
      tags,
      body: schemas.GetLandingLabelsForOrgRequest,
      response: schemas.GetLandingLabelsForOrgResponse,
    },
    async (_input, ctx) => ({ accessControlledElevatorLandingLabels: await landings.getLandingLabelsForOrg(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/component/elevator/findAccessControlledElevatorLandingShadows',
      operationId: 'findAccessControlledElevatorLandingShadows',
      summary: 'Find the access controlled elevator landing shadows of the organization, a page at a time',
      tags,
      body: schemas.FindLandingShadowsRequest,
      response: schemas.FindLandingShadowsResponse,
    },
    (input, ctx) => landings.findLandingShadows(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/component/elevator/findAccessControlledElevatorLandingShadowsByLocation',
      operationId: 'findAccessControlledElevatorLandingShadowsByLocation',
      summary: 'Find the access controlled elevator landing shadows of a location, a page at a time',
      tags,
      body: schemas.FindLandingShadowsByLocationRequest,
      response: schemas.FindLandingShadowsResponse,
    },
    (input, ctx) => landings.findLandingShadows(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/component/elevator/findAccessControlledElevatorLandingsByLocation',
      operationId: 'findAccessControlledElevatorLandingsByLocation',
      summary: 'Find the access controlled elevator landings of a location, a page at a time',
      tags,
      body: schemas.FindLandingShadowsByLocationRequest,
      response: schemas.FindLandingsByLocationResponse,
    },
    (input, ctx) => landings.findLandingsByLocation(deps, ctx, input),
  );
}

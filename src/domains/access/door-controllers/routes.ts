import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as s from './schemas.js';
import { registerDiscoveredReader, updateDoorControllerDetails } from './service.js';

const TAGS = ['DoorController'];

/** Door controllers: their details, and the readers they discover. */
export function doorControllerRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/doorcontroller/updateDetails',
      operationId: 'updateDoorControllerDetails',
      summary: 'Update the details of a door controller',
      tags: TAGS,
      body: s.UpdateDoorControllerDetailsRequest,
      response: s.UpdateDoorControllerDetailsResponse,
    },
    async (input, ctx) => (await updateDoorControllerDetails(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/doorcontroller/registerDiscoveredRhombusReader',
      operationId: 'registerDiscoveredRhombusReader',
      summary: 'Register a reader that a door controller has discovered',
      tags: TAGS,
      body: s.RegisterDiscoveredReaderRequest,
      response: s.RegisterDiscoveredReaderResponse,
    },
    async (input, ctx) => (await registerDiscoveredReader(deps, ctx, input), {}),
  );
}

import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as schemas from './tv-configs.schemas.js';
import * as tv from './tv-configs.service.js';

const tags = ['TV app'];

/** The TV app's configs: which of the organization's video walls each TV may show. */
export function tvConfigRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/tvos/getTvOsConfig',
      operationId: 'getTvOsConfig',
      summary: "Get a TV's config",
      tags,
      body: schemas.GetTvOsConfigRequest,
      response: schemas.GetTvOsConfigResponse,
    },
    async (input, ctx) => ({ config: await tv.getTvConfig(deps, ctx, input.uuid) }),
  );
  operation(
    app,
    {
      path: '/api/tvos/getTvOsConfigsForOrg',
      operationId: 'getTvOsConfigsForOrg',
      summary: "List the organization's TV configs",
      tags,
      body: schemas.GetTvOsConfigsForOrgRequest,
      response: schemas.GetTvOsConfigsForOrgResponse,
    },
    async (_input, ctx) => ({ configs: await tv.listTvConfigs(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/tvos/updateTvOsConfig',
      operationId: 'updateTvOsConfig',
      summary: "Set a TV's config",
      description: 'Made on the first update of a TV id; every limited wall must be a video wall of the organization.',
      tags,
      body: schemas.UpdateTvOsConfigRequest,
      response: schemas.UpdateTvOsConfigResponse,
    },
    async (input, ctx) => (await tv.putTvConfig(deps, ctx, input.config), {}),
  );
}

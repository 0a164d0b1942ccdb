import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import { orgView } from './settings/service.js';
import { GetOrganizationRequest, GetOrganizationResponse, GetOrgV2Request, GetOrgV2Response } from './schemas.js';

export function orgRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/org/getOrgV2',
      operationId: 'getOrgV2',
      summary: 'Get organization details V2',
      tags: ['Org'],
      body: GetOrgV2Request,
      response: GetOrgV2Response,
    },
    async (_input, ctx) => {
      const org = await orgView(deps, ctx.orgUuid, deps.mediaHost.base);
      return { org, orgUuid: org.uuid, featureFlags: {} };
    },
  );
  operation(
    app,
    {
      path: '/api/org/getOrganization',
      extension: ['/api/org/getOrganization'],
      aliases: ['/api/org/getOrg'],
      operationId: 'getOrganization',
      summary: 'Get the organization record',
      tags: ['Org'],
      body: GetOrganizationRequest,
      response: GetOrganizationResponse,
    },
    async (_input, ctx) => ({ org: await orgView(deps, ctx.orgUuid, deps.mediaHost.base) }),
  );
}

import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import { orgView } from './settings/service.js';
import { GetOrganizationRequest, GetOrganizationResponse, GetOrgV2Request, GetOrgV2Response, type CameraConfigOptions } from './schemas.js';
import type { ReadSource } from '../../store/reader.js';

declare module '../../deps.js' {
  interface Deps {
    /** An organization's camera settings by hardware model (getOrgV2): the cameras are the devices domain's, after this one. */
    cameraConfigOptions: (source: ReadSource, orgUuid: string) => Promise<CameraConfigOptions>;
  }
}

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
      // In one loop turn, so that their point reads go out together (one round trip on PostgreSQL).
      const [org, cameraConfigOptions] = await Promise.all([orgView(deps, ctx.orgUuid, deps.mediaHost.base), deps.cameraConfigOptions(deps, ctx.orgUuid)]);
      return { org, orgUuid: org.uuid, featureFlags: {}, cameraConfigOptions };
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

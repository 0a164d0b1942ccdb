import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { Field, Own, ResponseOf } from '../../../schemas/common.js';
import * as s from './faceted-config.schemas.js';
import * as faceted from './faceted-config.service.js';

/** A device's settings grouped by facet: the faceted view of camera/getConfig's state (issue 19). */
export function facetedConfigRoutes(app: ApiApp, deps: Deps): void {
  const tags = ['Device Config'];
  operation(
    app,
    {
      path: '/api/deviceconfig/getFacetedConfig',
      operationId: 'getFacetedConfig',
      summary: "A camera's settings, grouped by facet (video, audio) and device",
      tags,
      body: s.GetFacetedConfigRequest,
      response: s.GetFacetedConfigResponse,
      // The platform's newer public spec, and its MCP, name it under /api/camera.
      aliases: ['/api/camera/getFacetedConfig'],
      platformSource: { '/api/camera/getFacetedConfig': 'newer' },
    },
    async (input, ctx) => ({ config: await faceted.getFacetedConfig(deps, ctx, input.deviceUuid) }),
  );
  operation(
    app,
    {
      path: '/api/deviceconfig/updateFacetedConfig',
      operationId: 'updateFacetedConfig',
      summary: "Sets a camera's settings given by facet; a value out of range is refused naming the field",
      tags,
      body: s.UpdateFacetedConfigRequest,
      response: ResponseOf({
        config: Field(
          Own(
            s.FacetedUserConfig,
            "the settings as they now are: the platform's MCP server reads them back (as /api/camera/updateFacetedConfig, this operation)",
          ),
        ),
      }),
      aliases: ['/api/camera/updateFacetedConfig'],
      platformSource: { '/api/camera/updateFacetedConfig': 'newer' },
    },
    async (input, ctx) => {
      await faceted.updateFacetedConfig(deps, ctx, input.configUpdate);
      return { config: await faceted.getFacetedConfig(deps, ctx, input.configUpdate.deviceUuid) };
    },
  );
  // A doorbell camera keeps a camera's settings; the platform's newer spec reads and sets them in the faceted
  // form (its MCP sends deviceUuid, and configUpdate as updateFacetedConfig's).
  const doorbell = { tags: ['Doorbell Camera'], platformSource: 'newer' as const };
  operation(
    app,
    {
      ...doorbell,
      path: '/api/doorbellcamera/getConfig',
      operationId: 'getDoorbellCameraConfig',
      summary: "A doorbell camera's settings, grouped by facet and device (as a camera's faceted config)",
      body: s.GetFacetedConfigRequest,
      response: s.GetFacetedConfigResponse,
    },
    async (input, ctx) => ({ config: await faceted.getFacetedConfig(deps, ctx, input.deviceUuid, 'DOORBELL_CAMERA') }),
  );
  operation(
    app,
    {
      ...doorbell,
      path: '/api/doorbellcamera/updateConfig',
      operationId: 'updateDoorbellCameraConfig',
      summary: "Sets a doorbell camera's settings given by facet; a value out of range is refused naming the field",
      body: s.UpdateFacetedConfigRequest,
      response: ResponseOf({ config: s.GetFacetedConfigResponse.properties.config }),
    },
    async (input, ctx) => {
      await faceted.updateFacetedConfig(deps, ctx, input.configUpdate, 'DOORBELL_CAMERA');
      return { config: await faceted.getFacetedConfig(deps, ctx, input.configUpdate.deviceUuid, 'DOORBELL_CAMERA') };
    },
  );
}

import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as schemas from './schemas.js';
import * as archiving from './service.js';

const tags = ['Org'];

/** Cloud archiving configs of the organization, its locations and devices (kept and answered). */
export function cloudArchivingRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/org/getCloudArchivingConfigs',
      operationId: 'getCloudArchivingConfigs',
      summary: "The organization's cloud archiving configs",
      tags,
      body: schemas.GetArchivingConfigsRequest,
      response: schemas.GetArchivingConfigsResponse,
    },
    async (_input, ctx) => ({ archivingConfigs: await archiving.listArchivingConfigs(deps, ctx.orgUuid) }),
  );
  operation(
    app,
    {
      path: '/api/org/updateCloudArchivingConfig',
      operationId: 'updateCloudArchivingConfig',
      summary: 'Set the cloud archiving config of the organization, a location or a device',
      description: 'Kept and answered (Gatehouse archives no footage); its schedule cannot be deleted while the config names it.',
      tags,
      body: schemas.UpdateArchivingConfigRequest,
      response: schemas.ArchivingEnvelope,
    },
    async (input, ctx) => (await archiving.putArchivingConfig(deps, ctx, input.archivingConfig), {}),
  );
  operation(
    app,
    {
      path: '/api/org/deleteCloudArchivingConfig',
      operationId: 'deleteCloudArchivingConfig',
      summary: 'Delete the cloud archiving config of a target',
      tags,
      body: schemas.DeleteArchivingConfigRequest,
      response: schemas.ArchivingEnvelope,
    },
    async (input, ctx) => (await archiving.deleteArchivingConfig(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/camera/getCloudArchivingConfig',
      operationId: 'getCloudArchivingConfig',
      summary: 'The cloud archiving config that applies to a device',
      description: "The device's own, else its location's, else the organization's; absent when none applies.",
      tags: ['Camera'],
      body: schemas.GetCloudArchivingConfigRequest,
      response: schemas.GetCloudArchivingConfigResponse,
    },
    async (input, ctx) => {
      // Not nullable in the catalogue: none that applies is left out.
      const archivingConfig = await archiving.archivingConfigOfDevice(deps, ctx, input.deviceUuid);
      return archivingConfig ? { archivingConfig } : {};
    },
  );
  operation(
    app,
    {
      path: '/api/camera/getCloudArchivedMediaInfo',
      operationId: 'getCloudArchivedMediaInfo',
      summary: "The oldest archived second of a camera's video",
      tags: ['Camera'],
      body: schemas.GetCloudArchivedMediaInfoRequest,
      response: schemas.GetCloudArchivedMediaInfoResponse,
    },
    (input, ctx) => archiving.cloudArchivedMediaInfo(deps, ctx, input.cameraUuid),
  );
}

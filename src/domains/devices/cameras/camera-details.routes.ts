import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { ResponseOf } from '../../../schemas/common.js';
import * as s from './camera-details.schemas.js';
import * as cameras from './camera-details.service.js';

/** Camera details, state, configuration, reboot and uptime (issue 19). */
export function cameraDetailRoutes(app: ApiApp, deps: Deps): void {
  const tags = ['Camera'];
  operation(
    app,
    {
      path: '/api/camera/getDetails',
      operationId: 'getCameraDetails',
      summary: 'Details of the cameras asked for',
      tags,
      body: s.GetCameraDetailsRequest,
      response: s.GetCameraDetailsResponse,
    },
    async (input, ctx) => ({
      cameras: await cameras.getCameraDetails(deps, ctx, input.cameraUuids),
    }),
  );
  operation(
    app,
    {
      path: '/api/camera/getDetailsV2',
      extension: true,
      operationId: 'getCameraDetailsV2',
      summary: 'Details of one camera',
      tags,
      body: s.GetCameraDetailsV2Request,
      response: s.GetCameraDetailsV2Response,
    },
    async (input, ctx) => ({
      camera: await cameras.getCameraDetailsV2(deps, ctx, input.cameraUuid),
    }),
  );
  operation(
    app,
    {
      path: '/api/camera/updateDetails',
      operationId: 'updateCameraDetails',
      summary: "Sets a camera's name, description, location and placement",
      tags,
      body: s.UpdateCameraDetailsRequest,
      response: ResponseOf({}),
    },
    async (input, ctx) => {
      const { uuid, ...change } = input.camera;
      await cameras.updateCameraDetails(deps, ctx, uuid, Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined && v !== null)));
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/camera/updateDetailsV2',
      operationId: 'updateCameraDetailsV2',
      summary: 'Sets the flagged details of a camera (a field is set when its <field>Updated is true)',
      tags,
      body: s.UpdateCameraDetailsV2Request,
      response: ResponseOf({}),
    },
    async (input, ctx) => {
      await cameras.updateCameraDetails(deps, ctx, input.uuid, cameras.flaggedChange(input, s.UPDATABLE_V2));
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/camera/updateDetailsBulkV2',
      operationId: 'updateDetailsBulkV2',
      summary: 'Sets the flagged details of many cameras at once, all or none',
      tags,
      body: s.UpdateDetailsBulkV2Request,
      response: ResponseOf({}),
    },
    async (input, ctx) => {
      await cameras.updateCameraDetailsBulk(
        deps,
        ctx,
        input.cameraBulkDetails.map((u) => ({ uuid: u.uuid, change: cameras.flaggedChange(u, s.UPDATABLE_V2) })),
      );
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/camera/getFullCameraState',
      operationId: 'getFullCameraState',
      summary: "A camera's full state",
      tags,
      body: s.GetFullCameraStateRequest,
      response: s.GetFullCameraStateResponse,
    },
    async (input, ctx) => ({
      fullCameraState: await cameras.getFullCameraState(deps, ctx, input.cameraUuid),
    }),
  );
  operation(
    app,
    {
      path: '/api/camera/getConfig',
      operationId: 'getCameraConfig',
      summary: "A camera's settings",
      tags,
      body: s.GetCameraConfigRequest,
      response: s.GetCameraConfigResponse,
    },
    async (input, ctx) => ({
      config: await cameras.getCameraConfig(deps, ctx, input.cameraUuid),
    }),
  );
  operation(
    app,
    {
      path: '/api/camera/updateConfig',
      operationId: 'updateCameraConfig',
      summary: "Sets a camera's settings; a value out of range is refused naming the field",
      tags,
      body: s.UpdateCameraConfigRequest,
      response: ResponseOf({}),
    },
    async (input, ctx) => {
      await cameras.updateCameraConfig(deps, ctx, input.config as { deviceUuid: string } & Record<string, unknown>);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/camera/reboot',
      operationId: 'rebootCamera',
      summary: 'Reboots a camera: it goes offline and comes back a few seconds later',
      tags,
      body: s.RebootCameraRequest,
      response: s.RebootCameraResponse,
    },
    async (input, ctx) => ({
      status: await cameras.rebootCamera(deps, ctx, input.cameraUuid),
    }),
  );
  operation(
    app,
    {
      path: '/api/camera/getUptimeWindows',
      operationId: 'getUptimeWindows',
      summary: 'When a camera was online, from its connection history',
      tags,
      body: s.GetUptimeWindowsRequest,
      response: s.GetUptimeWindowsResponse,
    },
    async (input, ctx) => ({
      uptimeWindows: await cameras.getUptimeWindows(deps, ctx, input),
    }),
  );
  operation(
    app,
    {
      path: '/api/camera/getCameraAIThresholds',
      operationId: 'getCameraAIThresholds',
      summary: "A camera's detection thresholds",
      tags,
      body: s.GetCameraAIThresholdsRequest,
      response: s.GetCameraAIThresholdsResponse,
    },
    async (input, ctx) => cameras.getCameraAIThresholds(deps, ctx, input.cameraUuid),
  );
  operation(
    app,
    {
      path: '/api/camera/updateCameraAIThresholds',
      operationId: 'updateCameraAIThresholds',
      summary: "Sets a camera's detection thresholds; a value out of range is refused naming the field",
      tags,
      body: s.UpdateCameraAIThresholdsRequest,
      response: ResponseOf({}),
    },
    async (input, ctx) => {
      await cameras.updateCameraAIThresholds(deps, ctx, input);
      return {};
    },
  );
  for (const revert of Object.keys(cameras.CAMERA_REVERTS) as Array<keyof typeof cameras.CAMERA_REVERTS>) {
    operation(
      app,
      {
        path: `/api/camera/${revert}`,
        operationId: revert,
        summary:
          revert === 'revertToDefaults'
            ? 'Puts every setting of a camera, and its AI thresholds, back to the defaults'
            : `Puts a camera's ${revert
                .slice(6, -10)
                .replace(/([A-Z])/g, ' $1')
                .trim()
                .toLowerCase()} back to the defaults`,
        tags,
        body: s.RevertCameraToDefaultsRequest,
        response: ResponseOf({}),
      },
      async (input, ctx) => {
        await cameras.revertCameraSettings(deps, ctx, input.cameraUuid, revert);
        return {};
      },
    );
  }
  operation(
    app,
    {
      path: '/api/camera/updateCameraLineCrossingThresholds',
      operationId: 'updateCameraLineCrossingThresholds',
      summary: 'Sets the line a camera counts crossings of (both points), or turns line crossing off (a point left out)',
      tags,
      body: s.UpdateCameraLineCrossingThresholdsRequest,
      response: ResponseOf({}),
    },
    async (input, ctx) => {
      await cameras.updateCameraLineCrossing(deps, ctx, input);
      return {};
    },
  );
}

import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as s from './camera-maintenance.schemas.js';
import * as upkeep from './camera-maintenance.service.js';
import * as batch from './batch-registration.service.js';
import { calibrateFloorplanProjection } from './floorplan-projection.service.js';

const tags = ['Camera'];

/** Camera upkeep, batch registration and floor plan calibration (issue 34). */
export function cameraMaintenanceRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/camera/erase',
      operationId: 'eraseCamera',
      summary: 'Erase an online camera back to its factory settings',
      tags,
      body: s.CameraUuidRequest,
      response: s.EraseCameraResponse,
    },
    async (input, ctx) => (await upkeep.eraseCamera(deps, ctx, input.cameraUuid), {}),
  );
  operation(
    app,
    {
      path: '/api/camera/updateFirmware',
      operationId: 'updateFirmware',
      summary: 'Start updating a camera to the latest firmware',
      description: 'The camera reports the end of the update (gatehouse simulate firmware).',
      tags,
      body: s.CameraUuidRequest,
      response: s.UpdateFirmwareResponse,
    },
    async (input, ctx) => ({ status: await upkeep.updateCameraFirmware(deps, ctx, input.cameraUuid) }),
  );
  operation(
    app,
    {
      path: '/api/camera/updateWifi',
      operationId: 'updateCameraWifi',
      summary: 'Send a Wi-Fi network to cameras',
      description: 'Each online camera takes it; an offline one answers false. The password is passed on, never kept.',
      tags,
      body: s.UpdateWifiRequest,
      response: s.UpdateWifiResponse,
    },
    async (input, ctx) => ({ status: await upkeep.updateCameraWifi(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/camera/generateWifiChangeAuthorizationToken',
      operationId: 'generateWifiChangeAuthorizationToken',
      summary: "A token that lets a camera on the caller's network change its Wi-Fi",
      tags,
      body: s.GenerateWifiChangeAuthorizationTokenRequest,
      response: s.GenerateWifiChangeAuthorizationTokenResponse,
    },
    async (input, ctx, request) => {
      const myIp = request.headers['rhombus_my_ip'];
      return upkeep.wifiChangeToken(deps, ctx, input, (typeof myIp === 'string' && myIp) || request.ip);
    },
  );
  operation(
    app,
    {
      path: '/api/camera/getStorageRecoveryFile',
      operationId: 'getStorageRecoveryFile',
      summary: "The file a camera's local storage is recovered with",
      tags,
      body: s.GetStorageRecoveryFileRequest,
      response: s.GetStorageRecoveryFileResponse,
    },
    (input, ctx) => upkeep.storageRecoveryFile(deps, ctx, input.deviceUuid),
  );
  operation(
    app,
    {
      path: '/api/camera/getOfflineLanStreamingInfo',
      operationId: 'getCameraOfflineLanStreamingInfo',
      summary: "What a viewer on a camera's network needs to stream it while the cloud is unreachable",
      tags,
      body: s.GetOfflineLanStreamingInfoRequest,
      response: s.GetOfflineLanStreamingInfoResponse,
    },
    async (_input, ctx) => ({ info: await upkeep.offlineLanStreamingInfo(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/camera/generateBatchRegistrationInfo',
      operationId: 'generateBatchRegistrationInfo',
      summary: 'A token cameras register themselves into the organization with',
      tags,
      body: s.GenerateBatchRegistrationInfoRequest,
      response: s.GenerateBatchRegistrationInfoResponse,
    },
    (input, ctx) => batch.generateBatchRegistration(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/camera/getBatchRegistrationUsage',
      operationId: 'getBatchRegistrationUsage',
      summary: 'The cameras that registered with a batch token',
      tags,
      body: s.GetBatchRegistrationUsageRequest,
      response: s.GetBatchRegistrationUsageResponse,
    },
    (input, ctx) => batch.batchRegistrationUsage(deps, ctx, input),
  );
  for (const [path, operationId, kind, tag] of [
    ['/api/camera/calibrateFloorplanProjection', 'cameraCalibrateFloorplanProjection', 'CAMERA', 'Camera'],
    ['/api/doorbellcamera/calibrateFloorplanProjection', 'doorbellCameraCalibrateFloorplanProjection', 'DOORBELL_CAMERA', 'Doorbell Camera'],
  ] as const) {
    operation(
      app,
      {
        path,
        operationId,
        summary: "Fit the projection of a camera's image onto its floor plan",
        description: 'At least four point pairs, in permyriad of each image; no three on one line. The fit is kept with the camera.',
        tags: [tag],
        permission: { kind: 'write' },
        body: s.CalibrateFloorplanProjectionRequest,
        response: s.CalibrateFloorplanProjectionResponse,
      },
      (input, ctx) => calibrateFloorplanProjection(deps, ctx, kind, input),
    );
  }
}

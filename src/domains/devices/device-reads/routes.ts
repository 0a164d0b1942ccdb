import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as s from './schemas.js';
import * as reads from './service.js';
import * as features from './features.service.js';
import { orgFeatures } from './org-features.service.js';

/** Reads of climate sensors, environmental and audio gateways, cameras and device features (issue 19). */
export function deviceReadRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/climate/getConfig',
      operationId: 'getConfig',
      summary: "A climate sensor's configuration",
      tags: ['Climate'],
      body: s.GetClimateSensorConfigRequest,
      response: s.GetClimateSensorConfigResponse,
    },
    async (input, ctx) => ({ config: await reads.getClimateSensorConfig(deps, ctx, input.uuid) }),
  );
  operation(
    app,
    {
      path: '/api/climate/getEnvironmentalGatewayShadows',
      operationId: 'getEnvironmentalGatewayShadows',
      summary: "Every environmental gateway's last readings, by module, and its connection",
      tags: ['Climate'],
      body: s.GetEnvironmentalGatewayShadowsRequest,
      response: s.GetEnvironmentalGatewayShadowsResponse,
    },
    async (_input, ctx) => ({ environmentalGatewayShadows: await reads.getEnvironmentalGatewayShadows(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/climate/getMinimalStateEventsForEnvironmentalGateway',
      operationId: 'getMinimalStateEventsForEnvironmentalGateway',
      summary: "An environmental gateway's readings history as minimal states, newest first, a page at a time",
      tags: ['Climate'],
      body: s.GetMinimalStateEventsForEnvironmentalGatewayRequest,
      response: s.GetMinimalStateEventsForEnvironmentalGatewayResponse,
    },
    (input, ctx) => reads.getMinimalStateEventsForEnvironmentalGateway(deps, ctx, { ...input, limit: input.maxPageSize }),
  );
  operation(
    app,
    {
      path: '/api/audiogateway/getFullAudioGatewayState',
      operationId: 'getFullAudioGatewayState',
      summary: "An audio gateway's full state",
      tags: ['Audio Gateway'],
      body: s.GetFullAudioGatewayStateRequest,
      response: s.GetFullAudioGatewayStateResponse,
    },
    async (input, ctx) => ({ fullAudioGatewayState: await reads.getFullAudioGatewayState(deps, ctx, input.deviceUuid) }),
  );
  operation(
    app,
    {
      path: '/api/audiogateway/getUptimeWindows',
      operationId: 'getAudioGatewayUptimeWindows',
      summary: 'When an audio gateway was online, from its connection history',
      tags: ['Audio Gateway'],
      body: s.GetAudioGatewayUptimeWindowsRequest,
      response: s.GetAudioGatewayUptimeWindowsResponse,
    },
    async (input, ctx) => ({ uptimeWindows: await reads.getAudioGatewayUptimeWindows(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/camera/getMinimalList',
      operationId: 'getCameraMinimalList',
      summary: 'Every camera of the organization, with its placement and policy',
      tags: ['Camera'],
      body: s.GetCameraMinimalListRequest,
      response: s.GetCameraMinimalListResponse,
    },
    async (_input, ctx) => ({ cameras: await reads.getCameraMinimalList(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/camera/getMinimalCameraLocationMap',
      operationId: 'getMinimalCameraLocationMap',
      summary: "Each camera's name and location, by camera",
      tags: ['Camera'],
      body: s.GetMinimalCameraLocationMapRequest,
      response: s.GetMinimalCameraLocationMapResponse,
    },
    async (_input, ctx) => ({ cameraLocationMap: await reads.getMinimalCameraLocationMap(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/camera/getCurrentState',
      operationId: 'getCurrentCameraState',
      summary: "A camera's connection, health and running settings",
      tags: ['Camera'],
      body: s.GetCurrentCameraStateRequest,
      response: s.GetCurrentCameraStateResponse,
    },
    async (input, ctx) => ({ cameraState: await reads.getCurrentCameraState(deps, ctx, input.cameraUuid) }),
  );
  operation(
    app,
    {
      path: '/api/feature/getDeviceEventTypes',
      operationId: 'getDeviceEventTypes',
      summary: 'The activities a device can raise with the features it has on',
      tags: ['Feature'],
      body: s.GetDeviceEventTypesRequest,
      response: s.GetDeviceEventTypesResponse,
    },
    async (input, ctx) => ({ eventTypes: await features.getDeviceEventTypes(deps, ctx, input.deviceUuid) }),
  );
  operation(
    app,
    {
      path: '/api/feature/getDeviceFeaturesList',
      operationId: 'getDeviceFeaturesList',
      summary: 'The features of several devices',
      tags: ['Feature'],
      body: s.GetDeviceFeaturesListRequest,
      response: s.GetDeviceFeaturesListResponse,
    },
    async (input, ctx) => ({ featureList: await features.getDeviceFeaturesList(deps, ctx, input.deviceUuids) }),
  );
  operation(
    app,
    {
      path: '/api/feature/getFeatureCompatabilityMatrix',
      operationId: 'getFeatureCompatabilityMatrix',
      summary: 'Every device feature, the hardware that has it and the activities it raises',
      tags: ['Feature'],
      body: s.GetFeatureCompatabilityMatrixRequest,
      response: s.GetFeatureCompatabilityMatrixResponse,
    },
    async () => ({ featureCompatabilityMatrix: features.getFeatureCompatabilityMatrix() }),
  );
  operation(
    app,
    {
      path: '/api/org/getFeatures',
      operationId: 'getFeatures',
      summary: 'The analytics features the organization has, from its cameras and settings',
      tags: ['Org'],
      body: s.GetFeaturesRequest,
      response: s.GetFeaturesResponse,
    },
    async (_input, ctx) => orgFeatures(deps, ctx.orgUuid),
  );
  operation(
    app,
    {
      path: '/api/ble/getBaseStations',
      operationId: 'getBaseStations',
      summary: 'The devices that relay BLE tags and buttons',
      description: 'Cameras, doorbell cameras, audio gateways and environmental gateways: the devices with a listening BLE radio.',
      tags: ['BLE'],
      body: s.GetBaseStationsRequest,
      response: s.GetBaseStationsResponse,
    },
    async (_input, ctx) => ({ baseStations: await reads.getBleBaseStations(deps, ctx) }),
  );
}

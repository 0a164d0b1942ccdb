import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { toMinimalCameraState } from '../cameras/service.js';
import { MinimalCameraState } from '../cameras/schemas.js';
import * as features from '../device-reads/features.service.js';
import * as s from './schemas.js';
import * as sensors from './service.js';
import { listDevices } from '../service.js';
import { Field, ResponseOf } from '../../../schemas/common.js';
import { Type, type Static } from 'typebox';

/** Sensors, keypads, audio gateways, doorbell cameras and device features (issue 19). */
export function sensorRoutes(app: ApiApp, deps: Deps): void {
  const list = (
    path: string,
    operationId: string,
    tag: string,
    response: Parameters<typeof operation>[1]['response'],
    summary: string,
    handler: Parameters<typeof operation>[2],
    extension?: true,
  ) => operation(app, { path, operationId, summary, tags: [tag], body: s.ListRequest, response, extension }, handler);

  list(
    '/api/climate/getMinimalClimateStateList',
    'getMinimalClimateStateList',
    'Climate',
    s.GetMinimalClimateStateListResponse,
    'Latest state of every climate sensor of the organization',
    async (_i, ctx) => ({
      climateStates: await sensors.getMinimalClimateStateList(deps, ctx),
    }),
  );
  operation(
    app,
    {
      path: '/api/climate/getClimateEventsForSensor',
      operationId: 'getClimateEventsForSensor',
      summary: "A climate sensor's readings, newest first",
      tags: ['Climate'],
      body: s.GetClimateEventsForSensorRequest,
      response: s.GetClimateEventsForSensorResponse,
    },
    async (input, ctx) => ({
      climateEvents: await sensors.sensorHistory<Static<typeof s.ClimateEvent>>(deps, ctx, 'climate', { ...input, deviceUuid: input.sensorUuid }),
    }),
  );
  list(
    '/api/climate/getMinimalEnvironmentalGatewayStates',
    'getMinimalEnvironmentalGatewayStates',
    'Climate',
    s.GetMinimalEnvironmentalGatewayStatesResponse,
    'Latest state of every environmental gateway of the organization',
    async (_i, ctx) => ({
      minimalEnvironmentalGatewayStates: await sensors.getMinimalEnvironmentalGatewayStates(deps, ctx),
      lastEvaluatedKey: null,
    }),
  );
  operation(
    app,
    {
      path: '/api/climate/getEventsForEnvironmentalGateway',
      operationId: 'getEventsForEnvironmentalGateway',
      summary: "An environmental gateway's readings, newest first, a page at a time",
      tags: ['Climate'],
      body: s.GetEventsForEnvironmentalGatewayRequest,
      response: s.GetEventsForEnvironmentalGatewayResponse,
    },
    async (input, ctx) => sensors.environmentalGatewayEvents<Static<typeof s.EnvironmentalGatewayEvent>>(deps, ctx, { ...input, limit: input.maxPageSize }),
  );
  list(
    '/api/door/getMinimalDoorStateList',
    'getMinimalDoorStateList',
    'Door',
    s.GetMinimalDoorStateListResponse,
    'Latest state of every door sensor of the organization',
    async (_i, ctx) => ({
      doorStates: await sensors.getMinimalDoorStateList(deps, ctx),
    }),
  );
  operation(
    app,
    {
      path: '/api/door/getDoorEventsForSensor',
      operationId: 'getDoorEventsForSensor',
      summary: "A door sensor's open / closed / ajar events, newest first",
      tags: ['Door'],
      body: s.GetDoorEventsForSensorRequest,
      response: s.GetDoorEventsForSensorResponse,
    },
    async (input, ctx) => ({
      doorEvents: await sensors.sensorHistory<Static<typeof s.DoorSensorEvent>>(
        deps,
        ctx,
        'door',
        { ...input, deviceUuid: input.sensorUuid },
        input.stateFilter,
      ),
    }),
  );
  list(
    '/api/occupancy/getMinimalOccupancySensorStateList',
    'getMinimalOccupancySensorStateList',
    'Occupancy',
    s.GetMinimalOccupancySensorStateListResponse,
    'Latest state of every occupancy sensor of the organization',
    async (_i, ctx) => ({
      occupancySensorStates: await sensors.getMinimalOccupancySensorStateList(deps, ctx),
    }),
  );
  operation(
    app,
    {
      path: '/api/occupancy/getOccupancyEventsForSensor',
      operationId: 'getOccupancyEventsForSensor',
      summary: "An occupancy sensor's events, newest first",
      tags: ['Occupancy'],
      body: s.GetOccupancyEventsForSensorRequest,
      response: s.GetOccupancyEventsForSensorResponse,
    },
    async (input, ctx) => ({
      events: await sensors.sensorHistory<Static<typeof s.OccupancyEvent>>(deps, ctx, 'occupancy', { ...input, deviceUuid: input.sensorUuid }),
    }),
  );
  list(
    '/api/proximity/getMinimalProximityStateList',
    'getMinimalProximityStateList',
    'Proximity',
    s.GetMinimalProximityStateListResponse,
    'Latest state of every proximity tag of the organization',
    async (_i, ctx) => ({
      proximityStates: await sensors.getMinimalProximityStateList(deps, ctx),
    }),
  );
  operation(
    app,
    {
      path: '/api/proximity/getProximityEventsForTag',
      operationId: 'getProximityEventsForTags',
      summary: "A tag's status events, newest first",
      tags: ['Proximity'],
      body: s.GetProximityEventsForTagRequest,
      response: s.GetProximityEventsForTagResponse,
    },
    async (input, ctx) => ({
      proximityEvents: (
        await sensors.sensorHistory<Static<typeof s.ProximityEvent>>(deps, ctx, 'proximity', { ...input, deviceUuid: input.tagUuid }, input.statusFilter)
      ).map(sensors.proximityEventAnswer),
    }),
  );
  operation(
    app,
    {
      path: '/api/proximity/getLocomotionEventsForTag',
      operationId: 'getLocomotionEventsForTag',
      summary: "A tag's movements (arrival, departure, ...), newest first",
      tags: ['Proximity'],
      body: s.GetLocomotionEventsForTagRequest,
      response: s.GetLocomotionEventsForTagResponse,
    },
    async (input, ctx) => ({
      locomotionEvents: await sensors.sensorHistory<Static<typeof s.LocomotionEvent>>(
        deps,
        ctx,
        'locomotion',
        { ...input, deviceUuid: input.tagUuid },
        input.movementFilter,
      ),
    }),
  );
  list('/api/keypad/getKeypadsForOrg', 'getKeypadsForOrg', 'Keypad', s.GetKeypadsForOrgResponse, 'Every keypad of the organization', async (_i, ctx) => ({
    keypads: await sensors.getKeypadsForOrg(deps, ctx),
  }));
  list(
    '/api/audiogateway/getMinimalAudioGatewayStateList',
    'getMinimalAudioGatewayStateList',
    'Audio Gateway',
    s.GetMinimalAudioGatewayStateListResponse,
    'Basic state of every audio gateway of the organization',
    async (_i, ctx) => ({
      audioGatewayStates: await sensors.getMinimalAudioGatewayStateList(deps, ctx),
    }),
  );
  operation(
    app,
    {
      path: '/api/audiogateway/getConfig',
      operationId: 'getAudioGatewayConfig',
      summary: "An audio gateway's audio settings",
      tags: ['Audio Gateway'],
      body: s.GetAudioGatewayConfigRequest,
      response: s.GetAudioGatewayConfigResponse,
    },
    async (input, ctx) => ({ config: await sensors.getAudioGatewayConfig(deps, ctx, input.audioGatewayUuid) }),
  );
  operation(
    app,
    {
      path: '/api/audiogateway/updateConfig',
      operationId: 'updateAudioGatewayConfig',
      summary: "Sets an audio gateway's audio settings (values out of range are refused naming the field)",
      tags: ['Audio Gateway'],
      body: s.UpdateAudioGatewayConfigRequest,
      response: s.UpdateAudioGatewayConfigResponse,
    },
    async (input, ctx) => {
      await sensors.updateAudioGatewayConfig(deps, ctx, input as { uuid: string } & Record<string, unknown>);
      return {};
    },
  );
  list(
    '/api/doorbellcamera/getMinimalStateList',
    'getMinimalDoorbellCameraStateList',
    'Doorbell Camera',
    ResponseOf({ doorbellCameraStates: Field(Type.Array(MinimalCameraState)) }),
    'Basic state of every doorbell camera of the organization',
    async (_i, ctx) => ({
      doorbellCameraStates: (await listDevices(deps, ctx.orgUuid, ['DOORBELL_CAMERA'])).map((d) => toMinimalCameraState(d)),
    }),
    true,
  );
  operation(
    app,
    {
      path: '/api/doorbellcamera/findComponentEventsForDoorbellCamera',
      operationId: 'findComponentEventsForDoorbellCamera',
      summary: "A doorbell camera's component events (presses), newest first",
      tags: ['Doorbell Camera'],
      body: s.FindComponentEventsForDoorbellCameraRequest,
      response: s.FindComponentEventsForDoorbellCameraResponse,
    },
    async (input, ctx) => ({
      componentEvents: await sensors.doorbellEvents<Static<typeof s.ComponentEvent>>(deps, ctx, { ...input, deviceUuid: input.doorbellCameraUuid }),
    }),
  );
  operation(
    app,
    {
      path: '/api/feature/getDeviceFeatures',
      operationId: 'getDeviceFeatures',
      summary: 'What a device can do, with the features the organization turned off',
      tags: ['Feature'],
      body: s.GetDeviceFeaturesRequest,
      response: s.GetDeviceFeaturesResponse,
    },
    async (input, ctx) => ({ features: await features.getDeviceFeatures(deps, ctx, input.deviceUuid) }),
  );
  operation(
    app,
    {
      path: '/api/feature/updateDeviceFeatures',
      operationId: 'updateDeviceFeatures',
      summary: "Turns a device's features on or off",
      tags: ['Feature'],
      body: s.UpdateDeviceFeaturesRequest,
      response: ResponseOf({}),
    },
    async (input, ctx) => {
      await features.updateDeviceFeatures(deps, ctx, input);
      return {};
    },
  );
}

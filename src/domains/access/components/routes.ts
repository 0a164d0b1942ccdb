import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { EnvelopeResponse } from '../../../schemas/common.js';
import * as s from './schemas.js';
import * as components from './service.js';
import { getOrCreatePortConfig } from './ports.service.js';

const TAGS = ['Component'];

/** The name each type goes by in its create and update operations' paths (the catalogue's). */
const OPERATION_NAMES: Record<s.ComponentType, { create: string; update: string; label: string }> = {
  IntegratedDoorPositionIndicator: {
    create: 'createIntegratedDoorPositionIndicator',
    update: 'updateIntegratedDoorPositionIndicator',
    label: 'door position indicator',
  },
  IntegratedDoorRelay: { create: 'createIntegratedDoorRelay', update: 'updateIntegratedDoorRelay', label: 'door relay' },
  IntegratedGenericButton: { create: 'createIntegratedGenericButton', update: 'updateIntegratedGenericButton', label: 'generic button' },
  IntegratedGenericInput: { create: 'createIntegratedGenericInput', update: 'updateIntegratedGenericInput', label: 'generic input' },
  IntegratedGenericRelay: { create: 'createIntegratedGenericRelay', update: 'updateIntegratedGenericRelay', label: 'generic relay' },
  IntegratedRequestToExit: { create: 'createIntegratedRequestToExit', update: 'updateIntegratedRequestToExit', label: 'request-to-exit sensor' },
  OsdpDoorReader: { create: 'createOsdpDoorReader', update: 'updateOsdpDoorReader', label: 'third-party OSDP reader' },
  RhombusOsdpDoorReader: { create: 'createRhombusOsdpDoorReader', update: 'updateRhombusOsdpDoorReader', label: 'platform OSDP reader' },
  WiegandDoorReader: { create: 'createWiegandReader', update: 'updateWiegandDoorReader', label: 'Wiegand reader' },
};

/** A device's hardware components: one create and one update per type, then the reads, deletes and relay drives. */
export function hardwareComponentRoutes(app: ApiApp, deps: Deps): void {
  for (const type of Object.keys(OPERATION_NAMES) as s.ComponentType[]) {
    const names = OPERATION_NAMES[type];
    const response = s.componentResponse(type);
    operation(
      app,
      {
        path: `/api/component/${names.create}`,
        operationId: names.create,
        summary: `Wires a ${names.label} to a device`,
        tags: TAGS,
        body: s.createRequest(type),
        response,
      },
      async (input, ctx) => ({ component: await components.createComponent(deps, ctx, type, input as { ownerDeviceUuid: string }) }),
    );
    operation(
      app,
      {
        path: `/api/component/${names.update}`,
        operationId: names.update,
        summary: `Changes the given fields of a ${names.label}`,
        tags: TAGS,
        body: s.updateRequest(type),
        response,
      },
      async (input, ctx) => ({ component: await components.updateComponent(deps, ctx, type, input as { componentUuid: string }) }),
    );
  }
  operation(
    app,
    {
      path: '/api/component/updateIntegratedGenericRelaySteadyState',
      operationId: 'updateIntegratedGenericRelaySteadyState',
      summary: 'Sets the state a generic relay rests in',
      tags: TAGS,
      body: s.SteadyStateRequest,
      response: s.componentResponse('IntegratedGenericRelay'),
    },
    async (input, ctx) => ({ component: await components.setRelaySteadyState(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/component/updateIntegratedGenericRelayTransientState',
      operationId: 'updateIntegratedGenericRelayTransientState',
      summary: 'Drives a generic relay for a while, after which it returns to its steady state',
      tags: TAGS,
      body: s.TransientStateRequest,
      response: s.TransientStateResponse,
    },
    async (input, ctx) => (await components.driveRelay(deps, ctx, input), { success: true }),
  );
  operation(
    app,
    {
      path: '/api/component/deleteComponent',
      operationId: 'deleteComponent',
      summary: 'Deletes a component',
      tags: TAGS,
      body: s.ComponentUuidRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => (await components.deleteComponent(deps, ctx, input.componentUuid), {}),
  );
  operation(
    app,
    {
      path: '/api/component/deleteComponentsByOwnerDevice',
      operationId: 'deleteComponentsByOwnerDevice',
      summary: 'Deletes every component of a device',
      tags: TAGS,
      body: s.OwnerDeviceRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => (await components.deleteComponentsOfDevice(deps, ctx, input.ownerDeviceUuid), {}),
  );
  operation(
    app,
    {
      path: '/api/component/findComponentsByOwnerDevice',
      operationId: 'findComponentsByOwnerDevice',
      summary: 'The components of a device, oldest first',
      tags: TAGS,
      body: s.OwnerDeviceRequest,
      response: s.FindComponentsResponse,
    },
    async (input, ctx) => ({ components: await components.listComponentsOfDevice(deps, ctx, input.ownerDeviceUuid) }),
  );
  operation(
    app,
    {
      path: '/api/component/findComponentShadowsByOwnerDevice',
      operationId: 'findComponentShadowsByOwnerDevice',
      summary: 'The last reported state of each component of a device',
      tags: TAGS,
      body: s.OwnerDeviceRequest,
      response: s.FindComponentShadowsResponse,
    },
    async (input, ctx) => ({ componentShadows: await components.shadowsOfDevice(deps, ctx, input.ownerDeviceUuid) }),
  );
  operation(
    app,
    {
      path: '/api/component/findAllComponentShadows',
      operationId: 'findAllComponentShadows',
      summary: 'The last reported state of the components named, by component',
      tags: TAGS,
      body: s.FindAllComponentShadowsRequest,
      response: s.FindAllComponentShadowsResponse,
    },
    async (input, ctx) => ({ acuComponentShadowMap: await components.shadowMap(deps, ctx, input.componentUuids) }),
  );
  operation(
    app,
    {
      path: '/api/component/getOrCreateDevicePhysicalPortConfig',
      operationId: 'getOrCreateDevicePhysicalPortConfig',
      summary: "A device's boards and ports as its components use them, with the ports used in conflict",
      tags: TAGS,
      body: s.OwnerDeviceRequest,
      response: s.PortConfigResponse,
    },
    async (input, ctx) => getOrCreatePortConfig(deps, ctx, input.ownerDeviceUuid),
  );
}

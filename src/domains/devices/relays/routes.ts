import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as s from './schemas.js';
import * as nvrs from './nvr.service.js';
import * as cameras from './third-party.service.js';

const TAGS = ['Relay'];

/** NVRs, and the third-party cameras that relays and NVRs find, that are assigned to them, and that they move. */
export function relayRoutes(app: ApiApp, deps: Deps): void {
  nvrRoutes(app, deps);
  const op = <B extends import('typebox').TSchema, R extends import('typebox').TSchema>(
    path: string,
    operationId: string,
    summary: string,
    body: B,
    response: R,
  ) => ({
    path: `/api/relay/${path}`,
    operationId,
    summary,
    tags: TAGS,
    body,
    response,
  });
  operation(
    app,
    op(
      'executeThirdPartyCameraDiscovery',
      'executeThirdPartyCameraDiscovery',
      'Asks relays and NVRs to scan their networks for cameras',
      s.ExecuteDiscoveryRequest,
      s.EmptyResponse,
    ),
    async (input, ctx) => (await cameras.requestDiscovery(deps, ctx, input), {}),
  );
  operation(
    app,
    op(
      'manualDiscoverCamera',
      'manualDiscoverCamera',
      'Adds a camera known by its RTSP URL as a discovery',
      s.ManualDiscoverRequest,
      s.DiscoveredCameraResponse,
    ),
    (input, ctx) => cameras.manualDiscover(deps, ctx, input),
  );
  operation(
    app,
    op(
      'authenticateThirdPartyCamera',
      'authenticateThirdPartyCamera',
      "Sets the credentials of a discovered camera's RTSP endpoints",
      s.AuthenticateRequest,
      s.DiscoveredCameraResponse,
    ),
    (input, ctx) => cameras.authenticateDiscovery(deps, ctx, input),
  );
  operation(
    app,
    op(
      'getRtspEndpoints',
      'getRtspEndpoints',
      'The RTSP endpoints of a discovered camera (passwords masked)',
      s.GetRtspEndpointsRequest,
      s.GetRtspEndpointsResponse,
    ),
    async (input, ctx) => ({
      rtspEndpoints: await cameras.getRtspEndpoints(deps, ctx, input.discoveredCameraMacAddress),
    }),
  );
  operation(
    app,
    op(
      'findDiscoveriesWithUnassignedRtspEndpoints',
      'findDiscoveriesWithUnassignedRtspEndpoints',
      'The discoveries with an RTSP endpoint not yet assigned to a camera',
      s.ListPasswordsRequest,
      s.FindUnassignedResponse,
    ),
    async (_input, ctx) => ({
      discoveries: await cameras.discoveriesWithUnassigned(deps, ctx),
    }),
  );
  operation(
    app,
    op(
      'assignThirdPartyCameraToNVR',
      'assignThirdPartyCameraToNVR',
      'Makes a discovered camera a camera of the organization, recorded by an NVR',
      s.AssignToNvrRequest,
      s.AssignResponse,
    ),
    async (input, ctx) => ({
      deviceUuid: await cameras.assignToNvr(deps, ctx, input),
    }),
  );
  operation(
    app,
    op(
      'assignThirdPartyCameraToRelayCamera',
      'assignThirdPartyCameraToRelayCamera',
      'Makes a discovered camera a camera of the organization, relayed by the camera that found it',
      s.AssignToRelayCameraRequest,
      s.AssignResponse,
    ),
    async (input, ctx) => ({
      deviceUuid: await cameras.assignToRelayCamera(deps, ctx, input),
    }),
  );
  operation(
    app,
    op('unassignThirdPartyCamera', 'unassignThirdPartyCamera', 'Removes a third-party camera, freeing its RTSP endpoint', s.UnassignRequest, s.EmptyResponse),
    async (input, ctx) => (await cameras.unassign(deps, ctx, input), {}),
  );
  operation(
    app,
    op('getAssignedThirdPartyCameras', 'getAssignedThirdPartyCameras', 'The third-party cameras an NVR records', s.NvrUuidRequest, s.AssignedCamerasResponse),
    async (input, ctx) => ({
      assignedCameras: await cameras.getAssignedCameras(deps, ctx, input.nvruuid),
    }),
  );
  operation(
    app,
    op(
      'getMinimalThirdPartyCameraStateList',
      'getMinimalThirdPartyCameraStateList',
      'Every third-party camera, with where it came from and its stream status',
      s.ListPasswordsRequest,
      s.ThirdPartyCameraStatesResponse,
    ),
    async (_input, ctx) => ({
      thirdPartyCameraStateList: await cameras.getThirdPartyCameraStates(deps, ctx),
    }),
  );
  operation(
    app,
    op('ptzMove', 'ptzMove', 'Pans, tilts and zooms a third-party camera', s.PtzMoveRequest, s.EmptyResponse),
    async (input, ctx) => (await cameras.ptzMove(deps, ctx, input), {}),
  );
  operation(app, op('ptzStatus', 'ptz', "A third-party camera's pan, tilt and zoom", s.PtzStatusRequest, s.PtzStatusResponse), (input, ctx) =>
    cameras.ptzStatus(deps, ctx, input.thirdPartyCameraUuid),
  );
  operation(
    app,
    op(
      'createThirdPartyCameraPassword',
      'createThirdPartyCameraPassword',
      'Saves a username and password for third-party cameras',
      s.CreatePasswordRequest,
      s.CreatePasswordResponse,
    ),
    async (input, ctx) => ({
      passwordUuid: await cameras.createPassword(deps, ctx, input),
    }),
  );
  operation(
    app,
    op(
      'getThirdPartyCameraPasswords',
      'getThirdPartyCameraPasswords',
      'The saved third-party camera passwords (masked)',
      s.ListPasswordsRequest,
      s.ListPasswordsResponse,
    ),
    async (_input, ctx) => ({
      passwords: await cameras.listPasswords(deps, ctx),
    }),
  );
  operation(
    app,
    op(
      'deleteThirdPartyCameraPassword',
      'deleteThirdPartyCameraPassword',
      'Deletes a saved third-party camera password',
      s.PasswordUuidRequest,
      s.EmptyResponse,
    ),
    async (input, ctx) => (await cameras.deletePassword(deps, ctx, input.passwordUuid), {}),
  );
}

function nvrRoutes(app: ApiApp, deps: Deps): void {
  const common = { tags: TAGS };
  operation(
    app,
    {
      ...common,
      path: '/api/relay/getDetails',
      operationId: 'getNVRDetails',
      summary: 'The details of NVRs',
      body: s.GetNvrDetailsRequest,
      response: s.GetNvrDetailsResponse,
    },
    async (input, ctx) => ({
      nvrs: await nvrs.getNvrDetails(deps, ctx, input.nvruuids),
    }),
  );
  operation(
    app,
    {
      ...common,
      path: '/api/relay/getFullNVRState',
      operationId: 'getFullNVRState',
      summary: "An NVR's full state",
      body: s.GetFullNvrStateRequest,
      response: s.GetFullNvrStateResponse,
    },
    async (input, ctx) => ({
      fullNVRState: await nvrs.getFullNvrState(deps, ctx, input.nvruuid),
    }),
  );
  operation(
    app,
    {
      ...common,
      path: '/api/relay/getMinimalNVRStateList',
      operationId: 'getMinimalNVRStateList',
      summary: 'Every NVR, with its third-party camera counts',
      body: s.ListPasswordsRequest,
      response: s.GetMinimalNvrStatesResponse,
    },
    async (_input, ctx) => ({
      nvrstates: await nvrs.getMinimalNvrStates(deps, ctx),
    }),
  );
  operation(
    app,
    {
      ...common,
      path: '/api/relay/updateDetailsV2',
      operationId: 'updateNVRDetailsV2',
      summary: 'Changes the details of an NVR',
      body: s.UpdateNvrRequest,
      response: s.EmptyResponse,
    },
    async (input, ctx) => (await nvrs.updateNvrDetails(deps, ctx, input), {}),
  );
  operation(
    app,
    { ...common, path: '/api/relay/reboot', operationId: 'rebootNVR', summary: 'Reboots an NVR', body: s.RebootNvrRequest, response: s.RebootNvrResponse },
    async (input, ctx) => ({
      result: await nvrs.rebootNvr(deps, ctx, input.nvrUuid),
    }),
  );
  operation(
    app,
    {
      ...common,
      path: '/api/relay/unregister',
      operationId: 'unregisterNVR',
      summary: 'Removes an NVR from the organization',
      body: s.NvrUuidRequest,
      response: s.UnregisterNvrResponse,
    },
    async (input, ctx) => ({
      responseStatus: await nvrs.unregisterNvr(deps, ctx, input.nvruuid),
    }),
  );
  operation(
    app,
    {
      ...common,
      path: '/api/relay/updateFirmware',
      operationId: 'updateNVRFirmware',
      summary: "Updates an NVR's firmware to the latest",
      body: s.NvrUuidRequest,
      response: s.UpdateFirmwareResponse,
    },
    async (input, ctx) => ({
      status: await nvrs.updateNvrFirmware(deps, ctx, input.nvruuid),
    }),
  );
  operation(
    app,
    {
      ...common,
      path: '/api/relay/getUptimeWindows',
      operationId: 'getRelayUptimeWindows',
      summary: 'When an NVR was online',
      body: s.NvrUptimeRequest,
      response: s.NvrUptimeResponse,
    },
    async (input, ctx) => ({
      uptimeWindows: await nvrs.getNvrUptimeWindows(deps, ctx, input),
    }),
  );
}

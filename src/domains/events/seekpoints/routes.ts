import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { EnvelopeResponse } from '../../../schemas/common.js';
import { PresenceWindowMapResponse, PresenceWindowsRequest } from '../../timeline/seekpoints.schemas.js';
import * as camera from './camera-timeline.service.js';
import { getCameraOrDoorbellSeekpoints, getEventSeekpoints } from './event-search-seekpoints.service.js';
import * as s from './schemas.js';

const CAMERA = ['Camera'];
const AUDIO = ['AudioGateway'];
const SEARCH = ['EventSearch'];
const SUCCESSOR = { successor: '/api/camera/getFootageSeekpointsV2' };

/** An older API's CUSTOM seekpoint as the custom mark it is kept as. */
const asCustomMark = (p: s.OlderSeekpoint) => ({ name: p.cdn || p.a, timestampMs: p.ts });

/** The cameras', audio gateways' and event search's timeline reads: seekpoints, custom marks and presence windows. */
export function eventTimelineRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/camera/getFootageSeekpointsV2',
      operationId: 'getCameraFootageSeekpointsV2',
      summary: "A camera's activities over a span (alerts, crossings, faces, plates, custom marks), oldest first",
      tags: CAMERA,
      body: s.GetCameraFootageSeekpointsV2Request,
      response: s.FootageSeekpointsResponse,
    },
    async (input, ctx) => ({ footageSeekPoints: await camera.getCameraSeekpoints(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/camera/getFootageSeekpointsForMultiple',
      operationId: 'getFootageSeekpointsForMultiple',
      summary: "Several cameras' activities over a span, summed up per camera (counts per minute and activity)",
      tags: CAMERA,
      body: s.GetFootageSeekpointsForMultipleRequest,
      response: s.GetFootageSeekpointsForMultipleResponse,
    },
    async (input, ctx) => ({ footageSeekPointMap: await camera.getSeekpointsForMultiple(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/camera/createCustomFootageSeekpoints',
      operationId: 'createCustomFootageSeekpoints',
      summary: "Put custom seekpoints (named, coloured marks) on a camera's footage",
      tags: CAMERA,
      body: s.CreateCustomFootageSeekpointsRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => (await camera.createCameraSeekpoints(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/camera/createFootageSeekpoints',
      operationId: 'createFootageSeekpoints',
      summary: "Put CUSTOM seekpoints on a camera's footage (kept as custom marks, which the seekpoint reads return)",
      tags: CAMERA,
      body: s.CreateFootageSeekpointsRequest,
      response: EnvelopeResponse,
      platformSource: 'older',
    },
    async (input, ctx) => {
      const points = [...(input.footageSeekPoint ? [input.footageSeekPoint] : []), ...(input.footageSeekPoints ?? [])];
      await camera.createCameraSeekpoints(deps, ctx, { cameraUuid: input.cameraUuid, footageSeekPoints: points.map(asCustomMark) });
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/camera/getCustomFootageSeekpointsV2',
      operationId: 'getCustomFootageSeekpointsV2',
      summary: 'The custom seekpoints of cameras (or of locations) over a span, oldest first',
      tags: CAMERA,
      body: s.GetCustomFootageSeekpointsV2Request,
      response: s.GetCustomFootageSeekpointsV2Response,
    },
    async (input, ctx) => ({ customFootageSeekPoints: await camera.getCameraCustomSeekpoints(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/camera/deleteCustomFootageSeekpoints',
      operationId: 'deleteCustomFootageSeekpoints',
      summary: "Delete cameras' custom seekpoints in a range of at most a day (of one name, when given)",
      tags: CAMERA,
      body: s.DeleteCustomFootageSeekpointsRequest,
      response: s.DeleteCustomFootageSeekpointsResponse,
    },
    async (input, ctx) => ({ deleteSeekpointResponseMap: await camera.deleteCameraSeekpoints(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/camera/getPresenceWindows',
      operationId: 'getCameraPresenceWindows',
      summary: 'The windows of a span during which a camera recorded activity (alerts, line crossings)',
      tags: CAMERA,
      body: s.GetCameraPresenceWindowsRequest,
      response: PresenceWindowMapResponse,
    },
    async (input, ctx) => ({ presenceWindows: await camera.getCameraPresenceWindows(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/audiogateway/getAudioSeekpoints',
      operationId: 'getAudioSeekpoints',
      summary: 'The activities an audio gateway alerted on over a span, oldest first',
      tags: AUDIO,
      body: s.GetAudioSeekpointsRequest,
      response: s.FootageSeekpointsResponse,
    },
    async (input, ctx) => ({ footageSeekPoints: await camera.getAudioSeekpoints(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/audiogateway/getPresenceWindows',
      operationId: 'getAudioGatewayPresenceWindows',
      summary: 'The windows of a span during which an audio gateway alerted',
      tags: AUDIO,
      body: PresenceWindowsRequest,
      response: PresenceWindowMapResponse,
    },
    async (input, ctx) => ({ presenceWindows: await camera.getAudioGatewayPresenceWindows(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/eventSearch/getCameraOrDoorbellCameraSeekpoints',
      operationId: 'getCameraOrDoorbellCameraSeekpoints',
      summary: "A camera's or doorbell camera's activities over a span, runs of one activity combined as asked",
      tags: SEARCH,
      body: s.GetCameraOrDoorbellCameraSeekpointsRequest,
      response: s.CombinedSeekpointsResponse,
      deprecated: SUCCESSOR,
    },
    async (input, ctx) => ({ combinedSeekpoints: await getCameraOrDoorbellSeekpoints(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/eventSearch/getEventSeekpoints',
      operationId: 'getDeprecatedEventSeekpoints',
      summary: 'The seekpoints of cameras and access controlled doors together, in time order',
      tags: SEARCH,
      body: s.GetEventSeekpointsRequest,
      response: s.CombinedSeekpointsResponse,
      deprecated: SUCCESSOR,
    },
    async (input, ctx) => ({ combinedSeekpoints: await getEventSeekpoints(deps, ctx, input) }),
  );
}

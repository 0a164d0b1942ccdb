import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { findVideoIntercomEvents } from './component-events.service.js';
import { intercomEventAnswers } from './event-answer.js';
import * as s from './component-seekpoints.schemas.js';
import * as seekpoints from './component-seekpoints.service.js';

const TAGS = ['AccessControl', 'Component'];

/** What each finder's seekpoints are of, for its summary. */
const OF: Record<string, string> = {
  accessControlledDoorUuid: 'an access controlled door',
  componentUuid: 'a component (in Gatehouse, a door)',
  locationUuid: 'the doors of a location',
  ownerDeviceUuid: 'the doors a controller drives',
  userUuid: "a user's badge-ins and unlocks",
};

/** The doors' timeline reads (component seekpoints), their custom marks, and the video intercom's events. */
export function componentSeekpointRoutes(app: ApiApp, deps: Deps): void {
  for (const f of seekpoints.COMPONENT_SEEKPOINT_FINDERS) {
    operation(
      app,
      {
        path: `/api/component/${f.operationId}`,
        operationId: f.operationId,
        summary: `The seekpoints of ${OF[f.finder.field]} over a span, oldest first`,
        tags: TAGS,
        body: s.ComponentSeekpointsRequest(f.finder.field),
        response: s.ComponentSeekpointsResponse,
      },
      async (input, ctx) => ({ seekpoints: await seekpoints.findComponentSeekpoints(deps, ctx, f, input as Record<string, unknown>) }),
    );
  }
  operation(
    app,
    {
      path: '/api/component/findComponentSeekPointsByAccessControlledDoors',
      operationId: 'findComponentSeekPointsByAccessControlledDoors',
      summary: 'The seekpoints of several access controlled doors over a span',
      tags: TAGS,
      body: s.FindComponentSeekPointsByAccessControlledDoorsRequest,
      response: s.ComponentSeekpointsResponse,
    },
    async (input, ctx) => ({ seekpoints: await seekpoints.findDoorsSeekpoints(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/doorbellcamera/findComponentSeekPointsForDoorbellCamera',
      operationId: 'findComponentSeekPointsForDoorbellCamera',
      summary: "A doorbell camera's presses over a span, oldest first",
      tags: ['Doorbell Camera'],
      body: s.FindComponentSeekPointsForDoorbellCameraRequest,
      response: s.ComponentSeekpointsResponse,
    },
    async (input, ctx) => ({ seekpoints: await seekpoints.findDoorbellSeekpoints(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/component/createAccessControlledDoorSeekpoints',
      operationId: 'createAccessControlledDoorSeekpoints',
      summary: 'Put custom seekpoints (named, coloured marks) on an access controlled door',
      tags: TAGS,
      body: s.CreateAccessControlledDoorSeekpointsRequest,
      response: s.CreateAccessControlledDoorSeekpointsResponse,
    },
    async (input, ctx) => ({ successMsg: `${await seekpoints.createDoorSeekpoints(deps, ctx, input)} seekpoints created` }),
  );
  operation(
    app,
    {
      path: '/api/component/findComponentEventsForVideoIntercom',
      operationId: 'findComponentEventsForVideoIntercom',
      summary: "A video intercom's presses, with the events of the door given, newest first",
      tags: TAGS,
      body: s.FindComponentEventsForVideoIntercomRequest,
      response: s.FindComponentEventsForVideoIntercomResponse,
    },
    async (input, ctx) => ({ componentEvents: intercomEventAnswers(await findVideoIntercomEvents(deps, ctx, input)) }),
  );
}

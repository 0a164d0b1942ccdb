import type { TSchema } from 'typebox';
import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { doorAnswer } from '../service.js';
import * as s from './schemas.js';
import { createAccessControlledDoor, deleteAccessControlledDoor, doorShadow, pageDoors, updateAccessControlledDoor } from './service.js';
import type { DoorRecord } from '../service.js';

const tags = ['AccessControl', 'Component'];
const base = '/api/component';

/** What a page of doors answers, by the shape its family reads. */
const SHAPES = {
  doors: (doors: DoorRecord[]) => ({ accessControlledDoors: doors.map(doorAnswer) }),
  shadows: (doors: DoorRecord[]) => ({ shadows: doors.map(doorShadow) }),
  minimal: (doors: DoorRecord[]) => ({ accessControlledDoors: doors.map((door) => ({ door: doorAnswer(door), shadow: doorShadow(door) })) }),
};

/** The paged door reads: each shape over the whole organization and over one location. */
const PAGES: Array<{ name: string; summary: string; body: TSchema; response: TSchema; shape: keyof typeof SHAPES }> = [
  {
    name: 'findAccessControlledDoors',
    summary: 'Find the access controlled doors of the organization',
    body: s.FindAccessControlledDoorsRequest,
    response: s.FindAccessControlledDoorsResponse,
    shape: 'doors',
  },
  {
    name: 'findAccessControlledDoorsByLocation',
    summary: 'Find the access controlled doors of a location',
    body: s.FindAccessControlledDoorsByLocationRequest,
    response: s.FindAccessControlledDoorsByLocationResponse,
    shape: 'doors',
  },
  {
    name: 'findAccessControlledDoorShadows',
    summary: "Find the shadows (access state and its source) of the organization's doors",
    body: s.FindAccessControlledDoorShadowsRequest,
    response: s.FindAccessControlledDoorShadowsResponse,
    shape: 'shadows',
  },
  {
    name: 'findAccessControlledDoorShadowsByLocation',
    summary: "Find the shadows of a location's doors",
    body: s.FindAccessControlledDoorShadowsByLocationRequest,
    response: s.FindAccessControlledDoorShadowsResponse,
    shape: 'shadows',
  },
  {
    name: 'findMinimalStateAccessControlledDoors',
    summary: "Find the organization's doors with their shadows",
    body: s.FindMinimalStateAccessControlledDoorsRequest,
    response: s.FindMinimalStateAccessControlledDoorsResponse,
    shape: 'minimal',
  },
  {
    name: 'findMinimalStateAccessControlledDoorsByLocation',
    summary: "Find a location's doors with their shadows",
    body: s.FindMinimalStateAccessControlledDoorsByLocationRequest,
    response: s.FindMinimalStateAccessControlledDoorsResponse,
    shape: 'minimal',
  },
];

/** Doors as the catalogue manages them: create, update, delete, labels, and the paged reads (doors, shadows, both). */
export function doorRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: `${base}/createAccessControlledDoor`,
      operationId: 'createAccessControlledDoor',
      summary: 'Create an access controlled door',
      description: 'Closed and locked, then in its expected state (defaultState, doorStateToScheduleUuidMap).',
      tags,
      body: s.CreateAccessControlledDoorRequest,
      response: s.CreateAccessControlledDoorResponse,
    },
    async (input, ctx) => ({ accessControlledDoor: await createAccessControlledDoor(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: `${base}/updateAccessControlledDoor`,
      operationId: 'updateAccessControlledDoor',
      summary: 'Update the fields given of an access controlled door',
      tags,
      body: s.UpdateAccessControlledDoorRequest,
      response: s.UpdateAccessControlledDoorResponse,
    },
    async (input, ctx) => ({ accessControlledDoor: await updateAccessControlledDoor(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: `${base}/deleteAccessControlledDoor`,
      operationId: 'deleteAccessControlledDoor',
      summary: 'Delete an access controlled door with its events and labels',
      tags,
      body: s.DoorUuidRequest,
      response: s.DeleteAccessControlledDoorResponse,
    },
    async (input, ctx) => ({ accessControlledDoor: await deleteAccessControlledDoor(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: `${base}/findAccessControlledDoorsByOwnerDevice`,
      operationId: 'findAccessControlledDoorsByOwnerDevice',
      summary: 'Find the doors a device (a door controller) drives',
      tags,
      body: s.FindAccessControlledDoorsByOwnerDeviceRequest,
      response: s.FindAccessControlledDoorsByOwnerDeviceResponse,
    },
    async (input, ctx) => SHAPES.doors((await pageDoors(deps, ctx, { ...input, maxPageSize: 1000 })).doors),
  );
  for (const page of PAGES) {
    operation(
      app,
      {
        path: `${base}/${page.name}`,
        operationId: page.name,
        summary: page.summary,
        description: 'By name; lastEvaluatedKey is present while more follow.',
        tags,
        body: page.body,
        response: page.response,
      },
      async (input, ctx) => {
        const { doors, lastEvaluatedKey } = await pageDoors(deps, ctx, input as Parameters<typeof pageDoors>[2]);
        return { ...SHAPES[page.shape](doors), lastEvaluatedKey } as never;
      },
    );
  }
}

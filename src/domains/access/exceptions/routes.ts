import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as s from './schemas.js';
import { createException, deleteException, findExceptions, getException, updateException } from './service.js';

const tags = ['Door Schedule Exception'];
const base = '/api/accesscontrol/doorScheduleException';
const EFFECT =
  "For its local dates the exception overrides its doors' schedules: a moment inside one of its intervals takes the interval's state, another its defaultState (none: the door's schedule). UNLOCKED holds the door unlocked and admits any valid credential; the relock scheduler follows.";

/** Door schedule exceptions (holidays, event days), the platform's V2 family. */
export function exceptionRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: `${base}/createExceptionV2`,
      operationId: 'createExceptionV2',
      summary: 'Create a door schedule exception',
      description: EFFECT,
      tags,
      body: s.CreateExceptionRequest,
      response: s.ExceptionAnswer,
    },
    async (input, ctx) => ({ exception: await createException(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: `${base}/updateExceptionV2`,
      operationId: 'updateExceptionV2',
      summary: 'Update the fields given of a door schedule exception',
      tags,
      body: s.UpdateExceptionRequest,
      response: s.UpdateExceptionResponse,
    },
    async (input, ctx) => ({ exception: await updateException(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: `${base}/deleteExceptionV2`,
      operationId: 'deleteExceptionV2',
      summary: 'Delete a door schedule exception',
      tags,
      body: s.ExceptionUuidRequest,
      response: s.DeleteExceptionResponse,
    },
    async (input, ctx) => (await deleteException(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: `${base}/getExceptionV2`,
      operationId: 'getExceptionV2',
      summary: 'Get a door schedule exception',
      tags,
      body: s.ExceptionUuidRequest,
      response: s.ExceptionAnswer,
    },
    async (input, ctx) => ({ exception: await getException(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: `${base}/findExceptionsV2`,
      operationId: 'findExceptionsV2',
      summary: "Find the organization's door schedule exceptions by first date",
      tags,
      body: s.FindExceptionsRequest,
      response: s.FindExceptionsResponse,
    },
    async (input, ctx) => ({ exceptions: await findExceptions(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: `${base}/findExceptionsForDoor`,
      operationId: 'findExceptionsForDoor',
      summary: "Find a door's schedule exceptions",
      tags,
      body: s.FindExceptionsForDoorRequest,
      response: s.FindExceptionsResponse,
    },
    async (input, ctx) => ({ exceptions: await findExceptions(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: `${base}/findExceptionsForLocationV2`,
      operationId: 'findExceptionsForLocationV2',
      summary: 'Find the schedule exceptions of a location (named by the exception or holding one of its doors)',
      tags,
      body: s.FindExceptionsForLocationRequest,
      response: s.FindExceptionsResponse,
    },
    async (input, ctx) => ({ exceptions: await findExceptions(deps, ctx, input) }),
  );
}

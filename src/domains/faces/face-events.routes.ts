import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../http/operation.js';
import { EmptyRequest, EnvelopeResponse } from '../../schemas/common.js';
import {
  FindFaceEventsByOrgRequest,
  FindFaceEventsByOrgResponse,
  FindPersonLabelsByOrgResponse,
  GetFaceEventRequest,
  GetFaceEventResponse,
  PersonLabelRequest,
} from './face-events.schemas.js';
import * as faceEvents from './face-events.service.js';

const FACE_EVENT = '/api/faceRecognition/faceEvent';
const PERSON = '/api/faceRecognition/person';
const tags = ['FaceRecognition'];

/** Face sightings and person labels. */
export function faceEventRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: `${FACE_EVENT}/findFaceEventsByOrg`,
      operationId: 'findFaceEventsByOrg',
      summary: 'Find face events of the organization',
      description: "Newest first, within timestampFilter (default: the last 7 days); page with the answer's lastEvaluatedKey.",
      tags,
      body: FindFaceEventsByOrgRequest,
      response: FindFaceEventsByOrgResponse,
    },
    async (input, ctx) => faceEvents.findFaceEvents(deps, ctx, input),
  );
  operation(
    app,
    {
      path: `${FACE_EVENT}/getFaceEvent`,
      operationId: 'getFaceEvent',
      summary: 'Get a face event',
      tags,
      body: GetFaceEventRequest,
      response: GetFaceEventResponse,
    },
    async (input, ctx) => ({ faceEvent: await faceEvents.getFaceEvent(deps, ctx, input.eventUuid) }),
  );
  operation(
    app,
    {
      path: `${PERSON}/findPersonLabelsByOrg`,
      operationId: 'findPersonLabelsByOrg',
      summary: 'Find the labels of people',
      tags,
      body: EmptyRequest,
      response: FindPersonLabelsByOrgResponse,
    },
    async (_input, ctx) => ({ labelsByPerson: await faceEvents.findPersonLabels(deps, ctx) }),
  );
  operation(
    app,
    {
      path: `${PERSON}/addPersonLabel`,
      operationId: 'addPersonLabel',
      summary: 'Add a label to a person',
      tags,
      body: PersonLabelRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => (await faceEvents.changePersonLabel(deps, ctx, input, true), {}),
  );
  operation(
    app,
    {
      path: `${PERSON}/removePersonLabel`,
      operationId: 'removePersonLabel',
      summary: 'Remove a label from a person',
      tags,
      body: PersonLabelRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => (await faceEvents.changePersonLabel(deps, ctx, input, false), {}),
  );
}

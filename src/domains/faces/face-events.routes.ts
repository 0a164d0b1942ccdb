import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import { EmptyRequest, EnvelopeResponse } from '../../schemas/common.js';
import { GetFaceMatchmakerResponse } from './schemas.js';
import * as edits from './face-event-edits.service.js';
import * as matching from './face-matching.service.js';
import {
  CreateFaceMatchmakerFromSightingRequest,
  FaceEventUuidRequest,
  FaceMatchingConfigResponse,
  UpdateFaceEventRequest,
  UpdateFaceMatchingConfigRequest,
  FindFaceEventsByOrgRequest,
  FindFaceEventsByOrgResponse,
  FindSimilarFaceEventsRequest,
  FindSimilarFaceEventsResponse,
  FindPersonLabelsByOrgResponse,
  GetFaceEventRequest,
  GetFaceEventResponse,
  PersonLabelRequest,
} from './face-events.schemas.js';
import * as faceEvents from './face-events.service.js';
import { findSimilarFaceEvents } from './similar-faces.service.js';

const FACE_EVENT = '/api/faceRecognition/faceEvent';
const PERSON = '/api/faceRecognition/person';
const MATCHMAKER = '/api/faceRecognition/matchmaker';
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
      path: `${FACE_EVENT}/findSimilarFaceEvents`,
      operationId: 'findSimilarFaceEvents',
      summary: 'Find the face events that look like a face event',
      description:
        "The platform's newer public spec (not in its catalogue). Most alike first, the event itself left out; similarity (a Gatehouse addition) " +
        "is from the faces' matches to the organization's people (docs/events.md). Within timestampFilter (default: every sighting); page with the answer's lastEvaluatedKey.",
      tags,
      body: FindSimilarFaceEventsRequest,
      response: FindSimilarFaceEventsResponse,
    },
    async (input, ctx) => findSimilarFaceEvents(deps, ctx, input),
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
  operation(
    app,
    {
      path: `${FACE_EVENT}/updateFaceEvent`,
      operationId: 'updateFaceEvent',
      summary: 'Say who a face event is of',
      description: "By personUuid, or by personName (the person of that name, created when there is none). The camera's best match stays in topPersonMatches.",
      tags,
      body: UpdateFaceEventRequest,
      response: GetFaceEventResponse,
    },
    async (input, ctx) => ({ faceEvent: await edits.updateFaceEvent(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: `${FACE_EVENT}/deleteFaceEvent`,
      operationId: 'deleteFaceEvent',
      summary: 'Delete a face event',
      tags,
      body: FaceEventUuidRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => (await edits.deleteFaceEvent(deps, ctx, input.eventUuid), {}),
  );
  operation(
    app,
    {
      path: `${MATCHMAKER}/getFaceMatchingConfig`,
      operationId: 'getFaceMatchingConfig',
      summary: 'Get the face-matching threshold',
      description: `Default ${matching.DEFAULT_FACE_MATCH_THRESHOLD} until set.`,
      tags,
      body: EmptyRequest,
      response: FaceMatchingConfigResponse,
    },
    async (_input, ctx) => ({ faceMatchConfidenceThreshold: (await matching.getFaceMatchingConfig(deps, ctx)).faceMatchConfidenceThreshold }),
  );
  operation(
    app,
    {
      path: `${MATCHMAKER}/updateFaceMatchingConfig`,
      operationId: 'updateFaceMatchingConfig',
      summary: 'Set the face-matching threshold',
      description: 'Decides every later sighting: a face matched below it is recorded unidentified, its best match in topPersonMatches.',
      tags,
      body: UpdateFaceMatchingConfigRequest,
      response: FaceMatchingConfigResponse,
    },
    async (input, ctx) => ({
      faceMatchConfidenceThreshold: (await matching.updateFaceMatchingConfig(deps, ctx, input.faceMatchConfidenceThreshold)).faceMatchConfidenceThreshold,
    }),
  );
  operation(
    app,
    {
      path: `${MATCHMAKER}/createFaceMatchmakerFromSighting`,
      operationId: 'createFaceMatchmakerFromSighting',
      summary: "Make a face event's picture a face of a person",
      description: "The camera's frame at the sighting's time (a JPEG) becomes a face of personUuid (default: the person the sighting is of).",
      tags,
      body: CreateFaceMatchmakerFromSightingRequest,
      response: GetFaceMatchmakerResponse,
    },
    async (input, ctx) => ({ faceMatchmaker: await edits.createFaceMatchmakerFromSighting(deps, ctx, input) }),
  );
}

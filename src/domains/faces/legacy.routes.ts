import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import { EmptyRequest, EnvelopeResponse, EpochMs, Field, ResponseOf, Ruuid } from '../../schemas/common.js';
import * as faces from './matchmakers.service.js';
import * as legacy from './legacy.service.js';
import { UploadFaceMatchmakersForm, UploadFaceMatchmakersResponse } from './schemas.js';
import { registerUploadForm, uploadParts } from './upload-form.js';

/**
 * The platform's older face API, which its Python and Java examples still call: the same people, labels,
 * sightings and uploads as /api/faceRecognition, under the older names and shapes. Not in the platform's
 * catalogue: marked `x-platform-source: older-api`.
 */
const tags = ['Face (older API)'];
const Label = Type.String({ minLength: 1, maxLength: 100 });
const FaceIdentifier = Type.String({ minLength: 1, maxLength: 200, description: "the person's name (or uuid)" });
const LegacyFaceEvent = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  deviceUuid: Field(Type.String()),
  locationUuid: Field(Ruuid()),
  eventTimestamp: Field(EpochMs()),
  personUuid: Field(Ruuid()),
  faceName: Type.String({ description: "the person's name; empty for an unidentified face" }),
  thumbnailS3Key: Type.String({ description: 'the thumbnail key (media/faces?s3ObjectKey=)' }),
  imageS3Key: Type.String(),
});
const FaceEventsResponse = ResponseOf({ faceEvents: Field(Type.Array(LegacyFaceEvent)) });
const UploadedFace = Type.Object({
  name: Type.String({ description: 'the file name without its extension: the person it is of' }),
  fileName: Type.String(),
  success: Type.Boolean(),
  errorMsg: Type.String({ description: 'why it failed; empty on success' }),
  personUuid: Field(Ruuid()),
  faceId: Field(Type.String()),
  transactionId: Field(Type.String()),
  createdAtMillis: EpochMs(),
});

export async function legacyFaceRoutes(app: ApiApp, deps: Deps): Promise<void> {
  await app.register(async (scope) => {
    await registerUploadForm(scope as ApiApp);
    operation(
      scope as ApiApp,
      {
        path: '/api/upload/faces',
        operationId: 'uploadFaces',
        summary: 'Uploads face images (multipart, any file part name); each file name names its person, created when missing',
        description: 'Answers HTTP 201, as the platform does. The same upload as faceRecognition/matchmaker/uploadFaceMatchmakers with createPersonIfNotFound.',
        tags,
        consumes: ['multipart/form-data'],
        body: UploadFaceMatchmakersForm,
        response: UploadFaceMatchmakersResponse,
        platformSource: 'older',
        permission: { functionality: 'MANAGE_FACES' },
      },
      async (_input, ctx, request, reply) => {
        const result = await faces.uploadFaceMatchmakers(deps, ctx, { createPersonIfNotFound: 'true', parts: uploadParts(request) });
        reply.status(201);
        return result;
      },
    );
  });
  operation(
    app,
    {
      path: '/api/face/getRecentFaceEventsV2',
      operationId: 'getRecentFaceEventsV2',
      summary: 'Face sightings in an interval (default: the last day), newest first; filter.types NAMED or UNNAMED narrows them',
      tags,
      body: Type.Object({
        filter: Field(Type.Object({ types: Field(Type.Array(Type.String({ maxLength: 50 }), { maxItems: 20 })) })),
        interval: Field(Type.Object({ start: Field(EpochMs('epoch ms, inclusive')), end: Field(EpochMs('epoch ms, exclusive')) })),
      }),
      response: FaceEventsResponse,
      platformSource: 'older',
    },
    async (input, ctx) => ({
      faceEvents: await legacy.recentFaceEvents(deps, ctx, { startMs: input.interval?.start, endMs: input.interval?.end, types: input.filter?.types }),
    }),
  );
  operation(
    app,
    {
      path: '/api/face/getRecentFaceEventsForName',
      operationId: 'getRecentFaceEventsForName',
      summary: "A named face's sightings of the last week, newest first",
      tags,
      body: Type.Object({ faceName: Type.String({ minLength: 1, maxLength: 200 }) }),
      response: FaceEventsResponse,
      platformSource: 'older',
    },
    async (input, ctx) => ({
      faceEvents: await legacy.recentFaceEvents(deps, ctx, { startMs: deps.clock.now() - 7 * 86_400_000, faceName: input.faceName }),
    }),
  );
  operation(
    app,
    {
      path: '/api/face/getFaceLabelsForOrg',
      operationId: 'getFaceLabelsForOrg',
      summary: "Every labelled face's labels, by the face's (person's) name",
      tags,
      body: EmptyRequest,
      response: ResponseOf({ faceLabels: Field(Type.Record(Type.String(), Type.Array(Type.String()))) }),
      platformSource: 'older',
    },
    async (_input, ctx) => ({ faceLabels: await legacy.faceLabelsByName(deps, ctx) }),
  );
  for (const [verb, add] of [
    ['add', true],
    ['remove', false],
  ] as const) {
    operation(
      app,
      {
        path: `/api/face/${verb}FaceLabel`,
        operationId: `${verb}FaceLabel`,
        summary: `${add ? 'Adds a label to' : 'Removes a label from'} the face (person) named; unknown faces answer as unknown`,
        tags,
        body: Type.Object({ faceIdentifier: FaceIdentifier, label: Label }),
        response: EnvelopeResponse,
        platformSource: 'older',
        permission: { functionality: 'MANAGE_FACES' },
      },
      async (input, ctx) => {
        await legacy.changeFaceLabel(deps, ctx, input, add);
        return {};
      },
    );
  }
  operation(
    app,
    {
      path: '/api/face/getUploadedFaces',
      operationId: 'getUploadedFaces',
      summary: "The organization's most recent face uploads, newest first, with each file's result",
      tags,
      body: EmptyRequest,
      response: ResponseOf({ uploadedFaces: Field(Type.Array(UploadedFace)) }),
      platformSource: 'older',
    },
    async (_input, ctx) => ({ uploadedFaces: await legacy.uploadedFaces(deps, ctx) }),
  );
}

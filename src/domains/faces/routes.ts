import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import { EnvelopeResponse } from '../../schemas/common.js';
import * as faces from './matchmakers.service.js';
import {
  CreatePersonRequest,
  DeletePersonRequest,
  FaceIdRequest,
  FaceMatchmakersResponse,
  FindFaceMatchmakersByOrgRequest,
  FindFaceMatchmakersByPersonRequest,
  FindFaceUploadMetadataByTransactionRequest,
  FindFaceUploadMetadataByTransactionResponse,
  FindPeopleByOrgRequest,
  FindPeopleByOrgResponse,
  GetFaceMatchmakerImageResponse,
  GetFaceMatchmakerResponse,
  GetPersonRequest,
  PersonResponse,
  UpdatePersonRequest,
  UploadFaceMatchmakersForm,
  UploadFaceMatchmakersQuery,
  UploadFaceMatchmakersResponse,
} from './schemas.js';
import { faceEventRoutes } from './face-events.routes.js';
import { legacyFaceRoutes } from './legacy.routes.js';
import * as people from './service.js';
import { registerUploadForm, uploadParts } from './upload-form.js';

const MATCHMAKER = '/api/faceRecognition/matchmaker';
const PERSON = '/api/faceRecognition/person';
const tags = ['FaceRecognition'];

export async function faceRoutes(app: ApiApp, deps: Deps): Promise<void> {
  await app.register(async (scope) => {
    await registerUploadForm(scope as ApiApp);
    operation(
      scope as ApiApp,
      {
        path: `${MATCHMAKER}/uploadFaceMatchmakers`,
        operationId: 'uploadFaceMatchmakers',
        summary: 'Upload face matchmakers',
        description:
          'multipart/form-data with one or more .jpg or .png images (checked by content) of at most 5 MB each. Each file name, without extension and ' +
          'ignoring case and white space, names the person the face is of; with createPersonIfNotFound a missing person is created. One result per file, in order.',
        tags,
        consumes: ['multipart/form-data'],
        querystring: UploadFaceMatchmakersQuery,
        body: UploadFaceMatchmakersForm,
        response: UploadFaceMatchmakersResponse,
      },
      async (_input, ctx, request) => {
        const query = request.query as { transaction?: string; createPersonIfNotFound?: string };
        return faces.uploadFaceMatchmakers(deps, ctx, { ...query, parts: uploadParts(request) });
      },
    );
  });

  operation(
    app,
    {
      path: `${MATCHMAKER}/findFaceUploadMetadataByTransaction`,
      operationId: 'findFaceUploadMetadataByTransaction',
      summary: 'Find face upload metadata by transaction',
      tags,
      body: FindFaceUploadMetadataByTransactionRequest,
      response: FindFaceUploadMetadataByTransactionResponse,
    },
    async (input, ctx) => ({ faceUploadMetadata: await faces.findUploadsOfTransaction(deps, ctx, input.transactionId) }),
  );
  operation(
    app,
    {
      path: `${MATCHMAKER}/findFaceMatchmakersByPerson`,
      operationId: 'findFaceMatchmakersByPerson',
      summary: 'Find face matchmakers by person',
      tags,
      body: FindFaceMatchmakersByPersonRequest,
      response: FaceMatchmakersResponse,
    },
    async (input, ctx) => ({ faceMatchmakers: await faces.findMatchmakersOfPerson(deps, ctx, input.personUuid) }),
  );
  operation(
    app,
    {
      path: `${MATCHMAKER}/findFaceMatchmakersByOrg`,
      operationId: 'findFaceMatchmakersByOrg',
      summary: 'Find face matchmakers by org',
      tags,
      body: FindFaceMatchmakersByOrgRequest,
      response: FaceMatchmakersResponse,
    },
    async (_input, ctx) => ({ faceMatchmakers: await faces.findMatchmakersOfOrg(deps, ctx) }),
  );
  operation(
    app,
    {
      path: `${MATCHMAKER}/getFaceMatchmaker`,
      operationId: 'getFaceMatchmaker',
      summary: 'Get face matchmaker',
      tags,
      body: FaceIdRequest,
      response: GetFaceMatchmakerResponse,
    },
    async (input, ctx) => ({ faceMatchmaker: await faces.getMatchmaker(deps, ctx, input.faceId) }),
  );
  operation(
    app,
    {
      path: `${MATCHMAKER}/getFaceMatchmakerImage`,
      operationId: 'getFaceMatchmakerImage',
      extension: true,
      summary: 'Get the stored image of a face matchmaker (Gatehouse)',
      description: 'Answers the image stored for one of the organization’s faces, base-64, with its content type.',
      tags,
      body: FaceIdRequest,
      response: GetFaceMatchmakerImageResponse,
    },
    async (input, ctx) => {
      const { face, bytes } = await faces.readMatchmakerImage(deps, ctx, input.faceId);
      return { faceMatchmaker: face, contentType: face.contentType, imageBase64: bytes.toString('base64') };
    },
  );
  operation(
    app,
    {
      path: `${MATCHMAKER}/deleteFaceMatchmaker`,
      operationId: 'deleteFaceMatchmaker',
      summary: 'Delete face matchmaker',
      tags,
      body: FaceIdRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => (await faces.deleteMatchmaker(deps, ctx, input.faceId), {}),
  );

  operation(
    app,
    { path: `${PERSON}/createPerson`, operationId: 'createPerson', summary: 'Create a person', tags, body: CreatePersonRequest, response: PersonResponse },
    async (input, ctx) => ({ person: await people.addPerson(deps, ctx, input) }),
  );
  operation(
    app,
    { path: `${PERSON}/getPerson`, operationId: 'getPerson', summary: 'Get a person', tags, body: GetPersonRequest, response: PersonResponse },
    async (input, ctx) => ({ person: await people.getPerson(deps, ctx, input.personUuid) }),
  );
  operation(
    app,
    {
      path: `${PERSON}/findPeopleByOrg`,
      operationId: 'findPeopleByOrg',
      summary: 'Find people by organization',
      tags,
      body: FindPeopleByOrgRequest,
      response: FindPeopleByOrgResponse,
    },
    async (_input, ctx) => ({ people: await people.listPeople(deps, ctx) }),
  );
  operation(
    app,
    { path: `${PERSON}/updatePerson`, operationId: 'updatePerson', summary: 'Update person', tags, body: UpdatePersonRequest, response: PersonResponse },
    async (input, ctx) => ({ person: await people.updatePerson(deps, ctx, input.personSelectiveUpdate) }),
  );
  operation(
    app,
    { path: `${PERSON}/deletePerson`, operationId: 'deletePerson', summary: 'Delete person', tags, body: DeletePersonRequest, response: EnvelopeResponse },
    async (input, ctx) => (await people.deletePerson(deps, ctx, input.personUuid), {}),
  );
  faceEventRoutes(app, deps);
  await legacyFaceRoutes(app, deps);
}

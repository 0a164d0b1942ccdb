import { Type } from 'typebox';
import { EmptyRequest, Field, Nullable, ResponseOf, Ruuid } from '../../schemas/common.js';
import { NotRef } from '../../schemas/record-kinds.js';

/** The reference's Person. */
export const Person = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  name: Field(Type.String()),
  email: Field(Type.String()),
  createdOn: Field(Type.String({ format: 'date-time' })),
  updatedOn: Field(Type.String({ format: 'date-time' })),
});

const Name = Type.String({ maxLength: 200, description: 'the name uploaded face files are matched by (case and white space aside)' });
const Email = Nullable(Type.String({ maxLength: 320 }));
const PersonUuid = NotRef('subject', Ruuid({ description: 'the person (RUUID)' }));
const FaceId = Type.String({ minLength: 1, maxLength: 100, description: 'the face matchmaker id' });

export const CreatePersonRequest = Type.Object({ name: Name, email: Type.Optional(Email) });
export const PersonResponse = ResponseOf({ person: Field(Person) });

export const GetPersonRequest = Type.Object({ personUuid: PersonUuid });
export const FindPeopleByOrgRequest = EmptyRequest;
export const FindPeopleByOrgResponse = ResponseOf({ people: Field(Type.Array(Person)) });

export const UpdatePersonRequest = Type.Object({
  personSelectiveUpdate: Type.Object(
    { uuid: PersonUuid, name: Type.Optional(Nullable(Name)), email: Type.Optional(Email) },
    { description: 'the person to update (uuid) and the fields to change; fields left out stay as they are' },
  ),
});

export const DeletePersonRequest = Type.Object({ personUuid: PersonUuid });

/** The reference's ExternalFaceMatchmaker. */
export const FaceMatchmaker = Type.Object({
  id: Field(Type.String()),
  orgUuid: Field(Ruuid()),
  personUuid: Field(Ruuid()),
  createdOn: Field(Type.String({ format: 'date-time' })),
  uploaded: Field(Type.Boolean()),
});

/** A face matchmaker with what Gatehouse knows of its stored image (getFaceMatchmakerImage, Gatehouse's own). */
const StoredFaceMatchmaker = Type.Object({
  ...FaceMatchmaker.properties,
  transactionId: Field(Type.String()),
  fileName: Field(Type.String()),
  contentType: Field(Type.String()),
  byteCount: Field(Type.Integer()),
  width: Field(Type.Integer()),
  height: Field(Type.Integer()),
  sha256Hex: Field(Type.String()),
});

/** Documents the form; the parts themselves are read as a stream by the route, never parsed into a body. */
export const UploadFaceMatchmakersForm = Type.Object(
  {
    file: Type.Optional(
      Type.Array(Type.String({ contentMediaType: 'image/jpeg' }), { description: 'one or more .jpg or .png images of at most 5 MB each; any part name' }),
    ),
    transaction: Type.Optional(Type.String({ description: 'the transaction id, when not in the query string' })),
    createPersonIfNotFound: Type.Optional(Type.String({ description: 'true or false, when not in the query string' })),
  },
  { description: 'multipart/form-data' },
);

export const UploadFaceMatchmakersQuery = Type.Object({
  transaction: Type.Optional(Type.String({ description: 'transaction id to track the upload by; generated when absent' })),
  createPersonIfNotFound: Type.Optional(Type.String({ description: 'true to create a person for a file name that matches none' })),
});

export const FileUploadResult = Type.Object({ fileName: Field(Type.String()), message: Field(Type.String()), success: Field(Type.Boolean()) });
export const UploadFaceMatchmakersResponse = ResponseOf({ fileUploadResults: Field(Type.Array(FileUploadResult)), transactionId: Field(Type.String()) });

export const FindFaceUploadMetadataByTransactionRequest = Type.Object({ transactionId: NotRef('external', Type.String({ minLength: 1, maxLength: 200 })) });
export const FaceUploadMetadata = Type.Object({
  transactionId: Field(Type.String()),
  orgUuid: Field(Ruuid()),
  success: Field(Type.Boolean()),
  errorMsg: Field(Type.String()),
  faceId: Field(Type.String()),
  personUuid: Field(Ruuid()),
  origS3Key: Field(Type.String({ description: 'where the image is stored, below the media storage' })),
  createdAtMillis: Field(Type.Integer()),
});
export const FindFaceUploadMetadataByTransactionResponse = ResponseOf({ faceUploadMetadata: Field(Type.Array(FaceUploadMetadata)) });

export const FindFaceMatchmakersByPersonRequest = Type.Object({ personUuid: PersonUuid });
export const FindFaceMatchmakersByOrgRequest = EmptyRequest;
export const FaceMatchmakersResponse = ResponseOf({ faceMatchmakers: Field(Type.Array(FaceMatchmaker)) });

export const FaceIdRequest = Type.Object({ faceId: NotRef('subject', FaceId) });
export const GetFaceMatchmakerResponse = ResponseOf({ faceMatchmaker: Field(FaceMatchmaker) });
export const GetFaceMatchmakerImageResponse = ResponseOf({
  faceMatchmaker: Field(StoredFaceMatchmaker),
  contentType: Field(Type.String()),
  imageBase64: Field(Type.String({ description: 'the stored image, base-64' })),
});

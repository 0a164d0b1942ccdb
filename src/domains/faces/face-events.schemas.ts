import { Type, type Static, type TSchema } from 'typebox';
import { EpochMs, FacetId, Field, Nullable, ResponseOf, Ruuid } from '../../schemas/common.js';

const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const Label = Type.String({ minLength: 1, maxLength: 100 });

export const PersonMatch = Type.Object({ uuid: Field(Ruuid()), name: Field(Type.String()), faceId: Field(Type.String()), confidence: Field(Type.Number()) });

export const FaceEvent = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  deviceUuid: Field(FacetId()),
  locationUuid: Field(Ruuid()),
  eventTimestamp: Field(EpochMs()),
  personUuid: Field(Ruuid({ description: 'the person recognised; null for an unidentified face' })),
  faceName: Field(Type.String()),
  hasEmbedding: Field(Type.Boolean()),
  detectionConfidence: Field(Type.Number()),
  embeddingConfidence: Field(Type.Number()),
  selectedPersonMatch: Field(PersonMatch),
  topPersonMatches: Field(Type.Array(PersonMatch)),
  imageS3Key: Field(Type.String()),
  thumbnailS3Key: Field(Type.String()),
});
export type FaceEventRecord = Static<typeof FaceEvent>;

export const FACE_EVENT_PAGE = { default: 100, maximum: 1000 } as const;
export const FindFaceEventsByOrgRequest = Type.Object({
  pageRequest: Opt(
    Type.Object({
      lastEvaluatedKey: Opt(Type.String({ maxLength: 100, description: 'the lastEvaluatedKey of the previous page' })),
      maxPageSize: Opt(Type.Integer({ minimum: 1, maximum: FACE_EVENT_PAGE.maximum, description: `default ${FACE_EVENT_PAGE.default}` })),
    }),
  ),
  searchFilter: Opt(
    Type.Object({
      deviceUuids: Opt(Type.Array(Type.Union([FacetId(), Ruuid()]), { maxItems: 500 })),
      locationUuids: Opt(Type.Array(Ruuid(), { maxItems: 500 })),
      personUuids: Opt(Type.Array(Ruuid(), { maxItems: 500 })),
      faceNames: Opt(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 500, description: 'exact names' })),
      faceNameContains: Opt(Type.String({ maxLength: 200, description: 'case-insensitive part of the name' })),
      hasName: Opt(Type.Boolean({ description: 'true: recognised faces only; false: unidentified ones only' })),
      hasEmbedding: Opt(Type.Boolean()),
      labels: Opt(Type.Array(Label, { maxItems: 100, description: 'faces of people carrying any of these labels' })),
      timestampFilter: Opt(
        Type.Object(
          {
            rangeStart: Opt(Type.String({ format: 'date-time', description: 'inclusive' })),
            rangeEnd: Opt(Type.String({ format: 'date-time', description: 'inclusive' })),
          },
          { description: 'default: the last 7 days' },
        ),
      ),
    }),
  ),
});
export type FindFaceEventsByOrgRequest = Static<typeof FindFaceEventsByOrgRequest>;
export const FindFaceEventsByOrgResponse = ResponseOf({ faceEvents: Field(Type.Array(FaceEvent)), lastEvaluatedKey: Field(Type.String()) });

export const GetFaceEventRequest = Type.Object({ eventUuid: Ruuid() });
export const GetFaceEventResponse = ResponseOf({ faceEvent: Field(FaceEvent) });

export const PersonLabelRequest = Type.Object({ personUuid: Ruuid(), label: Label });
export const FindPersonLabelsByOrgResponse = ResponseOf({
  labelsByPerson: Field(Type.Record(Type.String(), Type.Array(Type.String()), { description: 'labels by person uuid' })),
});

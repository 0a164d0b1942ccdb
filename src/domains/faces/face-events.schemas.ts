import { Type, type Static, type TSchema } from 'typebox';
import { EpochMs, FacetId, Field, Nullable, ResponseOf, Ruuid } from '../../schemas/common.js';
import { NotRef } from '../../schemas/record-kinds.js';

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
const PageRequest = (what: string) =>
  Opt(
    Type.Object({
      lastEvaluatedKey: Opt(Type.String({ maxLength: 200, description: 'the lastEvaluatedKey of the previous page' })),
      maxPageSize: Opt(Type.Integer({ minimum: 1, maximum: FACE_EVENT_PAGE.maximum, description: `${what} per page: default ${FACE_EVENT_PAGE.default}` })),
    }),
  );
/** What sightings are searched by: findFaceEventsByOrg's filter, and findSimilarFaceEvents' with its thresholds. */
const searchFilterFields = {
  deviceUuids: Opt(NotRef('handler', Type.Array(Type.Union([FacetId(), Ruuid()]), { maxItems: 500 }))),
  locationUuids: Opt(NotRef('handler', Type.Array(Ruuid(), { maxItems: 500 }))),
  personUuids: Opt(NotRef('handler', Type.Array(Ruuid(), { maxItems: 500 }))),
  faceNames: Opt(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 500, description: 'exact names' })),
  faceNameContains: Opt(Type.String({ maxLength: 200, description: 'case-insensitive part of the name' })),
  hasName: Opt(Type.Boolean({ description: 'true: recognised faces only; false: unidentified ones only' })),
  labels: Opt(Type.Array(Label, { maxItems: 100, description: 'faces of people carrying any of these labels' })),
};
const TimestampFilter = (defaultRange: string) =>
  Opt(
    Type.Object(
      {
        rangeStart: Opt(Type.String({ format: 'date-time', description: 'inclusive' })),
        rangeEnd: Opt(Type.String({ format: 'date-time', description: 'inclusive' })),
      },
      { description: `default: ${defaultRange}` },
    ),
  );
export const FindFaceEventsByOrgRequest = Type.Object({
  pageRequest: PageRequest('events'),
  searchFilter: Opt(
    Type.Object({
      ...searchFilterFields,
      hasEmbedding: Opt(Type.Boolean()),
      timestampFilter: TimestampFilter('the last 7 days'),
    }),
  ),
});
export type FindFaceEventsByOrgRequest = Static<typeof FindFaceEventsByOrgRequest>;
export const FindFaceEventsByOrgResponse = ResponseOf({ faceEvents: Field(Type.Array(FaceEvent)), lastEvaluatedKey: Field(Type.String()) });

const Fraction = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });
export const SIMILAR_FACES = { defaultDistance: 0.7 } as const;
export const FindSimilarFaceEventsRequest = Type.Object({
  faceEventUuid: NotRef('handler', Ruuid({ description: 'the sighting to find look-alikes of' })),
  pageRequest: PageRequest('look-alikes'),
  searchFilter: Opt(
    Type.Object({
      ...searchFilterFields,
      timestampFilter: TimestampFilter('every sighting kept'),
      faceMatchDistanceThreshold: Opt(Fraction(`the largest distance (1 - similarity) a look-alike may be at (default ${SIMILAR_FACES.defaultDistance})`)),
      embeddingConfidenceThreshold: Opt(Fraction("the least embeddingConfidence of a look-alike (every sighting's is 1)")),
    }),
  ),
});
export type FindSimilarFaceEventsRequest = Static<typeof FindSimilarFaceEventsRequest>;
export const SimilarFaceEvent = Type.Object(
  { ...FaceEvent.properties, similarity: Type.Number({ minimum: 0, maximum: 1, description: 'how alike the two faces are (1: the same)' }) },
  { description: 'A face event and how much it looks like the one asked about' },
);
export type SimilarFaceEventRecord = Static<typeof SimilarFaceEvent>;
export const FindSimilarFaceEventsResponse = ResponseOf({ faceEvents: Field(Type.Array(SimilarFaceEvent)), lastEvaluatedKey: Field(Type.String()) });

export const GetFaceEventRequest = Type.Object({ eventUuid: NotRef('handler', Ruuid()) });
export const GetFaceEventResponse = ResponseOf({ faceEvent: Field(FaceEvent) });

export const PersonLabelRequest = Type.Object({ personUuid: NotRef('handler', Ruuid()), label: Label });
export const FindPersonLabelsByOrgResponse = ResponseOf({
  labelsByPerson: Field(Type.Record(Type.String(), Type.Array(Type.String()), { description: 'labels by person uuid' })),
});

export const UpdateFaceEventRequest = Type.Object({
  eventUuid: NotRef('handler', Ruuid()),
  personUuid: Opt(NotRef('handler', Ruuid({ description: 'the person the face is of' }))),
  personName: Opt(Type.String({ minLength: 1, maxLength: 200, description: 'or their name: the person of that name, created when there is none' })),
});
export const FaceEventUuidRequest = Type.Object({ eventUuid: NotRef('handler', Ruuid()) });

const Threshold = Type.Number({ minimum: 0, maximum: 1, description: 'the confidence a face must be matched with to be the person’s' });
export const FaceMatchingConfigResponse = ResponseOf({ faceMatchConfidenceThreshold: Field(Threshold) });
export const UpdateFaceMatchingConfigRequest = Type.Object({ faceMatchConfidenceThreshold: Threshold });
export const CreateFaceMatchmakerFromSightingRequest = Type.Object({
  faceEventUuid: NotRef('handler', Ruuid()),
  personUuid: Opt(NotRef('handler', Ruuid({ description: 'default: the person the sighting is of' }))),
});

import { Type, type Static, type TSchema } from 'typebox';
import { DeviceRef, EpochMs, Field, Nullable, ResponseOf, StringEnum } from '../../../schemas/common.js';
import { ActivityEnum } from '../../../schemas/activities.js';
import { RefUuid, NotRef } from '../../../schemas/record-kinds.js';
import { FootageBoundingBox } from '../../devices/cameras/footage-boxes.schemas.js';
import { OBJECT_COLORS, OBJECT_TYPES, SEARCH_MODELS } from './attributes.js';

/** Object searches over the organization's detections (/api/search/: colours, similar objects, re-identification). */

const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** The most results one search answers, and its default. */
export const MAX_RESULTS = 500;
export const DEFAULT_RESULTS = 50;
/** A search window's default length (ending now) and the most detections one search reads. */
export const DEFAULT_WINDOW_MS = 7 * 86_400_000;
export const MAX_SCANNED = 10_000;

const Devices = Opt(NotRef('filter', Type.Array(DeviceRef(), { maxItems: 500, description: 'cameras, by uuid or facet id; default every camera' })));
const Model = Opt(StringEnum(SEARCH_MODELS, 'default CLIP_512'));
const ObjectTypes = Opt(Type.Array(StringEnum(OBJECT_TYPES), { maxItems: OBJECT_TYPES.length }));
const Permyriad = Type.Integer({ minimum: 0, maximum: 10_000 });
const Region = Opt(
  Type.Array(Type.Array(Permyriad, { minItems: 2, maxItems: 2, description: 'a point [x, y], permyriad' }), {
    minItems: 4,
    maxItems: 100,
    description: 'a closed polygon: its first and last points the same',
  }),
);
const Results = Opt(Type.Integer({ minimum: 1, maximum: MAX_RESULTS, description: `default ${DEFAULT_RESULTS}` }));
const Threshold = Opt(Type.Number({ minimum: 0, maximum: 1, description: 'the least similarity (1 - distance) answered; default any likeness' }));

const similarQuery = {
  maxNumResults: Results,
  model: Model,
  objectTypeFilter: ObjectTypes,
  queryDeviceUuids: Devices,
  queryStartTimeMs: Opt(EpochMs('inclusive; default 7 days before the end')),
  queryEndTimeMs: Opt(EpochMs('exclusive; default now')),
  regionFilter: Region,
  similarityThreshold: Threshold,
};

export const SearchObjectsByColorRequest = Type.Object({
  colorFilter: Opt(Type.Array(StringEnum(OBJECT_COLORS), { maxItems: OBJECT_COLORS.length, uniqueItems: true })),
  deviceFilter: Devices,
  objectTypeFilter: Opt(Type.Array(ActivityEnum, { maxItems: 50, uniqueItems: true })),
  startTimeMs: Opt(EpochMs('inclusive; default 7 days before the end')),
  endTimeMs: Opt(EpochMs('exclusive; default now')),
});
export type SearchObjectsByColorRequest = Static<typeof SearchObjectsByColorRequest>;
export const SearchObjectsByColorResponse = ResponseOf({ objects: Field(Type.Array(FootageBoundingBox, { description: 'newest first' })) });

export const SearchSimilarObjectEmbeddingsRequest = Type.Object({
  ...similarQuery,
  searchEmbeddingId: NotRef('handler', Type.String({ minLength: 1, maxLength: 64, description: 'an embeddingId from an earlier search' })),
});
export type SearchSimilarObjectEmbeddingsRequest = Static<typeof SearchSimilarObjectEmbeddingsRequest>;
export const SearchSimilarObjectEmbeddingsByTextRequest = Type.Object({
  ...similarQuery,
  searchText: Type.String({ minLength: 1, maxLength: 500, description: 'what to find: "red sedan", "person in yellow"' }),
});
export type SearchSimilarObjectEmbeddingsByTextRequest = Static<typeof SearchSimilarObjectEmbeddingsByTextRequest>;

export const GenericObjectEmbedding = Type.Object({
  embeddingId: Field(Type.String()),
  orgUuid: Field(Type.String()),
  deviceUuid: Field(Type.String({ description: "the camera's facet id" })),
  locationUuid: Field(Type.String()),
  model: Field(StringEnum(SEARCH_MODELS)),
  objectType: Field(Type.String()),
  objectId: Field(Type.Integer()),
  stableTrackId: Field(Type.Integer()),
  timestamp: Field(Type.Integer({ description: 'epoch ms' })),
  l: Field(Type.Integer()),
  t: Field(Type.Integer()),
  r: Field(Type.Integer()),
  b: Field(Type.Integer()),
  embedding: Field(Type.Array(Type.Number())),
  thumbnailUri: Field(Type.String()),
});
export const GenericObjectEmbeddingMatch = Type.Object({
  distance: Field(Type.Number({ description: 'cosine distance: 0 alike, 1 unrelated' })),
  embedding: Field(GenericObjectEmbedding),
  matchedEmbeddingId: Field(Type.String()),
});
export const SearchSimilarObjectEmbeddingsResponse = ResponseOf({
  queryAllowed: Field(Type.Boolean()),
  moderationReason: Field(Type.String()),
  similarEmbeddings: Field(Type.Array(GenericObjectEmbeddingMatch, { description: 'nearest first' })),
});

const reidQuery = {
  deviceUuids: Devices,
  locationUuid: Opt(RefUuid('location', 'only the cameras of this location')),
  startTimestampMs: Opt(EpochMs('inclusive; default 7 days before the end')),
  endTimestampMs: Opt(EpochMs('exclusive; default now')),
  limit: Results,
};
export const ListReidentificationEmbeddingsRequest = Type.Object(reidQuery);
export type ListReidentificationEmbeddingsRequest = Static<typeof ListReidentificationEmbeddingsRequest>;
export const ListReidentificationEmbeddingsResponse = ResponseOf({ embeddings: Field(Type.Array(GenericObjectEmbedding, { description: 'newest first' })) });
export const SearchReidentificationMatchesByEmbeddingRequest = Type.Object({
  ...reidQuery,
  searchEmbedding: Type.Array(Type.Number(), { minItems: 1, maxItems: 4096, description: 'a REIDENTIFICATION_NET vector, as listed' }),
});
export type SearchReidentificationMatchesByEmbeddingRequest = Static<typeof SearchReidentificationMatchesByEmbeddingRequest>;
export const SearchReidentificationMatchesByEmbeddingResponse = ResponseOf({
  matches: Field(Type.Array(GenericObjectEmbeddingMatch, { description: 'nearest first' })),
});

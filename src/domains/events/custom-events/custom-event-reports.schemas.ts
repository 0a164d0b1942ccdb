import { Type, type Static, type TSchema } from 'typebox';
import { EpochMs, FacetId, Field, Nullable, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { REPORT_INTERVALS } from '../reports/schemas.js';
import { PROMPT_TYPES, SceneQueryReportEvent } from '../scene-queries/schemas.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';

const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const range = {
  startTimeMs: Type.Integer({ minimum: 0, description: 'inclusive' }),
  endTimeMs: Type.Integer({ minimum: 0, description: 'exclusive' }),
};

export const GetCustomEventsReportRequest = Type.Object({
  ...range,
  promptUuid: Opt(RefUuid('prompt', { notFound: true })),
  deviceFacetUuids: Opt(NotRef('handler', Type.Array(Type.Union([FacetId(), Ruuid()]), { maxItems: 500 }))),
  locationUuid: Opt(RefUuid('location', { notFound: true })),
  extendedResponse: Opt(Type.Boolean({ description: 'also each answer’s check-condition result, the prompt as asked and the event uuid' })),
});
export type GetCustomEventsReportRequest = Static<typeof GetCustomEventsReportRequest>;
export const GetCustomEventsReportResponse = ResponseOf({
  timeSeriesDataPoints: Field(
    Type.Array(
      Type.Object({
        deviceFacetUuid: Field(FacetId()),
        promptUuid: Field(Ruuid()),
        promptType: Field(StringEnum(PROMPT_TYPES)),
        events: Field(Type.Array(SceneQueryReportEvent)),
      }),
    ),
  ),
});

export const GetCustomEventsCountsRequest = Type.Object({
  ...range,
  promptUuid: RefUuid('prompt', { notFound: true }),
  interval: Opt(StringEnum(REPORT_INTERVALS, 'buckets on the wall clock of the time zone; absent: one bucket for the whole range')),
  timeZone: Opt(Type.String({ maxLength: 64, description: "IANA time zone of the buckets; default each camera's location's, else UTC (Gatehouse addition)" })),
});
export type GetCustomEventsCountsRequest = Static<typeof GetCustomEventsCountsRequest>;

const bucket = {
  timestampMs: Field(EpochMs('the start of the bucket')),
  utcDate: Field(Type.String()),
  localDate: Field(Type.String({ description: 'the start of the bucket on the wall clock of its time zone' })),
  eventCount: Field(Type.Integer()),
  minValueTimestampMs: Field(EpochMs('when the lowest answer of the bucket was first given')),
  maxValueTimestampMs: Field(EpochMs('when the highest answer of the bucket was first given')),
};
export const BinaryAggregationValue = Type.Object({ ...bucket, true: Field(Type.Integer()), false: Field(Type.Integer()) });
export const NumericAggregationValue = Type.Object({
  ...bucket,
  sum: Field(Type.Number()),
  min: Field(Type.Number()),
  max: Field(Type.Number()),
  average: Field(Type.Number()),
});
const byCamera = (value: TSchema) => Field(Type.Record(Type.String(), Type.Array(value), { description: 'the buckets of each camera, by facet id' }));
export const GetCustomEventsBinaryCountsResponse = ResponseOf({ reports: byCamera(BinaryAggregationValue) });
export const GetCustomEventsNumericCountsResponse = ResponseOf({ reports: byCamera(NumericAggregationValue) });

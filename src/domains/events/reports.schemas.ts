import { Type, type Static, type TSchema } from 'typebox';
import { EpochMs, FacetId, Field, Nullable, ResponseOf, Ruuid } from '../../schemas/common.js';
import { StringEnum } from './alerts.schemas.js';
import { CROSSING_OBJECTS } from './tables.js';

const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** The catalogue's crossing objects: every one is accepted; those Gatehouse's cameras never count answer empty buckets. */
export const REPORT_CROSSING_OBJECTS = [...CROSSING_OBJECTS, 'LPR', 'POSE', 'CLIP_EMBED', 'UNKNOWN'] as const;
export const REPORT_BUCKET_SIZES = ['QUARTER_HOUR', 'HOUR', 'DAY', 'WEEK', 'MONTH'] as const;
export const REPORT_INTERVALS = ['MINUTELY', 'QUARTERHOURLY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY'] as const;

/** A camera as reports name it: a device facet id (`<uuid>.v0`) or its plain RUUID. */
const DeviceRef = Type.Union([FacetId(), Ruuid()]);

const crossingReportFields = {
  startTimeMs: EpochMs('start of the range (inclusive)'),
  endTimeMs: EpochMs('end of the range (exclusive); equal to startTimeMs for an empty range, which has no buckets'),
  bucketSize: Opt(StringEnum(REPORT_BUCKET_SIZES, 'default HOUR; buckets are cut on the wall clock of timeZone (weeks start on Sunday)')),
  timeZone: Opt(Type.String({ maxLength: 64, description: 'IANA time zone for bucketing; default UTC' })),
  crossingObject: Opt(StringEnum(REPORT_CROSSING_OBJECTS, 'what crossed the line; default HUMAN. Cameras here count HUMAN, VEHICLE and FACE; the others answer empty buckets')),
  dedupe: Opt(Type.Boolean({ description: 'count a crossing that a camera reported more than once (same camera and timestamp) once' })),
};

export const GetBatchThresholdCrossingCountReportRequest = Type.Object({
  ...crossingReportFields,
  deviceUuids: Type.Array(DeviceRef, { minItems: 1, maxItems: 500, description: 'cameras whose crossings are added up' }),
});
export type GetBatchThresholdCrossingCountReportRequest = Static<typeof GetBatchThresholdCrossingCountReportRequest>;

export const GetThresholdCrossingCountReportForOrgRequest = Type.Object(crossingReportFields);
export type GetThresholdCrossingCountReportForOrgRequest = Static<typeof GetThresholdCrossingCountReportForOrgRequest>;

export const CrossingCounts = Type.Object({
  timestampMs: Field(EpochMs('start of the bucket')),
  ingressCount: Field(Type.Integer()),
  egressCount: Field(Type.Integer()),
});
export const ThresholdCrossingCountReportResponse = ResponseOf({ crossingCounts: Field(Type.Array(CrossingCounts)) });

export const GetOccupancyCountsV2Request = Type.Object({
  deviceUuid: DeviceRef,
  startTimeMs: EpochMs('start of the range (inclusive)'),
  endTimeMs: EpochMs('end of the range (exclusive)'),
  interval: Opt(StringEnum(REPORT_INTERVALS, 'sub-intervals, cut in the time zone of the camera\'s location; absent: one count for the whole range')),
});
export type GetOccupancyCountsV2Request = Static<typeof GetOccupancyCountsV2Request>;

export const TimeSeriesDataPoint = Type.Object({
  timestampMs: Field(EpochMs('start of the interval')),
  dateUtc: Field(Type.String()),
  dateLocal: Field(Type.String({ description: 'start of the interval on the wall clock of the camera\'s location' })),
  eventCountMap: Field(
    Type.Record(Type.String(), Type.Integer(), {
      description: 'OCCUPANCY: the highest occupancy in the interval (people in minus people out since local midnight, never below 0); INGRESS and EGRESS: crossings in the interval',
    }),
  ),
  approximateTimestampMsMap: Field(Type.Record(Type.String(), Type.Integer(), { description: 'OCCUPANCY: when the highest occupancy was reached' })),
  reportingDevicesMap: Field(Type.Record(Type.String(), Type.Array(FacetId()))),
});
export type TimeSeriesDataPoint = Static<typeof TimeSeriesDataPoint>;
export const GetOccupancyCountsV2Response = ResponseOf({ timeSeriesDataPoints: Field(Type.Array(TimeSeriesDataPoint)) });

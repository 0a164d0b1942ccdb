import { Type, type Static, type TSchema } from 'typebox';
import { Alias, EpochMs, FacetId, Field, Nullable, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { CROSSING_OBJECTS } from '../tables.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';

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
  crossingObject: Opt(
    StringEnum(REPORT_CROSSING_OBJECTS, 'what crossed the line; default HUMAN. Cameras here count HUMAN, VEHICLE and FACE; the others answer empty buckets'),
  ),
  dedupe: Opt(Type.Boolean({ description: 'count a crossing that a camera reported more than once (same camera and timestamp) once' })),
};

export const GetBatchThresholdCrossingCountReportRequest = Type.Object({
  ...crossingReportFields,
  deviceUuids: NotRef('handler', Type.Array(DeviceRef, { minItems: 1, maxItems: 500, description: 'cameras whose crossings are added up' })),
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
  deviceUuid: NotRef('handler', DeviceRef),
  startTimeMs: EpochMs('start of the range (inclusive)'),
  endTimeMs: EpochMs('end of the range (exclusive)'),
  interval: Opt(StringEnum(REPORT_INTERVALS, "sub-intervals, cut in the time zone of the camera's location; absent: one count for the whole range")),
});
export type GetOccupancyCountsV2Request = Static<typeof GetOccupancyCountsV2Request>;

export const TimeSeriesDataPoint = Type.Object({
  timestampMs: Field(EpochMs('start of the interval')),
  dateUtc: Field(Type.String()),
  dateLocal: Field(Type.String({ description: "start of the interval on the wall clock of the camera's location" })),
  eventCountMap: Field(
    Type.Record(Type.String(), Type.Integer(), {
      description:
        'OCCUPANCY: the highest occupancy in the interval (people in minus people out since local midnight, never below 0); INGRESS and EGRESS: crossings in the interval',
    }),
  ),
  approximateTimestampMsMap: Field(Type.Record(Type.String(), Type.Integer(), { description: 'OCCUPANCY: when the highest occupancy was reached' })),
  reportingDevicesMap: Field(Type.Record(Type.String(), Type.Array(FacetId()))),
});
export type TimeSeriesDataPoint = Static<typeof TimeSeriesDataPoint>;
export const GetOccupancyCountsV2Response = ResponseOf({ timeSeriesDataPoints: Field(Type.Array(TimeSeriesDataPoint)) });

export const GetThresholdCrossingCountReportRequest = Type.Object({ ...crossingReportFields, deviceUuid: NotRef('handler', DeviceRef) });
export type GetThresholdCrossingCountReportRequest = Static<typeof GetThresholdCrossingCountReportRequest>;

export const CROSSING_DIRECTIONS = ['INGRESS', 'EGRESS'] as const;
export const MinimalThresholdEvent = Type.Object({
  crossingObject: Field(StringEnum(CROSSING_OBJECTS)),
  direction: Field(StringEnum(CROSSING_DIRECTIONS)),
  timestampMs: Field(EpochMs()),
});
export type MinimalThresholdEvent = Static<typeof MinimalThresholdEvent>;

/** The most crossing events getThresholdCrossingEvents answers at once; the per-device operation pages. */
export const CROSSING_EVENTS_MAX = 10_000;
export const GetThresholdCrossingEventsRequest = Type.Object({
  crossingObject: Opt(StringEnum(CROSSING_OBJECTS, 'default HUMAN')),
  devices: NotRef('handler', Alias(Type.Array(Ruuid(), { minItems: 1, maxItems: 500 }), ['deviceUuid', 'deviceUuids'])),
  startTimeMs: EpochMs('start of the range (inclusive)'),
  endTimeMs: EpochMs('end of the range (exclusive)'),
});
export type GetThresholdCrossingEventsRequest = Static<typeof GetThresholdCrossingEventsRequest>;
export const GetThresholdCrossingEventsResponse = ResponseOf({
  deviceToThresholdCrossingEventMap: Field(
    Type.Record(Type.String(), Type.Array(MinimalThresholdEvent), { description: 'by camera uuid: one event per object that crossed, oldest first' }),
  ),
});

export const CROSSING_EVENT_PAGE = { default: 100, maximum: 1000 } as const;
export const GetThresholdCrossingEventsForDeviceRequest = Type.Object({
  crossingObject: Opt(StringEnum(CROSSING_OBJECTS, 'default HUMAN')),
  deviceUuid: NotRef('handler', DeviceRef),
  startTimeMs: EpochMs('start of the range (inclusive)'),
  endTimeMs: EpochMs('end of the range (exclusive)'),
  lastEvaluatedKey: Opt(Type.String({ maxLength: 100, description: 'the lastEvaluatedKey of the previous page' })),
  maxPageSize: Opt(
    Type.Integer({
      minimum: 1,
      maximum: CROSSING_EVENT_PAGE.maximum,
      description: `default ${CROSSING_EVENT_PAGE.default}, maximum ${CROSSING_EVENT_PAGE.maximum}`,
    }),
  ),
});
export type GetThresholdCrossingEventsForDeviceRequest = Static<typeof GetThresholdCrossingEventsForDeviceRequest>;
export const GetThresholdCrossingEventsForDeviceResponse = ResponseOf({
  thresholdCrossingEvents: Field(Type.Array(MinimalThresholdEvent)),
  lastEvaluatedKey: Field(Type.String({ description: 'the cursor of the next page; null on the last page' })),
});

export const REPORT_SCOPES = ['REGION', 'DEVICE', 'LOCATION', 'ORG'] as const;
/** What scope REGION counts, for the scope fields' descriptions. */
export const REGION_SCOPE =
  "REGION: uuid is a region of interest of a camera (its settings' region_of_interest_groups), counting the PEOPLE, FACES and VEHICLES seen inside its polygon";
export const REPORT_TYPES = ['CROWD', 'PEOPLE', 'FACES', 'MOTION', 'BANDWIDTH', 'VEHICLES', 'LICENSEPLATES', 'ALERTS', 'AM_VERIFICATION', 'DWELL'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
/** The report types Gatehouse computes from what it records; the others are refused. */
/** CROWD: the crowd alerts (PEOPLECOUNT_HIGH) the organization's policies raised. */
export const COUNTED_TYPES = ['PEOPLE', 'FACES', 'VEHICLES', 'ALERTS', 'CROWD'] as const;

const countRange = {
  // The deprecated startDate / endDate (ISO 8601 strings) are read as these when these are absent.
  startTimeMs: Alias(Type.Integer({ minimum: 0, description: 'start of the range (inclusive)' }), [], ['startDate']),
  endTimeMs: Alias(Type.Integer({ minimum: 0, description: 'end of the range (exclusive)' }), [], ['endDate']),
  interval: StringEnum(REPORT_INTERVALS, 'buckets, cut on the wall clock of the time zone'),
};

export const GetCountReportV2Request = Type.Object({
  ...countRange,
  // The catalogue has this operation's range optional (issue 34): absent, the day up to now.
  startTimeMs: Opt(countRange.startTimeMs),
  endTimeMs: Opt(countRange.endTimeMs),
  scope: StringEnum(REPORT_SCOPES, `DEVICE: uuid is a camera; LOCATION: uuid is a location; ${REGION_SCOPE}; ORG: the whole organization`),
  types: Type.Array(StringEnum(REPORT_TYPES), { minItems: 1, uniqueItems: true, description: `counted: ${COUNTED_TYPES.join(', ')}` }),
  uuid: Opt(NotRef('subject', Ruuid())),
  timeZone: Opt(Type.String({ maxLength: 64, description: "IANA time zone; default the location's (DEVICE, LOCATION) or UTC" })),
  startDate: Opt(Type.String({ deprecated: true })),
  endDate: Opt(Type.String({ deprecated: true })),
});
export type GetCountReportV2Request = Static<typeof GetCountReportV2Request>;

export const CountDataPoint = Type.Object({
  dateLocal: Field(Type.String()),
  dateUtc: Field(Type.String()),
  eventCountMap: Field(
    Type.Record(Type.String(), Type.Integer(), { description: 'by report type: PEOPLE, FACES and VEHICLES count line crossings in, ALERTS policy alerts' }),
  ),
  reportingDevicesMap: Field(Type.Record(Type.String(), Type.Array(FacetId()), { description: 'by report type: the devices that counted in the bucket' })),
});
export type CountDataPoint = Static<typeof CountDataPoint>;
export const GetCountReportV2Response = ResponseOf({ timeSeriesDataPoints: Field(Type.Array(CountDataPoint)) });

export const GetCountReportsForDevicesAtLocationRequest = Type.Object({
  ...countRange,
  locationUuid: RefUuid('location', { notFound: true }),
  type: StringEnum(REPORT_TYPES),
});
export type GetCountReportsForDevicesAtLocationRequest = Static<typeof GetCountReportsForDevicesAtLocationRequest>;
export const GetCountReportsResponse = ResponseOf({
  timeSeriesDataPointsMap: Field(Type.Record(Type.String(), Type.Array(CountDataPoint), { description: 'by device facet id: every device of the location' })),
});

export const ExportCountReportsRequest = Type.Object({
  ...countRange,
  scope: StringEnum(REPORT_SCOPES),
  type: StringEnum(REPORT_TYPES),
  uuidList: Opt(
    NotRef(
      'handler',
      Type.Array(Type.Union([FacetId(), Ruuid()]), {
        maxItems: 500,
        description: 'DEVICE: cameras; LOCATION: locations; REGION: regions of interest of cameras; ORG: ignored',
      }),
    ),
  ),
  timeZone: Opt(Type.String({ maxLength: 64 })),
  startDate: Opt(Type.String({ deprecated: true })),
  endDate: Opt(Type.String({ deprecated: true })),
});
export type ExportCountReportsRequest = Static<typeof ExportCountReportsRequest>;

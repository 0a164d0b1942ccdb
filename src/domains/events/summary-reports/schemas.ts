import { Type, type Static, type TSchema } from 'typebox';
import { Alias, EpochMs, FacetId, Field, Nullable, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { CountDataPoint, REPORT_CROSSING_OBJECTS, REPORT_INTERVALS, REGION_SCOPE, REPORT_SCOPES, REPORT_TYPES } from '../reports/schemas.js';
import { NotRef } from '../../../schemas/record-kinds.js';

const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

const timeRange = {
  startTimeMs: Opt(Type.Integer({ minimum: 0, description: 'start of the range (inclusive); required' })),
  endTimeMs: Opt(Type.Integer({ minimum: 0, description: 'end of the range (exclusive); required' })),
  timeZone: Opt(Type.String({ maxLength: 64, description: 'IANA time zone the buckets are cut in; default UTC' })),
  startDate: Opt(Type.String({ deprecated: true })),
  endDate: Opt(Type.String({ deprecated: true })),
};

export const GetThresholdCrossingCountsRequest = Type.Object({
  crossingObject: Opt(StringEnum(REPORT_CROSSING_OBJECTS, 'default HUMAN')),
  dailyResetTimeMinute: Opt(
    Type.Integer({ minimum: 0, maximum: 1439, description: 'minute of the UTC day at which the running count starts again from zero; default 0' }),
  ),
  devices: Opt(NotRef('handler', Type.Array(Ruuid(), { maxItems: 500, description: 'cameras whose crossings are counted; absent or empty: every camera' }))),
  startTimeMs: Opt(Type.Integer({ minimum: 0, description: 'start of the range (inclusive); required' })),
  endTimeMs: Opt(Type.Integer({ minimum: 0, description: 'end of the range (exclusive); required' })),
});
export type GetThresholdCrossingCountsRequest = Static<typeof GetThresholdCrossingCountsRequest>;
export const ThresholdCrossingCount = Type.Object({
  count: Field(Type.Integer({ description: 'people in minus people out since the last daily reset, never below zero' })),
  timestampMs: Field(EpochMs('when a crossing changed the count')),
});
export const GetThresholdCrossingCountsResponse = ResponseOf({ counts: Field(Type.Array(ThresholdCrossingCount)) });

export const GetCountReportRequest = Type.Object({
  scope: StringEnum(REPORT_SCOPES, `DEVICE: uuid is a device; LOCATION: uuid is a location; ${REGION_SCOPE}; ORG: the whole organization`),
  type: StringEnum(REPORT_TYPES),
  uuid: Opt(NotRef('subject', Ruuid())),
  interval: StringEnum(REPORT_INTERVALS),
  startDate: Opt(Type.String({ maxLength: 40, description: 'ISO 8601 instant or date (UTC), start of the range (inclusive); required' })),
  endDate: Opt(Type.String({ maxLength: 40, description: 'ISO 8601 instant or date (UTC), end of the range (exclusive); required' })),
});
export type GetCountReportRequest = Static<typeof GetCountReportRequest>;

export const GetCountReportsRequest = Type.Object({
  ...timeRange,
  scope: StringEnum(
    REPORT_SCOPES,
    'DEVICE: one series per device; LOCATION: one per location; REGION: one per region of interest of a camera; ORG: one for the organization',
  ),
  type: StringEnum(REPORT_TYPES),
  interval: StringEnum(REPORT_INTERVALS),
});
export type GetCountReportsRequest = Static<typeof GetCountReportsRequest>;
export const GetCountReportsByScopeResponse = ResponseOf({
  timeSeriesDataPointsMap: Field(
    Type.Record(Type.String(), Type.Array(CountDataPoint), {
      description: 'by device facet id (DEVICE), location uuid (LOCATION), region uuid (REGION) or organization uuid (ORG)',
    }),
  ),
});

export const EventCount = Type.Object({
  count: Field(Type.Number()),
  uuid: Field(Ruuid({ description: 'the device, location or region that reached the count; null for an average' })),
});
export const SummaryCountDataPoint = Type.Object({
  dateLocal: Field(Type.String()),
  dateUtc: Field(Type.String()),
  avgEventCountMap: Field(Type.Record(Type.String(), EventCount, { description: 'by report type: the mean count over the members of the scope' })),
  maxEventCountMap: Field(Type.Record(Type.String(), EventCount, { description: 'by report type: the member with the highest count' })),
  minEventCountMap: Field(Type.Record(Type.String(), EventCount, { description: 'by report type: the member with the lowest count' })),
  reportingDevicesMap: Field(Type.Record(Type.String(), Type.Array(FacetId()))),
});
export type SummaryCountDataPoint = Static<typeof SummaryCountDataPoint>;
export const GetSummaryCountReportResponse = ResponseOf({ timeSeriesDataPoints: Field(Type.Array(SummaryCountDataPoint)) });

export const MOST_RECENT_MAX = 1000;
export const GetMostRecentPeopleCountRequest = Type.Object({
  deviceUuid: NotRef('handler', Alias(Type.Union([FacetId(), Ruuid()]), ['deviceUuids'])),
  numMostRecent: Opt(Type.Integer({ minimum: 1, maximum: MOST_RECENT_MAX, description: `default 10, maximum ${MOST_RECENT_MAX}` })),
});
export type GetMostRecentPeopleCountRequest = Static<typeof GetMostRecentPeopleCountRequest>;
export const PeopleCountEvent = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  deviceUuid: Field(FacetId()),
  locationUuid: Field(Ruuid()),
  eventTimestamp: Field(EpochMs()),
  peopleCount: Field(Type.Integer({ description: 'the people the camera counted crossing its line (in and out)' })),
});
export type PeopleCountEvent = Static<typeof PeopleCountEvent>;
export const GetMostRecentPeopleCountResponse = ResponseOf({ events: Field(Type.Array(PeopleCountEvent)) });

export const GetRunningAverageRequest = Type.Object({
  ...timeRange,
  scope: StringEnum(REPORT_SCOPES, 'DEVICE, LOCATION, REGION or ORG'),
  uuid: Opt(NotRef('subject', Ruuid())),
  interval: StringEnum(REPORT_INTERVALS),
});
export type GetRunningAverageRequest = Static<typeof GetRunningAverageRequest>;
export const Stats = Type.Object({ avg: Field(Type.Number()), stddev: Field(Type.Number()) });
export const StatsDataPoint = Type.Object({
  date: Field(Type.String({ description: 'start of the interval on the wall clock of the time zone' })),
  stats: Field(
    Type.Record(Type.String(), Stats, {
      description: 'PEOPLE: mean and standard deviation of the people counted in per interval, from the last reset (or the range start) to this interval',
    }),
  ),
});
export type StatsDataPoint = Static<typeof StatsDataPoint>;
export const GetRunningAverageResponse = ResponseOf({ statsDataPoints: Field(Type.Array(StatsDataPoint)) });

export const ResetRunningAverageRequest = Type.Object({ scope: StringEnum(REPORT_SCOPES), uuid: Opt(NotRef('subject', Ruuid())) });
export type ResetRunningAverageRequest = Static<typeof ResetRunningAverageRequest>;

export const GetLicensePlatesByDeviceRequest = Type.Object({
  deviceUuid: NotRef('handler', Type.Union([FacetId(), Ruuid()])),
  interval: StringEnum(REPORT_INTERVALS, "the interval that holds timestampMs, cut in the time zone of the camera's location"),
  // Bounded to year 9999: the interval around it is cut with calendar arithmetic, which a later date breaks.
  timestampMs: Opt(Type.Integer({ minimum: 0, maximum: 253_402_300_799_999, description: 'an instant inside the interval; required' })),
  dateLocal: Opt(Type.String({ deprecated: true })),
});
export type GetLicensePlatesByDeviceRequest = Static<typeof GetLicensePlatesByDeviceRequest>;

export const GetDiagnosticFeedRequest = Type.Object({
  timestampMsAfter: Alias(Opt(Type.Integer({ minimum: 0, description: 'start of the range (inclusive)' })), ['startTimeMs']),
  timestampMsBefore: Alias(Opt(Type.Integer({ minimum: 0, description: 'end of the range (exclusive)' })), ['endTimeMs']),
});
export type GetDiagnosticFeedRequest = Static<typeof GetDiagnosticFeedRequest>;
export const DiagnosticEvent = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  deviceUuid: Field(Ruuid()),
  deviceName: Field(Type.String()),
  deviceType: Field(Type.String()),
  firmwareVersion: Field(Type.String()),
  activity: Field(
    Type.String({ description: 'online and offline by kind of device (CAMERA_CONNECTED, DOOR_OFFLINE, ...) or a low battery (CLIMATE_LOW_BATTERY, ...)' }),
  ),
  timestamp: Field(Type.String({ format: 'date-time' })),
});
export const GetDiagnosticFeedResponse = ResponseOf({ diagnosticEvents: Field(Type.Array(DiagnosticEvent)) });

export const GetProximityTagLocationsByDateRequest = Type.Object({
  tagUuid: NotRef('handler', Ruuid()),
  startTimeMs: Opt(Type.Integer({ minimum: 0, description: 'start of the range (inclusive); required' })),
  endTimeMs: Opt(Type.Integer({ minimum: 0, description: 'end of the range (exclusive); required' })),
  startDateStr: Opt(Type.String({ deprecated: true })),
  endDateStr: Opt(Type.String({ deprecated: true })),
});
export type GetProximityTagLocationsByDateRequest = Static<typeof GetProximityTagLocationsByDateRequest>;
export const ProximityTagDataPoint = Type.Object({
  dateLocal: Field(Type.String({ description: "the day (YYYY-MM-DD) on the wall clock of the tag's location" })),
  tagUuid: Field(Ruuid()),
  uuid: Field(Ruuid({ description: 'the location the tag reported from that day' })),
});
export type ProximityTagDataPoint = Static<typeof ProximityTagDataPoint>;
export const GetProximityTagLocationsByDateResponse = ResponseOf({ dataPoints: Field(Type.Array(ProximityTagDataPoint)) });

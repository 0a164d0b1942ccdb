import { Type } from 'typebox';
import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { EnvelopeResponse } from '../../../schemas/common.js';
import { GetCountReportV2Response } from '../reports/schemas.js';
import { ResponseOf, Field } from '../../../schemas/common.js';
import { VehicleEvent } from '../vehicles/schemas.js';
import * as diagnostics from '../reports/diagnostics.service.js';
import * as runningAverage from '../reports/running-average.service.js';
import {
  GetCountReportRequest,
  GetCountReportsByScopeResponse,
  GetCountReportsRequest,
  GetDiagnosticFeedRequest,
  GetDiagnosticFeedResponse,
  GetLicensePlatesByDeviceRequest,
  GetMostRecentPeopleCountRequest,
  GetProximityTagLocationsByDateRequest,
  GetProximityTagLocationsByDateResponse,
  GetMostRecentPeopleCountResponse,
  GetRunningAverageRequest,
  GetRunningAverageResponse,
  GetSummaryCountReportResponse,
  GetThresholdCrossingCountsRequest,
  GetThresholdCrossingCountsResponse,
  ResetRunningAverageRequest,
} from './schemas.js';
import * as summary from './service.js';
import * as tagLocations from '../reports/tag-locations.service.js';

const tags = ['Report'];

/** The V1 count report, the per-member and summary count reports, running counts and averages. */
export function summaryReportRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/report/getThresholdCrossingCounts',
      operationId: 'getThresholdCrossingCounts',
      summary: 'Get running threshold crossing counts',
      description: 'The running count (in minus out, from zero at the daily reset minute) at each crossing of the range.',
      tags,
      body: GetThresholdCrossingCountsRequest,
      response: GetThresholdCrossingCountsResponse,
    },
    async (input, ctx) => ({ counts: await summary.getThresholdCrossingCounts(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/report/getCountReport',
      operationId: 'getCountReport',
      summary: 'Get count report (V1)',
      description: "One type per interval over [startDate, endDate), cut in the location's time zone (or UTC).",
      tags,
      body: GetCountReportRequest,
      response: GetCountReportV2Response,
    },
    async (input, ctx) => ({ timeSeriesDataPoints: await summary.getCountReportV1(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/report/getCountReports',
      operationId: 'getCountReports',
      summary: 'Get count reports for every member of a scope',
      tags,
      body: GetCountReportsRequest,
      response: GetCountReportsByScopeResponse,
    },
    async (input, ctx) => ({ timeSeriesDataPointsMap: await summary.getCountReports(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/report/getSummaryCountReport',
      operationId: 'getSummaryCountReport',
      summary: 'Get summary count report',
      description: 'Per interval, the lowest, highest and mean count over the devices (DEVICE) or locations (LOCATION) of the organization.',
      tags,
      body: GetCountReportsRequest,
      response: GetSummaryCountReportResponse,
    },
    async (input, ctx) => ({ timeSeriesDataPoints: await summary.getSummaryCountReport(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/report/getMostRecentPeopleCountEvents',
      operationId: 'getMostRecentPeopleCountEvents',
      summary: "Get a camera's most recent people counts",
      tags,
      body: GetMostRecentPeopleCountRequest,
      response: GetMostRecentPeopleCountResponse,
    },
    async (input, ctx) => ({ events: await summary.getMostRecentPeopleCountEvents(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/report/getRunningAverage',
      operationId: 'getRunningAverage',
      summary: 'Get running average of people counts',
      tags,
      body: GetRunningAverageRequest,
      response: GetRunningAverageResponse,
    },
    async (input, ctx) => ({ statsDataPoints: await runningAverage.getRunningAverage(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/report/resetRunningAverage',
      operationId: 'resetRunningAverage',
      summary: 'Reset a running average',
      description: 'The running average of the scope starts again from now.',
      tags,
      body: ResetRunningAverageRequest,
      response: EnvelopeResponse,
    },
    async (input, ctx) => {
      await runningAverage.resetRunningAverage(deps, ctx, input);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/report/getLicensePlatesByDevice',
      operationId: 'getLicensePlatesByDevice',
      summary: "Get a camera's licence plate reads in an interval",
      description: "The reads, newest first, of the interval (on the wall clock of the camera's location) that holds timestampMs; at most 1000.",
      tags,
      body: GetLicensePlatesByDeviceRequest,
      response: ResponseOf({ licensePlateEvents: Field(Type.Array(VehicleEvent)) }),
    },
    async (input, ctx) => ({ licensePlateEvents: await summary.getLicensePlatesByDevice(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/report/getDiagnosticFeed',
      operationId: 'getDiagnosticFeed',
      summary: 'Get the diagnostic feed of the devices',
      description: `Devices going online or offline and sensors reporting a low battery (at most ${diagnostics.LOW_BATTERY_PERCENT}%), newest first; at most ${diagnostics.DIAGNOSTIC_MAX}.`,
      tags,
      body: GetDiagnosticFeedRequest,
      response: GetDiagnosticFeedResponse,
    },
    async (input, ctx) => ({
      diagnosticEvents: await diagnostics.diagnosticEvents(deps, ctx, { afterMs: input.timestampMsAfter, beforeMs: input.timestampMsBefore }),
    }),
  );
  operation(
    app,
    {
      path: '/api/report/getProximityTagLocationsByDate',
      operationId: 'getProximityTagLocationsByDate',
      summary: 'Get the locations of a proximity tag by day',
      description: "Per day of the range (on the wall clock of the tag's location), each location the tag reported from.",
      tags,
      body: GetProximityTagLocationsByDateRequest,
      response: GetProximityTagLocationsByDateResponse,
    },
    async (input, ctx) => ({ dataPoints: await tagLocations.getProximityTagLocationsByDate(deps, ctx, input) }),
  );
}

import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as counts from './count-reports.service.js';
import { exportOperation } from '../exports/csv-export.js';
import * as crossingEvents from './crossing-events.service.js';
import {
  ExportCountReportsRequest,
  GetCountReportsForDevicesAtLocationRequest,
  GetCountReportsResponse,
  GetCountReportV2Request,
  GetCountReportV2Response,
  GetOccupancyCountsV2Request,
  GetOccupancyCountsV2Response,
  GetThresholdCrossingCountReportRequest,
  GetThresholdCrossingEventsForDeviceRequest,
  GetThresholdCrossingEventsForDeviceResponse,
  GetThresholdCrossingEventsRequest,
  GetThresholdCrossingEventsResponse,
  ThresholdCrossingCountReportResponse,
} from './schemas.js';
import * as reports from './service.js';

const tags = ['Report'];

/** The report family beyond the batch and org crossing reports (reports.routes.ts), and the CSV export of count reports. */
export function countReportRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/report/getOccupancyCounts',
      operationId: 'getOccupancyCounts',
      summary: 'Get occupancy counts',
      description: 'The same report as getOccupancyCountsV2.',
      tags,
      body: GetOccupancyCountsV2Request,
      response: GetOccupancyCountsV2Response,
    },
    async (input, ctx) => ({ timeSeriesDataPoints: await reports.getOccupancyCounts(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/report/getThresholdCrossingCountReport',
      operationId: 'getThresholdCrossingCountReport',
      summary: 'Get threshold crossing count report for a camera',
      description: 'Ingress and egress per bucket; every bucket of the range is present.',
      tags,
      body: GetThresholdCrossingCountReportRequest,
      response: ThresholdCrossingCountReportResponse,
    },
    async (input, ctx) => ({ crossingCounts: await reports.getDeviceCrossingCounts(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/report/getThresholdCrossingEvents',
      operationId: 'getThresholdCrossingEvents',
      summary: 'Get threshold crossing events for cameras',
      description: 'One event per object that crossed, oldest first, by camera uuid; at most 10,000 in all.',
      tags,
      body: GetThresholdCrossingEventsRequest,
      response: GetThresholdCrossingEventsResponse,
    },
    async (input, ctx) => ({ deviceToThresholdCrossingEventMap: await crossingEvents.getCrossingEvents(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/report/getThresholdCrossingEventsForDevice',
      operationId: 'getThresholdCrossingEventsForDevice',
      summary: 'Get threshold crossing events for a camera, a page at a time',
      tags,
      body: GetThresholdCrossingEventsForDeviceRequest,
      response: GetThresholdCrossingEventsForDeviceResponse,
    },
    async (input, ctx) => crossingEvents.getDeviceCrossingEvents(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/report/getCountReportV2',
      operationId: 'getCountReportV2',
      summary: 'Get count report',
      description:
        "PEOPLE, FACES and VEHICLES count line crossings in, ALERTS policy alerts, per interval on the wall clock of timeZone (default: the location's, or UTC).",
      tags,
      body: GetCountReportV2Request,
      response: GetCountReportV2Response,
    },
    async (input, ctx) => ({ timeSeriesDataPoints: await counts.getCountReport(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/report/getCountReportsForDevicesAtLocation',
      operationId: 'getCountReportsForDevicesAtLocation',
      summary: 'Get count reports for each device at a location',
      description: "One series per device of the location (its cameras for PEOPLE, FACES and VEHICLES), cut in the location's time zone.",
      tags,
      body: GetCountReportsForDevicesAtLocationRequest,
      response: GetCountReportsResponse,
    },
    async (input, ctx) => ({ timeSeriesDataPointsMap: await counts.getCountReportsForDevicesAtLocation(deps, ctx, input) }),
  );
  exportOperation(app, deps, {
    path: '/api/export/countReports',
    operationId: 'exportCountReports',
    summary: 'Export count reports as CSV',
    body: ExportCountReportsRequest,
    columns: counts.COUNT_REPORT_COLUMNS,
    read: counts.exportCountReports,
  });
}

import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import {
  GetBatchThresholdCrossingCountReportRequest,
  GetOccupancyCountsV2Request,
  GetOccupancyCountsV2Response,
  GetThresholdCrossingCountReportForOrgRequest,
  ThresholdCrossingCountReportResponse,
} from './schemas.js';
import * as reports from './service.js';

const tags = ['Report'];

export function reportRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/report/getOccupancyCountsV2',
      operationId: 'getOccupancyCountsV2',
      summary: 'Get occupancy counts V2',
      description: "Occupancy of a camera's area from its line crossings of people, per interval (or one count for the whole range).",
      tags,
      body: GetOccupancyCountsV2Request,
      response: GetOccupancyCountsV2Response,
    },
    async (input, ctx) => ({ timeSeriesDataPoints: await reports.getOccupancyCounts(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/report/getBatchThresholdCrossingCountReport',
      operationId: 'getBatchThresholdCrossingCountReport',
      summary: 'Get batch threshold crossing count report',
      description: 'Ingress and egress per bucket, added up over the cameras; every bucket of the range is present.',
      tags,
      body: GetBatchThresholdCrossingCountReportRequest,
      response: ThresholdCrossingCountReportResponse,
    },
    async (input, ctx) => ({ crossingCounts: await reports.getBatchCrossingCounts(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/report/getThresholdCrossingCountReportForOrg',
      operationId: 'getThresholdCrossingCountReportForOrg',
      summary: 'Get org wide threshold crossing count report',
      description: 'Ingress and egress per bucket, added up over every camera of the organization; every bucket of the range is present.',
      tags,
      body: GetThresholdCrossingCountReportForOrgRequest,
      response: ThresholdCrossingCountReportResponse,
    },
    async (input, ctx) => ({ crossingCounts: await reports.getOrgCrossingCounts(deps, ctx, input) }),
  );
}

import type { Deps } from '../../deps.js';
import type { ApiApp } from '../../edge/operation.js';
import { alertFeedRoutes } from './alerts/alert-feed.routes.js';
import { alertRoutes } from './alerts/routes.js';
import { clipGroupRoutes } from './clip-groups/routes.js';
import { clipRoutes } from './clips/routes.js';
import { countReportRoutes } from './reports/count-reports.routes.js';
import { exportRoutes } from './exports/routes.js';
import { reportRoutes } from './reports/routes.js';
import { sceneQueryRoutes } from './scene-queries/routes.js';
import { sharedClipGroupRoutes } from './shared-clip-groups/routes.js';
import { spliceRoutes } from './splices/routes.js';
import { summaryReportRoutes } from './summary-reports/routes.js';
import { timelapseRoutes } from './timelapses/routes.js';
import { vehicleRoutes } from './vehicles/routes.js';

/** The events domain's operations: policy alerts, saved clips, splices, timelapses, clip groups, shared clip groups and people-counting reports. */
export function eventRoutes(app: ApiApp, deps: Deps): void {
  alertRoutes(app, deps);
  alertFeedRoutes(app, deps);
  clipRoutes(app, deps);
  spliceRoutes(app, deps);
  sharedClipGroupRoutes(app, deps);
  clipGroupRoutes(app, deps);
  reportRoutes(app, deps);
  countReportRoutes(app, deps);
  summaryReportRoutes(app, deps);
  exportRoutes(app, deps);
  vehicleRoutes(app, deps);
  sceneQueryRoutes(app, deps);
  timelapseRoutes(app, deps);
}

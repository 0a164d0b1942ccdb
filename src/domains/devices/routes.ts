import type { Deps } from '../../deps.js';
import type { ApiApp } from '../../edge/operation.js';
import { cameraDetailRoutes } from './cameras/camera-details.routes.js';
import { cameraFleetRoutes } from './cameras/camera-fleet.routes.js';
import { cameraMediaRoutes } from './media-uris/routes.js';
import { cameraRoutes } from './cameras/routes.js';
import { deviceReadRoutes } from './device-reads/routes.js';
import { deviceLifecycleRoutes } from './lifecycle/routes.js';
import { facetedConfigRoutes } from './cameras/faceted-config.routes.js';
import { elevatorLandingRoutes } from './elevators/routes.js';
import { footageBoxRoutes } from './cameras/footage-boxes.routes.js';
import { monitoringRoutes } from './monitoring/routes.js';
import { rawHttpStreamRoutes } from './live-shares/raw-http-streams.routes.js';
import { sensorRoutes } from './sensors/routes.js';
import { sharedLiveStreamRoutes } from './live-shares/routes.js';
import { videoWallRoutes } from './video-walls/routes.js';

/** The devices domain's operations, one plugin per sub-resource. */
export function deviceRoutes(app: ApiApp, deps: Deps): void {
  cameraRoutes(app, deps);
  cameraDetailRoutes(app, deps);
  cameraMediaRoutes(app, deps);
  cameraFleetRoutes(app, deps);
  facetedConfigRoutes(app, deps);
  footageBoxRoutes(app, deps);
  videoWallRoutes(app, deps);
  monitoringRoutes(app, deps);
  elevatorLandingRoutes(app, deps);
  sensorRoutes(app, deps);
  sharedLiveStreamRoutes(app, deps);
  rawHttpStreamRoutes(app, deps);
  deviceLifecycleRoutes(app, deps);
  deviceReadRoutes(app, deps);
}

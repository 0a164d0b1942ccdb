import type { Deps } from '../../deps.js';
import type { ApiApp } from '../../http/operation.js';
import { cameraDetailRoutes } from './camera-details.routes.js';
import { cameraFleetRoutes } from './camera-fleet.routes.js';
import { cameraMediaRoutes } from './camera-media.routes.js';
import { cameraRoutes } from './cameras.routes.js';
import { deviceReadRoutes } from './device-reads.routes.js';
import { deviceLifecycleRoutes } from './device-lifecycle.routes.js';
import { facetedConfigRoutes } from './faceted-config.routes.js';
import { elevatorLandingRoutes } from './elevator-landings.routes.js';
import { footageBoxRoutes } from './footage-boxes.routes.js';
import { monitoringRoutes } from './monitoring.routes.js';
import { rawHttpStreamRoutes } from './raw-http-streams.routes.js';
import { sensorRoutes } from './sensors.routes.js';
import { sharedLiveStreamRoutes } from './shared-live-streams.routes.js';
import { videoWallRoutes } from './video-walls.routes.js';

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

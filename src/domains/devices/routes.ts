import type { Deps } from '../../deps.js';
import type { ApiApp } from '../../http/operation.js';
import { cameraDetailRoutes } from './camera-details.routes.js';
import { cameraMediaRoutes } from './camera-media.routes.js';
import { cameraRoutes } from './cameras.routes.js';
import { elevatorLandingRoutes } from './elevator-landings.routes.js';
import { footageBoxRoutes } from './footage-boxes.routes.js';
import { monitoringRoutes } from './monitoring.routes.js';
import { sensorRoutes } from './sensors.routes.js';
import { videoWallRoutes } from './video-walls.routes.js';

/** The devices domain's operations, one plugin per sub-resource. */
export function deviceRoutes(app: ApiApp, deps: Deps): void {
  cameraRoutes(app, deps);
  cameraDetailRoutes(app, deps);
  cameraMediaRoutes(app, deps);
  footageBoxRoutes(app, deps);
  videoWallRoutes(app, deps);
  monitoringRoutes(app, deps);
  elevatorLandingRoutes(app, deps);
  sensorRoutes(app, deps);
}

import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { PresenceWindowsRequest, PresenceWindowsResponse } from '../../timeline/seekpoints.schemas.js';
import * as s from './sensor-timeline.schemas.js';
import * as timeline from './sensor-timeline.service.js';

/** The sensors' timeline reads: seekpoints of what they reported and presence windows of their active states. */
export function sensorTimelineRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/sensors/getFootageSensorSeekpointsForCamera',
      operationId: 'getSensorFootageSensorSeekpointsForCamera',
      summary: "The seekpoints of the sensors at a camera's location over a span, oldest first",
      tags: ['Sensors'],
      body: s.GetFootageSensorSeekpointsForCameraRequest,
      response: s.SensorSeekpointsResponse,
    },
    async (input, ctx) => ({ seekPoints: await timeline.getCameraSensorSeekpoints(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/sensors/getFootageSensorSeekpointsForLocation',
      operationId: 'getFootageSensorSeekpointsForLocation',
      summary: 'The seekpoints of the sensors at a location over a span, oldest first',
      tags: ['Sensors'],
      body: s.GetFootageSensorSeekpointsForLocationRequest,
      response: s.SensorSeekpointsResponse,
    },
    async (input, ctx) => ({ seekPoints: await timeline.getLocationSensorSeekpoints(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/sensors/getFootageSensorSeekpointsForSensor',
      operationId: 'getFootageSensorSeekpointsForSensor',
      summary: "A sensor's seekpoints over a span (door, occupancy, climate alert, tag movement, button press), oldest first",
      tags: ['Sensors'],
      body: s.GetFootageSensorSeekpointsForSensorRequest,
      response: s.GetFootageSensorSeekpointsForSensorResponse,
    },
    async (input, ctx) => timeline.getSensorSeekpoints(deps, ctx, input),
  );
  const presence = [
    ['/api/door/getDoorPresenceWindows', 'getDoorPresenceWindows', 'door', 'Door', 'the door sensor was open or ajar'],
    ['/api/climate/getClimatePresenceWindows', 'getClimatePresenceWindows', 'climate', 'Climate', 'the climate sensor was in alert'],
    ['/api/occupancy/getOccupancyPresenceWindows', 'getOccupancyPresenceWindows', 'occupancy', 'Occupancy', 'the room was occupied or saw movement'],
  ] as const;
  for (const [path, operationId, sensor, tag, when] of presence) {
    operation(
      app,
      {
        path,
        operationId,
        summary: `The windows of a span during which ${when}`,
        tags: [tag],
        body: PresenceWindowsRequest,
        response: PresenceWindowsResponse,
      },
      async (input, ctx) => ({ presenceWindows: await timeline.getSensorPresenceWindows(deps, ctx, sensor, input) }),
    );
  }
}

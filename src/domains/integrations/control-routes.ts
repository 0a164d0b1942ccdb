import { Type } from 'typebox';
import { systemActor } from '../../deps.js';
import { hidden, type ControlPlugin } from '../../edge/control-plugin.js';
import { Ruuid } from '../../schemas/common.js';
import { SMART_SENSOR_EVENT_TYPES, SmartSensorEventResponse } from './schemas.js';
import { receiveSmartSensorEvent } from './smart-sensor-events.service.js';

const SmartSensorFlags = Type.Object({
  org: Ruuid({ description: 'the organization whose smart-sensor integration receives the event' }),
  sensor: Type.String({ minLength: 1, maxLength: 200, description: 'the sensor id, a key of sensorToCamerasMap' }),
  type: Type.Union(SMART_SENSOR_EVENT_TYPES.map((t) => Type.Literal(t))),
  at: Type.Optional(Type.Integer({ minimum: 0, description: 'epoch ms of the event; default now' })),
  value: Type.Optional(Type.Number()),
});

/**
 * `gatehouse simulate smart-sensor --org ORG --sensor S --type VAPE [--at MS] [--value V]`: the smart-sensor
 * system reporting an event, through the same service as its inbound endpoint.
 */
export const integrationSimulateRoutes: ControlPlugin = (app, deps) => {
  app.post('/smart-sensor', { schema: { ...hidden, body: SmartSensorFlags, response: { 200: SmartSensorEventResponse } } }, async (request) => {
    const flags = request.body;
    const outcome = await receiveSmartSensorEvent(deps, systemActor(flags.org, 'simulate.smart-sensor'), {
      sensorId: flags.sensor,
      eventType: flags.type,
      timestampMs: flags.at,
      value: flags.value,
    });
    return { error: false, ...outcome };
  });
};

import { Type, type TProperties } from 'typebox';
import { systemActor, type Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { hidden, type ControlPlugin } from '../../edge/control-plugin.js';
import { ResponseOf, Ruuid } from '../../schemas/common.js';
import { takeSensorReadings } from './alerts/service.js';
import {
  CLIMATE_READINGS,
  GATEWAY_READINGS,
  pressDoorbell,
  reportClimate,
  reportConnection,
  reportDoorSensor,
  reportGateway,
  reportOccupancy,
  reportTag,
  SENSORS,
} from '../devices/sensors/service.js';
import { DOOR_SENSOR_STATES, LOCOMOTION_MOVEMENTS, OCCUPANCY_STATES, PROXIMITY_STATUSES } from '../devices/sensors/schemas.js';
import { findDeviceOfAnyOrg } from '../devices/service.js';
import type { DeviceKind } from '../devices/tables.js';

/**
 * The sensors' simulator under /_gatehouse/simulate (`gatehouse simulate climate|gateway|door-sensor|
 * occupancy|tag|keypad|doorbell|connection ...`): each body is the command's flags, each goes through the
 * service a device's report reaches, written in the device's organization. Devices are named by UUID. It
 * lives with the events domain, above devices: a climate reading is recorded by the devices domain and held
 * against the alert thresholds here.
 */
async function actorOf(deps: Pick<Deps, 'store'>, uuid: string, kinds: readonly DeviceKind[] | null, what: string, event: string) {
  const device = await findDeviceOfAnyOrg(deps, uuid);
  if (!device || (kinds && !kinds.includes(device.deviceType))) throw fail('NOT_FOUND', what);
  return systemActor(device.orgUuid, `simulate.${event}`);
}

/** `--online` arrives as `{online: true}` and `--offline` as `{offline: true}`; the two must not disagree. */
function onlineOf(event: string, { online, offline }: { online?: boolean; offline?: boolean }): boolean {
  const says = [online, offline === undefined ? undefined : !offline].filter((v): v is boolean => v !== undefined);
  if (says.length === 0 || new Set(says).size > 1) throw fail('INVALID_VALUE', `${event}: give one of --online or --offline`);
  return says[0];
}

const At = Type.Optional(Type.Integer({ minimum: 0, description: 'epoch ms of the event; default now' }));
const Battery = Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'battery percent' }));
const Flags = <P extends TProperties>(properties: P) => Type.Object(properties, { additionalProperties: false });
const numbers = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, Type.Optional(Type.Number())]));
const Reported = ResponseOf({ event: Type.Optional(Type.Any()), state: Type.Optional(Type.Any()), policyAlert: Type.Optional(Type.Any()) });
const Online = { online: Type.Optional(Type.Boolean()), offline: Type.Optional(Type.Boolean()) };

/** A climate sensor's readings, by the names of the policy alert's readings (its thresholds are set by these). */
const THRESHOLD_READING: Record<(typeof CLIMATE_READINGS)[number], string> = {
  temp: 'tempC',
  humidity: 'relHumid',
  co2: 'co2',
  pm25: 'pm25',
  tvoc: 'tvoc',
  iaq: 'iaq',
  ethanol: 'ethanol',
  heatIndexDegF: 'heatIndexDegF',
  probeTempC: 'probeTempC',
  thcPercent: 'thcPercent',
  vapeSmokePercent: 'vapeSmokePercent',
};

export const sensorSimulateRoutes: ControlPlugin = (app, deps) => {
  app.post(
    '/climate',
    {
      schema: {
        ...hidden,
        body: Flags({ sensor: Ruuid(), at: At, battery: Battery, tampered: Type.Optional(Type.Boolean()), ...numbers(CLIMATE_READINGS) }),
        response: { 200: Reported },
      },
    },
    async (request) => {
      const { sensor, at, battery, tampered, ...readings } = request.body as { sensor: string; at?: number; battery?: number; tampered?: boolean } & Record<
        string,
        number
      >;
      if (Object.keys(readings).length === 0) throw fail('INVALID_VALUE', `climate: give at least one reading (${CLIMATE_READINGS.join(', ')})`);
      const actor = await actorOf(deps, sensor, SENSORS.climate.kinds, SENSORS.climate.what, 'climate');
      // The thresholds first: a reading above one raises a policy alert, and the event names its triggers.
      const thresholdReadings = Object.fromEntries(Object.entries(readings).map(([k, v]) => [THRESHOLD_READING[k as keyof typeof THRESHOLD_READING], v]));
      const { policyAlert } = await takeSensorReadings(deps, actor, { sensorUuid: sensor, readings: thresholdReadings, timestampMs: at });
      const { device, event } = await reportClimate(deps, actor, {
        sensorUuid: sensor,
        readings,
        atMs: at,
        batteryPercent: battery,
        tampered,
        alertActivities: policyAlert?.policyAlertTriggers ?? [],
      });
      return { error: false, event, state: device.attributes.state, policyAlert };
    },
  );

  app.post(
    '/gateway',
    {
      schema: {
        ...hidden,
        body: Flags({ device: Ruuid(), at: At, vapeDetected: Type.Optional(Type.Boolean()), ...numbers(GATEWAY_READINGS) }),
        response: { 200: Reported },
      },
    },
    async (request) => {
      const { device: uuid, at, ...readings } = request.body as { device: string; at?: number } & Record<string, number>;
      if (Object.keys(readings).length === 0) throw fail('INVALID_VALUE', `gateway: give at least one reading (${GATEWAY_READINGS.join(', ')}, vapeDetected)`);
      const actor = await actorOf(deps, uuid, SENSORS.gateway.kinds, SENSORS.gateway.what, 'gateway');
      const { device, event } = await reportGateway(deps, actor, { deviceUuid: uuid, readings, atMs: at });
      return { error: false, event, state: device.attributes.state };
    },
  );

  app.post(
    '/door-sensor',
    { schema: { ...hidden, body: Flags({ sensor: Ruuid(), state: Type.Enum(DOOR_SENSOR_STATES), battery: Battery, at: At }), response: { 200: Reported } } },
    async (request) => {
      const { sensor, state, battery, at } = request.body;
      const actor = await actorOf(deps, sensor, SENSORS.door.kinds, SENSORS.door.what, 'door-sensor');
      const { device, event } = await reportDoorSensor(deps, actor, { sensorUuid: sensor, state, batteryPercent: battery, atMs: at });
      return { error: false, event, state: device.attributes.state };
    },
  );

  app.post(
    '/occupancy',
    {
      schema: {
        ...hidden,
        body: Flags({
          sensor: Ruuid(),
          state: Type.Enum(OCCUPANCY_STATES),
          lux: Type.Optional(Type.Integer({ minimum: 0, maximum: 200_000 })),
          battery: Battery,
          at: At,
        }),
        response: { 200: Reported },
      },
    },
    async (request) => {
      const { sensor, state, lux, battery, at } = request.body;
      const actor = await actorOf(deps, sensor, SENSORS.occupancy.kinds, SENSORS.occupancy.what, 'occupancy');
      const { device, event } = await reportOccupancy(deps, actor, { sensorUuid: sensor, state, lux, batteryPercent: battery, atMs: at });
      return { error: false, event, state: device.attributes.state };
    },
  );

  app.post(
    '/tag',
    {
      schema: {
        ...hidden,
        body: Flags({
          tag: Ruuid(),
          status: Type.Optional(Type.Enum(PROXIMITY_STATUSES)),
          movement: Type.Optional(Type.Enum(LOCOMOTION_MOVEMENTS)),
          lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
          lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
          battery: Battery,
          at: At,
        }),
        response: { 200: ResponseOf({ proximityEvent: Type.Optional(Type.Any()), locomotionEvent: Type.Optional(Type.Any()) }) },
      },
    },
    async (request) => {
      const { tag, battery, at, ...rest } = request.body;
      const actor = await actorOf(deps, tag, SENSORS.proximity.kinds, SENSORS.proximity.what, 'tag');
      return { error: false, ...(await reportTag(deps, actor, { tagUuid: tag, ...rest, batteryPercent: battery, atMs: at })) };
    },
  );

  app.post('/keypad', { schema: { ...hidden, body: Flags({ keypad: Ruuid(), ...Online, at: At }), response: { 200: Reported } } }, async (request) => {
    const online = onlineOf('keypad', request.body);
    const actor = await actorOf(deps, request.body.keypad, SENSORS.keypad.kinds, SENSORS.keypad.what, 'keypad');
    const { event } = await reportConnection(deps, actor, { deviceUuid: request.body.keypad, online, atMs: request.body.at });
    return { error: false, event };
  });

  app.post('/doorbell', { schema: { ...hidden, body: Flags({ doorbell: Ruuid(), at: At }), response: { 200: Reported } } }, async (request) => {
    const actor = await actorOf(deps, request.body.doorbell, SENSORS.doorbell.kinds, SENSORS.doorbell.what, 'doorbell');
    const { event } = await pressDoorbell(deps, actor, { doorbellUuid: request.body.doorbell, atMs: request.body.at });
    return { error: false, event };
  });

  app.post('/connection', { schema: { ...hidden, body: Flags({ device: Ruuid(), ...Online, at: At }), response: { 200: Reported } } }, async (request) => {
    const online = onlineOf('connection', request.body);
    const actor = await actorOf(deps, request.body.device, null, 'Device', 'connection');
    const { event } = await reportConnection(deps, actor, { deviceUuid: request.body.device, online, atMs: request.body.at });
    return { error: false, event };
  });
};

import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { connectionChangedAt, fullDeviceState, toCameraConfig } from '../cameras/camera-details.service.js';
import { uptimeWindows } from '../lifecycle/device-connection.service.js';
import * as events from './device-events.store.js';
import { deviceHistoryPage, stateOf, type HistoryQuery } from './device-events.service.js';
import { deviceOfClass } from '../lifecycle/service.js';
import { gatewaySenses, SENSORS, toMinimalGatewayState, type GatewayReadings } from '../sensors/service.js';
import { healthDetailsOf, listDevices, listLocations, type DeviceRecord } from '../service.js';

type ReadDeps = Pick<Deps, 'store'>;
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const CAMERA = { kinds: ['CAMERA'], what: 'Camera' } as const;

// --- Climate sensors and environmental gateways ---

/** What a climate sensor's configuration is until it is changed. */
const CLIMATE_CONFIG_DEFAULTS = {
  accelerometer_change_tamper_threshold: 0.5,
  accelerometer_disabled: false,
  alert_window_minutes: 5,
  pressure_switch_tamper_disabled: false,
  smoke_ai_threshold: 0.5,
  thc_ai_threshold: 0.5,
  vape_ai_threshold: 0.5,
};

/** `climate/getConfig`: the sensor's configuration, its defaults under what was set (attributes.config). */
export async function getClimateSensorConfig(deps: ReadDeps, ctx: CallerContext, uuid: string) {
  const sensor = await deviceOfClass(deps, ctx.orgUuid, SENSORS.climate, uuid);
  return {
    deviceUuid: sensor.uuid,
    orgUuid: sensor.orgUuid,
    lastModified: num(sensor.attributes.configModifiedMs) ?? sensor.createdAtMillis,
    ...CLIMATE_CONFIG_DEFAULTS,
    ...((sensor.attributes.config ?? {}) as Record<string, unknown>),
  };
}

/** `climate/getEnvironmentalGatewayShadows`: every gateway's last reported readings, by module, and its connection. */
export async function getEnvironmentalGatewayShadows(deps: ReadDeps, ctx: CallerContext) {
  const gateways = await listDevices(deps, ctx.orgUuid, SENSORS.gateway.kinds);
  const changed = await events.lastEventTimes(
    deps.store.db,
    gateways.map((g) => g.uuid),
    'connection',
  );
  return gateways.map((g) => {
    const state = stateOf(g);
    const seenMs = num(state.lastSeenMs);
    const connected = g.connectionStatus !== 'RED';
    const changedAt = changed.get(g.uuid) ?? g.createdAtMillis;
    return {
      deviceUuid: g.uuid,
      orgUuid: g.orgUuid,
      type: 'ENVIRONMENTAL_GATEWAY' as const,
      connected,
      connectionTimestampMs: connected ? changedAt : null,
      disconnectTimestampMs: connected ? null : changedAt,
      firmwareVersion: g.firmwareVersion,
      defaultInterfaceMac: g.macAddress,
      timestampMs: seenMs,
      stateUpdatedTimestampMs: g.updatedAtMillis,
      ...gatewaySenses(state as GatewayReadings, seenMs === null ? null : Math.floor(seenMs / 1000)),
    };
  });
}

/**
 * `climate/getMinimalStateEventsForEnvironmentalGateway`: the gateway's readings history (newest first, a page
 * at a time), each event as a minimal state: the device as it is now, with the readings of that event.
 */
export async function getMinimalStateEventsForEnvironmentalGateway(deps: ReadDeps, ctx: CallerContext, q: HistoryQuery & { lastEvaluatedKey?: string | null }) {
  const gateway = await deviceOfClass(deps, ctx.orgUuid, SENSORS.gateway, q.deviceUuid);
  const page = await deviceHistoryPage<Record<string, unknown>>(deps, ctx, SENSORS.gateway, [SENSORS.gateway.family], q);
  const current = toMinimalGatewayState(gateway);
  return {
    lastEvaluatedKey: page.lastEvaluatedKey,
    minimalEnvironmentalGatewayStates: page.events.map((event) => {
      const readings = Object.assign(
        {},
        ...['co2Sense', 'pmSense', 'pressSense', 'formaSense', 'carbonMonoSense', 'derivedValues'].map((m) => {
          const { timestampSec: _t, ...values } = (event[m] ?? {}) as Record<string, unknown>;
          return values;
        }),
      ) as Record<string, unknown>;
      return { ...current, ...readings, timestampMs: num(event.timestampMs), alertTriggers: (event.alertTriggers as string[] | undefined) ?? [] };
    }),
  };
}

// --- Audio gateways ---

const AUDIO_FACETS = ['a0'];

export async function getFullAudioGatewayState(deps: ReadDeps, ctx: CallerContext, id: string) {
  const gateway = await deviceOfClass(deps, ctx.orgUuid, SENSORS.audio, id);
  return fullDeviceState(deps, gateway, { hwVariation: SENSORS.audio.hw, facets: AUDIO_FACETS });
}

/** `audiogateway/getUptimeWindows`: when the gateway was online (epoch ms range), from its connection history, as cameras'. */
export async function getAudioGatewayUptimeWindows(
  deps: ReadDeps & Pick<Deps, 'clock'>,
  ctx: CallerContext,
  input: { deviceUuid: string; startTimeMs: number; endTimeMs: number },
) {
  if (input.endTimeMs <= input.startTimeMs) throw fail('INVALID_VALUE', 'endTimeMs must be after startTimeMs');
  const gateway = await deviceOfClass(deps, ctx.orgUuid, SENSORS.audio, input.deviceUuid);
  return uptimeWindows(deps, gateway, input.startTimeMs, input.endTimeMs);
}

// --- Cameras ---

/** The camera's status in the minimal list's three colours (YELLOW reads as ORANGE there). */
const threeColour = (s: DeviceRecord['connectionStatus']) => (s === 'YELLOW' ? 'ORANGE' : s);

/** `camera/getMinimalList`: every camera of the organization, by name, with its placement and policy. */
export async function getCameraMinimalList(deps: ReadDeps, ctx: CallerContext) {
  return (await listDevices(deps, ctx.orgUuid, CAMERA.kinds)).map((c) => ({
    uuid: c.uuid,
    name: c.name,
    locationUuid: c.locationUuid,
    serialNumber: c.serialNumber,
    connectionStatus: threeColour(c.connectionStatus),
    healthStatus: threeColour(c.healthStatus),
    healthStatusDetails: healthDetailsOf(c),
    defaultInterfaceMac: c.macAddress,
    floorNumber: num(c.attributes.floor),
    latitude: num(c.attributes.latitude),
    longitude: num(c.attributes.longitude),
    policyUuid: typeof c.attributes.policyUuid === 'string' ? c.attributes.policyUuid : null,
    liveStreamShared: false,
    mummified: false,
  }));
}

/** `camera/getMinimalCameraLocationMap`: camera uuid -> its name and its location's (two queries, whatever the count). */
export async function getMinimalCameraLocationMap(deps: ReadDeps, ctx: CallerContext) {
  const locations = new Map((await listLocations(deps, ctx.orgUuid)).map((l) => [l.uuid, l.name]));
  const cameras = await listDevices(deps, ctx.orgUuid, CAMERA.kinds);
  return Object.fromEntries(
    cameras.map((c) => [
      c.uuid,
      { cameraName: c.name, locationUuid: c.locationUuid, locationName: c.locationUuid ? (locations.get(c.locationUuid) ?? null) : null },
    ]),
  );
}

/**
 * `camera/getCurrentState`: the camera's connection and health, and its settings as the camera runs them
 * (onCameraState) and as the cloud keeps them (onCloudState): a simulated camera applies a change at once,
 * so the two are the same.
 */
export async function getCurrentCameraState(deps: ReadDeps, ctx: CallerContext, id: string) {
  const camera = await deviceOfClass(deps, ctx.orgUuid, CAMERA, id);
  const { deviceUuid: _d, orgUuid: _o, ...settings } = toCameraConfig(camera);
  return {
    connectionStatus: threeColour(camera.connectionStatus),
    connectionTimestampMs: await connectionChangedAt(deps, camera),
    healthStatus: threeColour(camera.healthStatus),
    healthStatusDetails: healthDetailsOf(camera),
    firmwareVersion: camera.firmwareVersion,
    latestFirmwareVersion: camera.firmwareVersion,
    versionsBehind: 0,
    serialNumber: camera.serialNumber,
    defaultInterfaceMac: camera.macAddress,
    baseVideoOperationUri: null,
    onCameraState: settings,
    onCloudState: settings,
  };
}

// --- BLE ---

/** The devices with a BLE radio that listens for the organization's tags and buttons. */
export const BLE_BASE_STATION_KINDS = ['CAMERA', 'DOORBELL_CAMERA', 'AUDIO_GATEWAY', 'ENVIRONMENTAL_GATEWAY'] as const;

/** `ble/getBaseStations`: the organization's devices that relay BLE tags and buttons, by uuid. */
export async function getBleBaseStations(deps: ReadDeps, ctx: CallerContext): Promise<string[]> {
  return (await listDevices(deps, ctx.orgUuid, BLE_BASE_STATION_KINDS)).map((d) => d.uuid).sort();
}

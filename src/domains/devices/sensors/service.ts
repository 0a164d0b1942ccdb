import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import type { Actor } from '../../../bus/write.js';
import { write } from '../../../bus/write.js';
import {
  deviceHistory,
  deviceHistoryPage,
  recordDeviceReport,
  stateOf,
  updateDeviceAttributes,
  type DeviceClass,
  type DeviceStateEntity,
  type DeviceStateRecord,
  type HistoryQuery,
} from '../device-reads/device-events.service.js';
import { toMinimalCameraState } from '../cameras/service.js';
import type { ReadSource } from '../../../store/reader.js';
import { findDevice, healthDetailsOf, findLocation, listDevices, listLocations, type DeviceRecord } from '../service.js';
import type { DeviceStatus } from '../tables.js';

type ReadDeps = Pick<Deps, 'store'>;
type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** Each sensor kind: its devices, the history its events join, and the stream entity of its state. */
export const SENSORS = {
  climate: {
    kinds: ['ENVIRONMENTAL_SENSOR'],
    what: 'Climate sensor',
    family: 'climate',
    entity: 'CLIMATE_STATE',
    hw: 'SENSOR_ENVIRONMENTAL_E2',
    policy: 'climatePolicy',
  },
  gateway: { kinds: ['ENVIRONMENTAL_GATEWAY'], what: 'Environmental gateway', family: 'gateway', entity: 'CLIMATE_STATE', hw: 'GATEWAY_ENVIRONMENTAL_E50' },
  door: { kinds: ['DOOR_SENSOR'], what: 'Door sensor', family: 'door', entity: 'DOOR_STATE', hw: 'SENSOR_DOOR_D20' },
  occupancy: {
    kinds: ['OCCUPANCY_SENSOR'],
    what: 'Occupancy sensor',
    family: 'occupancy',
    entity: 'OCCUPANCY_STATE',
    hw: 'SENSOR_MOTION_M15',
    policy: 'occupancyPolicy',
  },
  proximity: {
    kinds: ['BLE_TRACKER'],
    what: 'Proximity tag',
    family: 'proximity',
    entity: 'PROXIMITY_STATE',
    hw: 'SENSOR_ASSET_TAG_T1',
    policy: 'proximityPolicy',
  },
  locomotion: {
    kinds: ['BLE_TRACKER'],
    what: 'Proximity tag',
    family: 'locomotion',
    entity: 'PROXIMITY_STATE',
    hw: 'SENSOR_ASSET_TAG_T1',
    policy: 'proximityPolicy',
  },
  keypad: { kinds: ['KEYPAD'], what: 'Keypad', family: 'connection', entity: 'KEYPAD', hw: null },
  audio: { kinds: ['AUDIO_GATEWAY'], what: 'Audio gateway', family: 'connection', entity: 'AUDIO_STATE', hw: 'GATEWAY_A100', policy: 'audioPolicy' },
  doorbell: {
    kinds: ['DOORBELL_CAMERA'],
    what: 'Doorbell camera',
    family: 'component',
    entity: 'COMPONENT_SEEKPOINT',
    hw: null,
    policy: 'videoIntercomPolicy',
  },
} as const satisfies Record<string, DeviceClass & { family: string; entity: string; hw: string | null }>;
export type SensorName = keyof typeof SENSORS;

const lastSeenSec = (device: DeviceRecord) => {
  const ms = stateOf(device).lastSeenMs;
  return typeof ms === 'number' ? Math.floor(ms / 1000) : null;
};
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const cameras = (device: DeviceRecord) => (Array.isArray(device.attributes.cameras) ? (device.attributes.cameras as string[]) : []);

/** The fields every minimal sensor state shares. */
function sensorBase(device: DeviceRecord, sensor: SensorName) {
  const state = stateOf(device);
  const red = device.connectionStatus === 'RED';
  return {
    sensorUuid: device.uuid,
    name: device.name,
    locationUuid: device.locationUuid,
    serialNumber: device.serialNumber,
    firmwareVersion: device.firmwareVersion,
    hwVariation: SENSORS[sensor].hw,
    createdAtMillis: device.createdAtMillis,
    health: red ? ('RED' as const) : ('GREEN' as const),
    healthDetails: red ? ('NO_HEARTBEAT' as const) : ('NONE' as const),
    batteryPercent: num(state.batteryPercent),
    signalStrength: num(state.signalStrength),
    lastSeenSec: lastSeenSec(device),
    associatedCameras: cameras(device),
    floorNumber: num(device.attributes.floor),
    subLocationsHierarchyKey: device.locationUuid ? { locationUuids: [device.locationUuid] } : null,
  };
}

/** The fields every sensor event shares. */
function eventBase(device: DeviceRecord, atMs: number, batteryPercent?: number | null) {
  return {
    orgUuid: device.orgUuid,
    locationUuid: device.locationUuid,
    timestampMs: atMs,
    batteryPercentage: batteryPercent ?? num(stateOf(device).batteryPercent),
    subLocationsHierarchyKey: device.locationUuid ? { locationUuids: [device.locationUuid] } : null,
  };
}

export const CLIMATE_READINGS = [
  'temp',
  'humidity',
  'co2',
  'pm25',
  'tvoc',
  'iaq',
  'ethanol',
  'heatIndexDegF',
  'probeTempC',
  'thcPercent',
  'vapeSmokePercent',
] as const;
/** The state of a climate event that raised a policy alert (its history's filters and presence windows read it). */
export const CLIMATE_ALERT_STATE = 'ALERT';
export type ClimateReadings = Partial<Record<(typeof CLIMATE_READINGS)[number], number>>;

export function toMinimalClimateState(device: DeviceRecord) {
  const s = stateOf(device);
  return {
    ...sensorBase(device, 'climate'),
    temperatureCelcius: num(s.temp),
    humidity: num(s.humidity),
    co2: num(s.co2),
    pm25: num(s.pm25),
    tvoc: num(s.tvoc),
    iaq: num(s.iaq),
    ethanol: num(s.ethanol),
    heatIndexDegF: num(s.heatIndexDegF),
    probeTempC: num(s.probeTempC),
    thcPercent: num(s.thcPercent),
    vapePercent: num(s.vapeSmokePercent),
    calibrating: false,
    probeConnected: s.probeTempC !== undefined,
  };
}

export const GATEWAY_READINGS = [
  'tempC',
  'relHumid',
  'co2Ppm',
  'pm1p0',
  'pm2p5',
  'pm4p0',
  'pm10p0',
  'vocIdx',
  'noxIdx',
  'pressure',
  'ch2oPpb',
  'coConcentration',
  'airQualityIndex',
  'heatIndexDegF',
] as const;
export type GatewayReadings = Partial<Record<(typeof GATEWAY_READINGS)[number], number>> & { vapeDetected?: boolean };

export function toMinimalGatewayState(device: DeviceRecord) {
  const s = stateOf(device);
  return {
    deviceUuid: device.uuid,
    orgUuid: device.orgUuid,
    name: device.name,
    locationUuid: device.locationUuid,
    serialNumber: device.serialNumber,
    firmwareVersion: device.firmwareVersion,
    hwVariation: SENSORS.gateway.hw,
    createdAtMillis: device.createdAtMillis,
    connected: device.connectionStatus !== 'RED',
    healthStatus: device.healthStatus,
    healthDetails: device.connectionStatus === 'RED' ? 'DISCONNECTED' : 'NONE',
    defaultInterfaceMac: device.macAddress,
    timestampMs: num(s.lastSeenMs),
    alertTriggers: (s.alertTriggers as string[] | undefined) ?? [],
    associatedCameras: cameras(device),
    ...Object.fromEntries(GATEWAY_READINGS.map((r) => [r, num(s[r])])),
    vapeDetected: bool(s.vapeDetected),
  };
}

export function toMinimalDoorState(device: DeviceRecord) {
  // The catalogue's door state has no sub-location key (MinimalDoorState).
  const { subLocationsHierarchyKey: _k, ...base } = sensorBase(device, 'door');
  return { ...base, status: (str(stateOf(device).status) ?? 'CLOSED') as 'OPEN' | 'CLOSED' | 'AJAR' };
}

export function toMinimalOccupancyState(device: DeviceRecord) {
  const s = stateOf(device);
  const lux = num(s.lux);
  // The catalogue's occupancy state has no creation time (MinimalOccupancySensorState).
  const { createdAtMillis: _c, ...base } = sensorBase(device, 'occupancy');
  return {
    ...base,
    status: (str(s.status) ?? 'VACANT') as 'VACANT' | 'MOVEMENT' | 'OCCUPIED',
    rawLux: lux,
    normalizedLux: lux === null ? null : Math.min(1, lux / 1000),
  };
}

export function toMinimalProximityState(device: DeviceRecord) {
  const s = stateOf(device);
  const {
    sensorUuid,
    associatedCameras: _c,
    closestBaseStation: _b,
    floorNumber: _f,
    subLocationsHierarchyKey: _k,
    health: _h,
    healthDetails: _d,
    ...base
  } = { ...sensorBase(device, 'proximity'), closestBaseStation: null };
  return {
    ...base,
    tagUuid: sensorUuid,
    health: 'GREEN' as const,
    healthDetails: 'NONE' as const,
    status: (str(s.status) ?? (device.connectionStatus === 'RED' ? 'OFFLINE' : 'STATIONARY')) as 'ACTIVE' | 'STATIONARY' | 'OFFLINE',
    // Not nullable in the catalogue: a tag that never reported a position has none.
    ...(s.gpsLocation ? { gpsLocation: s.gpsLocation as { lat: number; lon: number } } : {}),
  };
}

/**
 * A tag's status event as answers carry it: the catalogue's proximity event has its span (startTimeMs) and no
 * timestampMs, and no position rather than a null one.
 */
export function proximityEventAnswer<E extends { timestampMs?: number | null; gpsLocation?: unknown }>(event: E) {
  const { timestampMs: _t, gpsLocation, ...rest } = event;
  return gpsLocation ? { ...rest, gpsLocation } : rest;
}

export function toKeypadConfig(device: DeviceRecord, locations: Map<string, { name: string; tz: string }>) {
  const location = device.locationUuid ? locations.get(device.locationUuid) : undefined;
  return {
    uuid: device.uuid,
    orgUuid: device.orgUuid,
    name: device.name,
    locationUuid: device.locationUuid,
    locationName: location?.name ?? null,
    tz: location?.tz ?? null,
    connectionState: device.connectionStatus === 'RED' ? ('OFFLINE' as const) : ('ONLINE' as const),
    armCountdownSecs: num(device.attributes.armCountdownSecs) ?? 30,
    floorNumber: num(device.attributes.floor),
    latitude: num(device.attributes.latitude),
    longitude: num(device.attributes.longitude),
    lastModified: device.updatedAtMillis,
    signalStrength: num(stateOf(device).signalStrength),
    // Neither is nullable in the catalogue: a keypad that never said its platform names none, an unknown address is empty.
    ...(str(device.attributes.platform) ? { platform: str(device.attributes.platform) as 'ANDROID' | 'IOS' } : {}),
    ipAddress: str(device.attributes.ipAddress),
    buildingAdminPhoneNumber: str(device.attributes.buildingAdminPhoneNumber),
    showCallBuildingAdmin: bool(device.attributes.showCallBuildingAdmin) ?? false,
    additionalFeaturesDisabled: bool(device.attributes.additionalFeaturesDisabled) ?? false,
    logoUuid: str(device.attributes.logoUuid),
    videoWallUuid: str(device.attributes.videoWallUuid),
    qualifiedAddress: (device.attributes.qualifiedAddress as Record<string, string | null> | undefined) ?? {},
    subLocationsHierarchyKey: device.locationUuid ? { locationUuids: [device.locationUuid] } : null,
  };
}

export function toMinimalAudioGatewayState(device: DeviceRecord) {
  const facets = ['a0'];
  return {
    uuid: device.uuid,
    sensorUuid: device.uuid,
    name: device.name,
    locationUuid: device.locationUuid,
    serialNumber: device.serialNumber,
    firmwareVersion: device.firmwareVersion,
    createdAtMillis: device.createdAtMillis,
    connectionStatus: device.connectionStatus,
    healthStatus: device.healthStatus,
    healthStatusDetails: healthDetailsOf(device),
    defaultInterfaceMac: device.macAddress,
    supportedFacets: facets,
    facetNameMap: Object.fromEntries(facets.map((f) => [`${device.uuid}.${f}`, device.name])),
    associatedCameras: cameras(device),
    mummified: false,
  };
}

const listOf =
  <T>(kinds: readonly DeviceRecord['deviceType'][], map: (d: DeviceRecord) => T) =>
  async (deps: ReadDeps, ctx: CallerContext) =>
    (await listDevices(deps, ctx.orgUuid, kinds)).map(map);

export const getMinimalClimateStateList = listOf(SENSORS.climate.kinds, toMinimalClimateState);
export const getMinimalEnvironmentalGatewayStates = listOf(SENSORS.gateway.kinds, toMinimalGatewayState);
export const getMinimalDoorStateList = listOf(SENSORS.door.kinds, toMinimalDoorState);
export const getMinimalOccupancySensorStateList = listOf(SENSORS.occupancy.kinds, toMinimalOccupancyState);
export const getMinimalProximityStateList = listOf(SENSORS.proximity.kinds, toMinimalProximityState);
export const getMinimalAudioGatewayStateList = listOf(SENSORS.audio.kinds, toMinimalAudioGatewayState);

/** The organization's keypads (at one location, when given), with their locations' names and zones. */
export async function getKeypadsForOrg(deps: ReadDeps, ctx: CallerContext, locationUuid?: string) {
  const locations = new Map((await listLocations(deps, ctx.orgUuid)).map((l) => [l.uuid, { name: l.name, tz: l.tz }]));
  if (locationUuid !== undefined && !locations.has(locationUuid)) throw fail('NOT_FOUND', 'Location');
  return (await listDevices(deps, ctx.orgUuid, SENSORS.keypad.kinds))
    .filter((d) => locationUuid === undefined || d.locationUuid === locationUuid)
    .map((d) => toKeypadConfig(d, locations));
}

/** A keypad as the stream announces it: its config, with its location's name and zone. */
export async function keypadConfigOf(source: ReadSource, keypad: DeviceRecord) {
  const location = keypad.locationUuid ? await findLocation(source, keypad.orgUuid, keypad.locationUuid) : null;
  return toKeypadConfig(keypad, new Map(location ? [[location.uuid, { name: location.name, tz: location.tz }]] : []));
}

/** A sensor's history (see deviceHistory): `filter` keeps the events of one state. */
export function sensorHistory<E>(deps: ReadDeps, ctx: CallerContext, sensor: SensorName, q: HistoryQuery, filter?: string | readonly string[] | null) {
  const states = filter == null ? null : typeof filter === 'string' ? [filter] : filter;
  return deviceHistory<E>(deps, ctx, SENSORS[sensor], [SENSORS[sensor].family], { ...q, states });
}

/** A keyset page of a sensor's history, newest first (what the CSV exports drain). */
export function sensorHistoryPage<E>(deps: ReadDeps, ctx: CallerContext, sensor: SensorName, q: HistoryQuery & { lastEvaluatedKey?: string | null }) {
  return deviceHistoryPage<E>(deps, ctx, SENSORS[sensor], [SENSORS[sensor].family], q);
}

export function environmentalGatewayEvents<E>(deps: ReadDeps, ctx: CallerContext, q: HistoryQuery & { lastEvaluatedKey?: string | null }) {
  return deviceHistoryPage<E>(deps, ctx, SENSORS.gateway, [SENSORS.gateway.family], q);
}

// --- What the simulated devices report (gatehouse simulate climate|gateway|door-sensor|occupancy|tag|keypad|doorbell|connection) ---

export async function reportClimate(
  deps: WriteDeps,
  actor: Actor,
  input: { sensorUuid: string; readings: ClimateReadings; alertActivities?: string[]; batteryPercent?: number; tampered?: boolean; atMs?: number },
) {
  const readings = Object.fromEntries(Object.entries(input.readings).filter(([, v]) => v !== undefined));
  return write(deps, actor, (w) =>
    recordDeviceReport(w, {
      deviceUuid: input.sensorUuid,
      device: SENSORS.climate,
      family: SENSORS.climate.family,
      timestampMs: input.atMs,
      // A reading that raised an alert is the climate history's one state: its presence windows are these.
      state: input.alertActivities?.length ? CLIMATE_ALERT_STATE : null,
      stateUpdate: { ...readings, ...(input.batteryPercent !== undefined ? { batteryPercent: input.batteryPercent } : {}) },
      event: (device, atMs) => ({
        ...eventBase(device, atMs, input.batteryPercent),
        ...Object.fromEntries(CLIMATE_READINGS.map((r) => [r, num(readings[r])])),
        thcDetected: readings.thcPercent !== undefined ? readings.thcPercent > 0 : null,
        vapeSmokeDetected: readings.vapeSmokePercent !== undefined ? readings.vapeSmokePercent > 0 : null,
        tampered: input.tampered ?? false,
        alertActivities: input.alertActivities ?? [],
      }),
      entity: SENSORS.climate.entity,
      announce: toMinimalClimateState,
    }),
  );
}

export async function reportGateway(deps: WriteDeps, actor: Actor, input: { deviceUuid: string; readings: GatewayReadings; atMs?: number }) {
  const r = input.readings;
  return write(deps, actor, (w) =>
    recordDeviceReport(w, {
      deviceUuid: input.deviceUuid,
      device: SENSORS.gateway,
      family: SENSORS.gateway.family,
      timestampMs: input.atMs,
      stateUpdate: Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)),
      event: (device, atMs) => {
        return {
          uuid: newRuuid(),
          deviceUuid: device.uuid,
          orgUuid: device.orgUuid,
          deviceType: 'ENVIRONMENTAL_GATEWAY',
          firmwareVersion: device.firmwareVersion,
          hwVariation: SENSORS.gateway.hw,
          timestampMs: atMs,
          alertTriggers: [],
          alertTriggerThresholds: [],
          activities: [],
          ...gatewaySenses(r, Math.floor(atMs / 1000)),
        };
      },
      entity: SENSORS.gateway.entity,
      announce: toMinimalGatewayState,
    }),
  );
}

/**
 * An environmental gateway's readings grouped by the module that senses them; a module that reported nothing is
 * left out (the catalogue's modules are not nullable).
 */
export function gatewaySenses(r: GatewayReadings, timestampSec: number | null) {
  const sense = <K extends keyof GatewayReadings>(keys: K[]) =>
    keys.some((k) => r[k] !== undefined && r[k] !== null) ? { ...Object.fromEntries(keys.map((k) => [k, r[k] ?? null])), timestampSec } : undefined;
  return {
    co2Sense: sense(['co2Ppm', 'relHumid', 'tempC']),
    pmSense: sense(['pm1p0', 'pm2p5', 'pm4p0', 'pm10p0', 'vocIdx', 'noxIdx']),
    pressSense: sense(['pressure']),
    formaSense: sense(['ch2oPpb']),
    carbonMonoSense: sense(['coConcentration']),
    derivedValues: sense(['airQualityIndex', 'heatIndexDegF', 'vapeDetected']),
  };
}

/** A state report (door position, occupancy): `stateChanged` says whether it differs from the last one. */
async function reportState<S extends 'door' | 'occupancy'>(
  deps: WriteDeps,
  actor: Actor,
  sensor: S,
  input: { sensorUuid: string; state: string; atMs?: number; batteryPercent?: number; extra?: Record<string, unknown> },
  announce: (d: DeviceRecord) => DeviceStateRecord,
) {
  return write(deps, actor, (w) =>
    recordDeviceReport(w, {
      deviceUuid: input.sensorUuid,
      device: SENSORS[sensor],
      family: SENSORS[sensor].family,
      timestampMs: input.atMs,
      state: input.state,
      stateUpdate: { status: input.state, ...input.extra, ...(input.batteryPercent !== undefined ? { batteryPercent: input.batteryPercent } : {}) },
      event: (device, atMs) => ({
        ...eventBase(device, atMs, input.batteryPercent),
        state: input.state,
        stateChanged: stateOf(device).status !== input.state,
        ...input.extra,
      }),
      entity: SENSORS[sensor].entity,
      announce,
    }),
  );
}

export const reportDoorSensor = (deps: WriteDeps, actor: Actor, input: { sensorUuid: string; state: string; atMs?: number; batteryPercent?: number }) =>
  reportState(deps, actor, 'door', input, toMinimalDoorState);

export const reportOccupancy = (
  deps: WriteDeps,
  actor: Actor,
  input: { sensorUuid: string; state: string; lux?: number; atMs?: number; batteryPercent?: number },
) => reportState(deps, actor, 'occupancy', { ...input, extra: { lux: input.lux ?? null, tampered: false } }, toMinimalOccupancyState);

/** A tag's status (a proximity event from then on) and movement (a locomotion event). */
export async function reportTag(
  deps: WriteDeps,
  actor: Actor,
  input: { tagUuid: string; status?: string; movement?: string; lat?: number; lon?: number; atMs?: number; batteryPercent?: number },
) {
  if (!input.status && !input.movement) throw fail('INVALID_VALUE', 'tag: give --status, --movement or both');
  const gpsLocation = input.lat !== undefined && input.lon !== undefined ? { lat: input.lat, lon: input.lon, floor: null } : null;
  return write(deps, actor, async (w) => {
    const reported: Record<string, unknown> = {};
    if (input.status) {
      const { event } = await recordDeviceReport(w, {
        deviceUuid: input.tagUuid,
        device: SENSORS.proximity,
        family: SENSORS.proximity.family,
        timestampMs: input.atMs,
        state: input.status,
        stateUpdate: {
          status: input.status,
          ...(gpsLocation ? { gpsLocation } : {}),
          ...(input.batteryPercent !== undefined ? { batteryPercent: input.batteryPercent } : {}),
        },
        event: (device, atMs) => ({ ...eventBase(device, atMs, input.batteryPercent), status: input.status, startTimeMs: atMs, endTimeMs: null, gpsLocation }),
        entity: SENSORS.proximity.entity,
        announce: toMinimalProximityState,
      });
      reported.proximityEvent = event;
    }
    if (input.movement) {
      const { event } = await recordDeviceReport(w, {
        deviceUuid: input.tagUuid,
        device: SENSORS.locomotion,
        family: SENSORS.locomotion.family,
        timestampMs: input.atMs,
        state: input.movement,
        stateUpdate: gpsLocation ? { gpsLocation } : {},
        event: (device, atMs) => ({
          tagUuid: device.uuid,
          orgUuid: device.orgUuid,
          locationUuid: device.locationUuid,
          movement: input.movement,
          gpsLocation,
          timestampMs: atMs,
        }),
        entity: SENSORS.locomotion.entity,
        announce: toMinimalProximityState,
      });
      reported.locomotionEvent = event;
    }
    return reported;
  });
}

/** A doorbell press: a DoorbellEvent in the doorbell camera's component events. */
export async function pressDoorbell(deps: WriteDeps, actor: Actor, input: { doorbellUuid: string; atMs?: number }) {
  return write(deps, actor, (w) =>
    recordDeviceReport(w, {
      deviceUuid: input.doorbellUuid,
      device: SENSORS.doorbell,
      family: SENSORS.doorbell.family,
      timestampMs: input.atMs,
      state: 'DoorbellEvent',
      stateUpdate: { lastPressMs: input.atMs ?? w.nowMs },
      event: (device, atMs) => ({
        uuid: newRuuid(),
        componentUuid: device.uuid,
        ownerDeviceUuid: device.uuid,
        orgUuid: device.orgUuid,
        locationUuid: device.locationUuid,
        correlationId: newRuuid(),
        type: 'DoorbellEvent' as const,
        timestampMs: atMs,
        createdAtMs: w.nowMs,
      }),
      entity: SENSORS.doorbell.entity,
      announce: (_device, event) => event,
    }),
  );
}

/** Which entity announces a device's connection change, by kind. */
const CONNECTION_ENTITY: Partial<Record<DeviceRecord['deviceType'], { entity: DeviceStateEntity; announce: (d: DeviceRecord) => DeviceStateRecord }>> = {
  CAMERA: { entity: 'CAMERA_STATE', announce: (d) => toMinimalCameraState(d) },
  DOORBELL_CAMERA: { entity: 'CAMERA_STATE', announce: (d) => toMinimalCameraState(d) },
  KEYPAD: { entity: 'KEYPAD', announce: (d) => toKeypadConfig(d, new Map()) },
  AUDIO_GATEWAY: { entity: 'AUDIO_STATE', announce: toMinimalAudioGatewayState },
  ENVIRONMENTAL_SENSOR: { entity: 'CLIMATE_STATE', announce: toMinimalClimateState },
  ENVIRONMENTAL_GATEWAY: { entity: 'CLIMATE_STATE', announce: toMinimalGatewayState },
  DOOR_SENSOR: { entity: 'DOOR_STATE', announce: toMinimalDoorState },
  OCCUPANCY_SENSOR: { entity: 'OCCUPANCY_STATE', announce: toMinimalOccupancyState },
  BLE_TRACKER: { entity: 'PROXIMITY_STATE', announce: toMinimalProximityState },
};

/** The connection history's states. */
export const ONLINE = 'ONLINE';
export const OFFLINE = 'OFFLINE';

/**
 * A device going offline or coming back: its connection status (RED offline, GREEN online), a `connection`
 * event in its history (the uptime windows read it), announced as its kind's state entity (DEVICE otherwise).
 */
export async function reportConnection(
  deps: WriteDeps,
  actor: Actor,
  input: { deviceUuid: string; online: boolean; atMs?: number },
  announceAs?: { entity: DeviceStateEntity; announce: (d: DeviceRecord) => DeviceStateRecord },
) {
  return write(deps, actor, async (w) => {
    const device = await findDevice(w, actor.orgUuid, input.deviceUuid);
    if (!device) throw fail('NOT_FOUND', 'Device');
    const how = announceAs ?? CONNECTION_ENTITY[device.deviceType] ?? { entity: 'DEVICE' as const, announce: (d: DeviceRecord) => d };
    const status: DeviceStatus = input.online ? 'GREEN' : 'RED';
    return recordDeviceReport(w, {
      deviceUuid: device.uuid,
      device: { kinds: [device.deviceType], what: 'Device' },
      family: 'connection',
      timestampMs: input.atMs,
      state: input.online ? ONLINE : OFFLINE,
      connectionStatus: status,
      event: (d, atMs) => ({ deviceUuid: d.uuid, connectionStatus: status, state: input.online ? ONLINE : OFFLINE, timestampMs: atMs }),
      entity: how.entity,
      announce: how.announce,
    });
  });
}

export function doorbellEvents<E>(deps: ReadDeps, ctx: CallerContext, q: HistoryQuery & { typeFilter?: readonly string[] | null }) {
  return deviceHistory<E>(deps, ctx, SENSORS.doorbell, [SENSORS.doorbell.family], {
    ...q,
    states: q.typeFilter && q.typeFilter.length > 0 ? q.typeFilter : null,
  });
}

// --- Audio gateway configuration ---

/** The configuration an audio gateway starts with. */
const AUDIO_DEFAULTS: Record<string, unknown> = {
  audioExternalMicBoost: 0,
  audioExternalMicVolume: 50,
  audioExternalSpeakerVolume: 50,
  audioInternalMicAecEnabled: true,
  audioInternalMicBoost: 0,
  audioInternalMicVolume: 50,
  audioInternalSpeakerVolume: 50,
  audioRecord: true,
  audioUseExternalMic: false,
  audioUseExternalSpeaker: false,
  deviceMicEnabled: true,
  deviceSpeakerEnabled: true,
  frontendNoiseSuppression: false,
};

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const SNAKE_KEPT = new Set([
  'frontendNoiseSuppression',
  'frontendEqualizerLowShelf',
  'frontendEqualizerHighShelf',
  'frontendEqualizerPeaking1',
  'frontendEqualizerPeaking2',
  'frontendEqualizerPeaking3',
]);

export function toAudioGatewayConfig(device: DeviceRecord) {
  const config = { ...AUDIO_DEFAULTS, ...((device.attributes.config ?? {}) as Record<string, unknown>) };
  return {
    deviceUuid: device.uuid,
    orgUuid: device.orgUuid,
    lastModified: num(device.attributes.configModifiedMs) ?? device.createdAtMillis,
    ...Object.fromEntries(Object.entries(config).map(([k, v]) => [SNAKE_KEPT.has(k) ? k : snake(k), v])),
  };
}

export async function getAudioGatewayConfig(deps: ReadDeps, ctx: CallerContext, uuid: string) {
  const device = await findDevice(deps, ctx.orgUuid, uuid, SENSORS.audio.kinds);
  if (!device) throw fail('NOT_FOUND', SENSORS.audio.what);
  return toAudioGatewayConfig(device);
}

/** Sets the given audio settings (the schema has checked each range); the others keep their values. */
export async function updateAudioGatewayConfig(deps: WriteDeps, ctx: CallerContext, input: { uuid: string } & Record<string, unknown>) {
  const { uuid, ...fields } = input;
  const given = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));
  await write(deps, ctx, async (w) => {
    const device = await findDevice(w, ctx.orgUuid, uuid, SENSORS.audio.kinds);
    if (!device) throw fail('NOT_FOUND', SENSORS.audio.what);
    const config = { ...((device.attributes.config ?? {}) as Record<string, unknown>), ...given };
    await updateDeviceAttributes(
      w,
      device,
      { ...device.attributes, config, configModifiedMs: w.nowMs },
      { entity: 'AUDIO_STATE', update: toAudioGatewayConfig },
    );
  });
}

import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { facetId } from '../../../ids.js';
import { write } from '../../../bus/write.js';
import { applyDeviceDetails, fullDeviceState } from '../cameras/camera-details.service.js';
import type { DeviceClass } from '../device-reads/device-events.service.js';
import { uptimeWindows } from '../lifecycle/device-connection.service.js';
import { deleteDevice, deviceOfClass, rebootDeviceOfClass } from '../lifecycle/service.js';
import { findDevices, listDevices, reviseDevice, type DeviceRecord } from '../service.js';

type ReadDeps = Pick<Deps, 'store'>;
type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

export const NVR: DeviceClass = { kinds: ['NVR'], what: 'NVR', policy: 'cameraPolicy' };
export const NVR_HW = 'NVR_N100';
/** The firmware an NVR updates to (a simulated NVR installs it at once). */
export const LATEST_NVR_FIRMWARE = '2026.11.1';
/** How many third-party cameras an NVR records unless its attributes say otherwise (`maxThirdPartyCameras`). */
export const DEFAULT_NVR_CAPACITY = 16;

const num = (v: unknown) => (typeof v === 'number' ? v : null);
const str = (v: unknown) => (typeof v === 'string' ? v : null);

export const nvrCapacity = (nvr: DeviceRecord) => num(nvr.attributes.maxThirdPartyCameras) ?? DEFAULT_NVR_CAPACITY;

/** The NVR as the platform's NVRExternalType. */
function toNvrDetails(nvr: DeviceRecord) {
  const a = nvr.attributes;
  return {
    uuid: nvr.uuid,
    name: nvr.name,
    description: str(a.description),
    locationUuid: nvr.locationUuid,
    serialNumber: nvr.serialNumber,
    hwVariation: NVR_HW,
    type: 'NVR' as const,
    policyUuid: str(a.policyUuid),
    floorNumber: num(a.floor),
    latitude: num(a.latitude),
    longitude: num(a.longitude),
    directionRadians: num(a.directionRadians),
    facetNameMap: { [facetId(nvr.uuid, 'v0')]: nvr.name },
    deleted: false,
    pending: false,
    mummified: false,
    createdAtMillis: nvr.createdAtMillis,
  };
}

/** `relay/getDetails`: the NVRs named (each must be the organization's), or all of them. */
export async function getNvrDetails(deps: ReadDeps, ctx: CallerContext, uuids: readonly string[] | null | undefined) {
  if (!uuids) return (await listDevices(deps, ctx.orgUuid, NVR.kinds)).map(toNvrDetails);
  const found = await findDevices(deps, ctx.orgUuid, uuids, NVR.kinds);
  return uuids.map((uuid) => {
    const nvr = found.get(uuid);
    if (!nvr) throw fail('NOT_FOUND', `NVR ${uuid}`);
    return toNvrDetails(nvr);
  });
}

export async function getFullNvrState(deps: ReadDeps, ctx: CallerContext, uuid: string) {
  const nvr = await deviceOfClass(deps, ctx.orgUuid, NVR, uuid);
  return { ...(await fullDeviceState(deps, nvr, { hwVariation: NVR_HW, facets: ['v0'] })), audioSupported: false, latestFirmwareVersion: LATEST_NVR_FIRMWARE };
}

/** `relay/getMinimalNVRStateList`: every NVR, with how many third-party cameras it records and may record. */
export async function getMinimalNvrStates(deps: ReadDeps, ctx: CallerContext) {
  const [nvrs, cameras] = await Promise.all([listDevices(deps, ctx.orgUuid, NVR.kinds), listDevices(deps, ctx.orgUuid, ['CAMERA'])]);
  const assigned = new Map<string, number>();
  for (const c of cameras) {
    const nvr = str((c.attributes.thirdParty as Record<string, unknown> | undefined)?.nvrUuid);
    if (nvr) assigned.set(nvr, (assigned.get(nvr) ?? 0) + 1);
  }
  return nvrs.map((nvr) => ({
    ...minimalState(nvr, NVR_HW),
    numThirdPartyCamerasAssigned: assigned.get(nvr.uuid) ?? 0,
    numThirdPartyCamerasSupported: nvrCapacity(nvr),
  }));
}

/** The fields of the platform's minimal device states (NVRs', third-party cameras'). */
export function minimalState(device: DeviceRecord, hwVariation: string) {
  const a = device.attributes;
  return {
    uuid: device.uuid,
    name: device.name,
    locationUuid: device.locationUuid,
    serialNumber: device.serialNumber,
    hwVariation,
    connectionStatus: device.connectionStatus,
    healthStatus: device.healthStatus,
    firmwareVersion: device.firmwareVersion,
    firmwareUpdateInProgress: false,
    defaultInterfaceMac: device.macAddress,
    floorNumber: num(a.floor),
    latitude: num(a.latitude),
    longitude: num(a.longitude),
    policyUuid: str(a.policyUuid),
    mummified: false,
    createdAtMillis: device.createdAtMillis,
  };
}

const UPDATABLE = ['name', 'description', 'locationUuid', 'floorNumber', 'latitude', 'longitude', 'directionRadians'] as const;

/**
 * `relay/updateDetailsV2`: a field changes when its `<field>Updated` flag is true, or, without a flag, when it is
 * given (not null); the details update of every other device (applyDeviceDetails) applies it.
 */
export async function updateNvrDetails(deps: WriteDeps, ctx: CallerContext, input: { uuid: string } & Record<string, unknown>) {
  const change = Object.fromEntries(
    UPDATABLE.filter((f) => (input[`${f}Updated`] === undefined || input[`${f}Updated`] === null ? input[f] != null : input[`${f}Updated`] === true)).map(
      (f) => [f, input[f]],
    ),
  );
  await write(deps, ctx, async (w) => {
    const nvr = await deviceOfClass(w, ctx.orgUuid, NVR, input.uuid);
    const updated = await applyDeviceDetails(w, nvr, change);
    w.change({ entity: 'NVR', entityUuid: nvr.uuid, deviceUuid: nvr.uuid, type: 'UPDATE', update: updated });
  });
}

export const rebootNvr = (deps: WriteDeps & Pick<Deps, 'log'>, ctx: CallerContext, uuid: string) => rebootDeviceOfClass(deps, ctx, NVR, uuid);

/** `relay/unregister`: the NVR is deleted as any device is; the cameras it recorded stay, no longer assigned to it. */
export const unregisterNvr = (deps: WriteDeps & Pick<Deps, 'deviceReferences'>, ctx: CallerContext, uuid: string) => deleteDevice(deps, ctx, NVR, uuid);

/** `relay/updateFirmware`: an online NVR behind the latest firmware installs it (a simulated one at once). */
export async function updateNvrFirmware(deps: WriteDeps, ctx: CallerContext, uuid: string) {
  return write(deps, ctx, async (w) => {
    const nvr = await deviceOfClass(w, ctx.orgUuid, NVR, uuid);
    if (nvr.connectionStatus === 'RED') return 'UNABLE_TO_REACH_DEVICE' as const;
    if (nvr.firmwareVersion === LATEST_NVR_FIRMWARE) return 'ALREADY_ON_THE_LATEST_FIRMWARE' as const;
    await reviseDevice(w, nvr, { kind: 'NVR', name: nvr.name, locationUuid: nvr.locationUuid, firmwareVersion: LATEST_NVR_FIRMWARE });
    return 'UPDATE_STARTED' as const;
  });
}

export async function getNvrUptimeWindows(
  deps: ReadDeps & Pick<Deps, 'clock'>,
  ctx: CallerContext,
  input: { deviceUuid: string; startTimeMs: number; endTimeMs: number },
) {
  if (input.endTimeMs <= input.startTimeMs) throw fail('INVALID_VALUE', 'endTimeMs must be after startTimeMs');
  const nvr = await deviceOfClass(deps, ctx.orgUuid, NVR, input.deviceUuid);
  return uptimeWindows(deps, nvr, input.startTimeMs, input.endTimeMs);
}

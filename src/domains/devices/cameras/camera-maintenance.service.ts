import type { CallerContext } from '../../../context.js';
import type { Actor } from '../../../bus/write.js';
import { systemActor, type Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceUuidOf, facetId } from '../../../ids.js';
import { toJson } from '../../../store/columns.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { issueFederatedToken } from '../../../footage/federated-token.js';
import { findDevice, findDeviceOfAnyOrg, listDevices, type DeviceRecord } from '../service.js';
import * as store from '../store.js';
import { CAMERA_FACETS } from './service.js';

type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** The firmware the simulated cameras are offered: a camera on it is up to date. */
export const LATEST_CAMERA_FIRMWARE = 'v2.9.0';

const isOnline = (camera: DeviceRecord) => camera.connectionStatus !== 'RED';

async function cameraOf(source: Parameters<typeof findDevice>[0], orgUuid: string, ref: string): Promise<DeviceRecord> {
  const uuid = deviceUuidOf(ref);
  const camera = uuid ? await findDevice(source, orgUuid, uuid, ['CAMERA']) : null;
  if (!camera) throw fail('NOT_FOUND', `Camera ${ref}`);
  return camera;
}

/** Sets attributes of a camera in the write and announces it as the camera (its record as the stream has it). */
async function setAttributes(w: WriteScope, camera: DeviceRecord, patch: Record<string, unknown>, columns: store.DevicePatch = {}): Promise<DeviceRecord> {
  const attributes = { ...camera.attributes, ...patch };
  for (const [k, v] of Object.entries(patch)) if (v === undefined) delete attributes[k];
  await store.updateDevice(w.tx, camera.orgUuid, camera.uuid, { ...columns, attributes: toJson(attributes)!, updated_at_ms: w.nowMs });
  const updated: DeviceRecord = {
    ...camera,
    attributes,
    firmwareVersion: columns.firmware_version !== undefined ? columns.firmware_version : camera.firmwareVersion,
    updatedAtMillis: w.nowMs,
  };
  w.change({ entity: 'CAMERA', entityUuid: camera.uuid, deviceUuid: camera.uuid, type: 'UPDATE', update: updated });
  return updated;
}

interface FirmwareUpdate {
  targetVersion: string;
  startedAtMs: number;
}
const firmwareUpdateOf = (camera: DeviceRecord) => (camera.attributes.firmwareUpdate as FirmwareUpdate | undefined) ?? null;

/**
 * `updateFirmware`: an online camera that is not on the latest firmware starts updating to it
 * (attributes.firmwareUpdate); the camera reports when it is done (`gatehouse simulate firmware`, completeFirmwareUpdate).
 */
export async function updateCameraFirmware(deps: WriteDeps, ctx: CallerContext, cameraRef: string) {
  return write(deps, ctx, async (w) => {
    const camera = await cameraOf(w, ctx.orgUuid, cameraRef);
    if (!isOnline(camera)) return 'UNABLE_TO_REACH_DEVICE' as const;
    if (firmwareUpdateOf(camera)) return 'FIRMWARE_UPDATE_ALREADY_IN_PROGESS' as const;
    if (camera.firmwareVersion === LATEST_CAMERA_FIRMWARE) return 'ALREADY_ON_THE_LATEST_FIRMWARE' as const;
    await setAttributes(w, camera, { firmwareUpdate: { targetVersion: LATEST_CAMERA_FIRMWARE, startedAtMs: w.nowMs } });
    return 'UPDATE_STARTED' as const;
  });
}

/** A camera reports the end of its firmware update: on success it runs the target version; either way the update is over. */
export async function completeFirmwareUpdate(deps: WriteDeps, actor: Actor, cameraUuid: string, failed: boolean): Promise<DeviceRecord> {
  return write(deps, actor, async (w) => {
    const camera = await findDevice(w, actor.orgUuid, cameraUuid, ['CAMERA']);
    if (!camera) throw fail('NOT_FOUND', 'Camera');
    const update = firmwareUpdateOf(camera);
    if (!update) throw fail('NOT_ALLOWED', `Camera ${cameraUuid} is not updating its firmware`);
    return setAttributes(
      w,
      camera,
      { firmwareUpdate: undefined, lastFirmwareUpdate: { ...update, endedAtMs: w.nowMs, failed } },
      failed ? {} : { firmware_version: update.targetVersion },
    );
  });
}

/** Finds a camera of any organization for the simulator, answering its actor. */
export async function simulatedCamera(deps: Pick<Deps, 'store'>, uuid: string, operation: string): Promise<{ camera: DeviceRecord; actor: Actor }> {
  const camera = await findDeviceOfAnyOrg(deps, uuid);
  if (!camera || camera.deviceType !== 'CAMERA') throw fail('NOT_FOUND', 'Camera');
  return { camera, actor: systemActor(camera.orgUuid, operation) };
}

/**
 * `updateWifi`: sends the network to each camera named (cameraUuid and cameraUuids together); an online camera
 * takes it (attributes.wifi: the SSID and when; the password goes to the camera and is not kept), an offline one
 * is answered false. Any camera that is not the organization's refuses the whole request.
 */
export async function updateCameraWifi(
  deps: WriteDeps,
  ctx: CallerContext,
  input: { cameraUuid?: string | null; cameraUuids?: string[] | null; ssid: string },
) {
  const refs = [...new Set([...(input.cameraUuid ? [input.cameraUuid] : []), ...(input.cameraUuids ?? [])])];
  if (refs.length === 0) throw fail('INVALID_VALUE', 'cameraUuid: name a camera (cameraUuid or cameraUuids)');
  return write(deps, ctx, async (w) => {
    const status: Record<string, boolean> = {};
    for (const ref of refs) {
      const camera = await cameraOf(w, ctx.orgUuid, ref);
      status[ref] = isOnline(camera);
      if (status[ref]) await setAttributes(w, camera, { wifi: { ssid: input.ssid, changedAtMs: w.nowMs } });
    }
    return status;
  });
}

const WIFI_TOKEN_PURPOSE = 'camera-wifi-change';
const WIFI_TOKEN_TTL_MS = 10 * 60_000;

/**
 * `generateWifiChangeAuthorizationToken`: what a camera on the caller's network accepts, for ten minutes, as
 * leave to join another network: the organization, the user, the SSID and the address the request came from,
 * sealed with the instance's key (the camera hands it back; nothing else can make one).
 */
export function wifiChangeToken(
  deps: Pick<Deps, 'secrets' | 'clock'>,
  ctx: CallerContext,
  input: { ssid?: string | null; perceivedIp?: string | null },
  clientIp: string | null,
) {
  const claims = { o: ctx.orgUuid, u: ctx.userUuid, s: input.ssid ?? null, ip: input.perceivedIp || clientIp, e: deps.clock.now() + WIFI_TOKEN_TTL_MS };
  const sealed = deps.secrets.seal(JSON.stringify(claims), WIFI_TOKEN_PURPOSE);
  return { authorizationToken: Buffer.from(sealed, 'utf8').toString('base64'), userUuid: ctx.userUuid };
}

/** Opens a wifi change token (the camera's check); null when it is not one of ours or has expired. */
export function openWifiChangeToken(
  deps: Pick<Deps, 'secrets' | 'clock'>,
  base64: string,
): { o: string; u: string | null; s: string | null; ip: string | null } | null {
  try {
    const claims = JSON.parse(deps.secrets.open(Buffer.from(base64, 'base64').toString('utf8'), WIFI_TOKEN_PURPOSE)) as {
      e: number;
      o: string;
      u: string | null;
      s: string | null;
      ip: string | null;
    };
    return claims.e > deps.clock.now() ? claims : null;
  } catch {
    return null;
  }
}

/**
 * `erase`: an online camera wipes its local storage and settings and starts over as it left the factory: its
 * config and AI thresholds go back to their defaults, and the erase is kept (attributes.erasedAtMs). An offline
 * camera cannot be sent the command.
 */
export async function eraseCamera(deps: WriteDeps, ctx: CallerContext, cameraRef: string): Promise<void> {
  await write(deps, ctx, async (w) => {
    const camera = await cameraOf(w, ctx.orgUuid, cameraRef);
    if (!isOnline(camera)) throw fail('NOT_ALLOWED', `Camera ${camera.uuid} is offline: the erase cannot be sent`);
    await setAttributes(w, camera, { config: undefined, aiThresholds: undefined, wifi: undefined, floorplanProjection: undefined, erasedAtMs: w.nowMs });
  });
}

const RECOVERY_PURPOSE = 'camera-storage-recovery';

/**
 * `getStorageRecoveryFile`: the file a camera's local storage is recovered with after its board is replaced: the
 * camera's identity (organization, uuid, serial number, MAC address), sealed with the instance's key, so only
 * this instance can read it back (openStorageRecoveryFile).
 */
export async function storageRecoveryFile(deps: Pick<Deps, 'store' | 'secrets'>, ctx: CallerContext, ref: string) {
  const camera = await cameraOf(deps, ctx.orgUuid, ref);
  const identity = { orgUuid: camera.orgUuid, deviceUuid: camera.uuid, serialNumber: camera.serialNumber, macAddress: camera.macAddress };
  return { fileContents: Buffer.from(deps.secrets.seal(JSON.stringify(identity), `${RECOVERY_PURPOSE}:${camera.uuid}`), 'utf8').toString('base64') };
}

export function openStorageRecoveryFile(deps: Pick<Deps, 'secrets'>, deviceUuid: string, base64: string): Record<string, unknown> {
  return JSON.parse(deps.secrets.open(Buffer.from(base64, 'base64').toString('utf8'), `${RECOVERY_PURPOSE}:${deviceUuid}`)) as Record<string, unknown>;
}

/**
 * `getOfflineLanStreamingInfo`: for each online camera facet of the organization, what a viewer on its network
 * needs while the cloud is out of reach: a federated session token (the media host takes it without a key) and
 * the addresses its video is served at.
 */
export async function offlineLanStreamingInfo(deps: Pick<Deps, 'store' | 'secrets' | 'clock' | 'mediaHost'>, ctx: CallerContext) {
  const token = issueFederatedToken(deps, ctx.orgUuid);
  const info: Record<string, { accessToken: string; lanAddresses: string[] }> = {};
  for (const camera of await listDevices(deps, ctx.orgUuid, ['CAMERA'])) {
    if (!isOnline(camera)) continue;
    for (const facet of CAMERA_FACETS) info[facetId(camera.uuid, facet)] = { accessToken: token, lanAddresses: [deps.mediaHost.base] };
  }
  return info;
}

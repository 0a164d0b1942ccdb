import { createHash } from 'node:crypto';
import type { Deps } from '../../../deps.js';
import { systemActor } from '../../../deps.js';
import type { CallerContext } from '../../../context.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import { maskSecret, type SecretBox } from '../../../secrets.js';
import { write, type WriteScope } from '../../../bus/write.js';
import type { DeviceReferenceCleaner } from '../device-references.js';
import type { DeviceClass } from '../device-reads/device-events.service.js';
import { normaliseMac } from '../identifiers.js';
import { deleteDevice } from '../lifecycle/service.js';
import { createDevice, createDiscovery, findDevice, findDeviceOfAnyOrg, findLocation, listDevices, reviseDevice, type DeviceRecord } from '../service.js';
import { minimalState, NVR, nvrCapacity } from './nvr.service.js';
import * as store from './store.js';
import type { ThirdPartyRtspEndpointsTable } from './tables.js';

type ReadDeps = Pick<Deps, 'store'>;
type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'secrets'>;

/** A third-party camera is a camera like any other (the camera lists show it); what it came from is in `thirdParty`. */
export const THIRD_PARTY_CAMERA: DeviceClass = { kinds: ['CAMERA'], what: 'Third-party camera', policy: 'cameraPolicy' };
/** The devices that find third-party cameras on their network: NVRs, and platform cameras acting as relays. */
const RELAY_KINDS = ['NVR', 'CAMERA'] as const;

interface ThirdParty {
  macAddress: string;
  rtspUrl: string;
  nvrUuid: string | null;
  relayCameraUuid: string | null;
  manufacturer: string | null;
  model: string | null;
  codec: string | null;
  discoveredByDeviceUuid: string | null;
}
interface DiscoveryDetails {
  ipAddress?: string | null;
  manufacturer?: string | null;
  model?: string | null;
  codec?: string | null;
  name?: string | null;
  locationUuid?: string | null;
  discoveredByDeviceUuid?: string | null;
  lastVisibleMs?: Record<string, number>;
  updatedAtMs?: number;
}

const thirdPartyOf = (camera: DeviceRecord): ThirdParty | null => (camera.attributes.thirdParty as ThirdParty | undefined) ?? null;
const detailsOf = (raw: string | null | undefined): DiscoveryDetails => (raw ? (JSON.parse(raw) as DiscoveryDetails) : {});
const endpointIdentity = (uuid: string) => `rtsp-endpoint:${uuid}`;
const passwordIdentity = (uuid: string) => `third-party-camera-password:${uuid}`;

function macOf(value: string, field: string): string {
  const mac = normaliseMac(value);
  if (!mac) throw fail('INVALID_VALUE', `${field}: "${value}" is not a MAC address`);
  return mac;
}

/** An RTSP URL's host; null for a URL that is not rtsp:// or rtsps:// (the relay cannot play it). */
function rtspHost(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'rtsp:' || parsed.protocol === 'rtsps:' ? parsed.hostname : null;
  } catch {
    throw fail('INVALID_VALUE', `rtspUrl: "${url}" is not a URL`);
  }
}

const toEndpoint = (row: ThirdPartyRtspEndpointsTable) => ({
  uuid: row.uuid,
  rtspUrl: row.rtsp_url,
  username: row.username,
  password: row.password_sealed ? '****' : null,
  source: row.source,
  lastRtspUrlStatus: row.last_status as 'UNKNOWN',
});

/** The discovery as the stream carries it: never a password. */
function announceDiscovery(w: WriteScope, orgUuid: string, mac: string, assignments: number, details: DiscoveryDetails, type: 'CREATE' | 'UPDATE') {
  w.change({
    entity: 'THIRD_PARTY_CAMERA_DISCOVERY',
    entityUuid: mac,
    type,
    update: { orgUuid, thirdPartyCameraMacAddress: mac, assignments, createdAtMillis: details.updatedAtMs ?? w.nowMs, ...details },
  });
}

async function discoveryOf(source: Parameters<typeof store.findDiscoveryRow>[0], orgUuid: string, mac: string) {
  const row = await store.findDiscoveryRow(source, orgUuid, mac);
  if (!row) throw fail('NOT_FOUND', `Third-party camera discovery ${mac}`);
  return row;
}

// --- Discovery ---

/**
 * What a relay or NVR reports of a camera on its network (`gatehouse simulate relay-discovery`): the discovery
 * is made or refreshed (address, make, model, codec, when this relay last saw it), with the RTSP URL it offers.
 */
export async function reportDiscovery(
  deps: Pick<Deps, 'store' | 'bus' | 'clock'>,
  input: { deviceUuid: string; mac: string; ip?: string; manufacturer?: string; model?: string; codec?: string; rtspUrl?: string; atMs?: number },
) {
  const relay = await findDeviceOfAnyOrg(deps, input.deviceUuid);
  if (!relay || !(RELAY_KINDS as readonly string[]).includes(relay.deviceType)) throw fail('NOT_FOUND', 'Relay camera or NVR');
  const mac = macOf(input.mac, 'mac');
  if (input.rtspUrl !== undefined && rtspHost(input.rtspUrl) === null) throw fail('INVALID_VALUE', 'rtsp: must be an rtsp:// URL');
  return write(deps, systemActor(relay.orgUuid, 'simulate.relay-discovery'), async (w) => {
    const existing = await store.findDiscoveryRow(w.tx, relay.orgUuid, mac);
    if (!existing) await createDiscovery(w, { macAddress: mac });
    const before = detailsOf(existing?.details);
    const atMs = input.atMs ?? w.nowMs;
    const details: DiscoveryDetails = {
      ...before,
      ipAddress: input.ip ?? before.ipAddress ?? null,
      manufacturer: input.manufacturer ?? before.manufacturer ?? null,
      model: input.model ?? before.model ?? null,
      codec: input.codec ?? before.codec ?? null,
      locationUuid: before.locationUuid ?? relay.locationUuid,
      discoveredByDeviceUuid: relay.uuid,
      lastVisibleMs: { ...before.lastVisibleMs, [relay.uuid]: atMs },
      updatedAtMs: w.nowMs,
    };
    await store.upsertDiscoveryDetails(w.tx, relay.orgUuid, mac, JSON.stringify(details));
    if (input.rtspUrl && !(await store.listEndpoints(w.tx, relay.orgUuid, mac)).some((e) => e.rtsp_url === input.rtspUrl)) {
      await store.insertEndpoint(w.tx, newEndpoint(w, relay.orgUuid, mac, input.rtspUrl, 'ONVIF'));
    }
    announceDiscovery(w, relay.orgUuid, mac, existing?.assignments ?? 0, details, 'UPDATE');
    return { macAddress: mac, created: !existing };
  });
}

function newEndpoint(w: WriteScope, orgUuid: string, mac: string, rtspUrl: string, source: 'USER' | 'ONVIF'): ThirdPartyRtspEndpointsTable {
  return {
    uuid: newRuuid(),
    org_uuid: orgUuid,
    mac_address: mac,
    rtsp_url: rtspUrl,
    source,
    username: null,
    password_sealed: null,
    last_status: 'NOT_AUTHENTICATED',
    camera_uuid: null,
    created_at_ms: w.nowMs,
  };
}

/**
 * `executeThirdPartyCameraDiscovery`: the relays and NVRs asked (all of the organization's, or those the filters
 * name) are told to scan their networks; each records when it was asked. What they find comes back as discovery
 * reports (reportDiscovery).
 */
export async function requestDiscovery(
  deps: Pick<Deps, 'store' | 'bus' | 'clock'>,
  ctx: CallerContext,
  input: { deviceFilter?: string[] | null; locationFilter?: string[] | null },
) {
  await write(deps, ctx, async (w) => {
    let relays: DeviceRecord[];
    if (input.deviceFilter) {
      relays = [];
      for (const uuid of new Set(input.deviceFilter)) {
        const relay = await findDevice(w, ctx.orgUuid, uuid, RELAY_KINDS);
        if (!relay) throw fail('NOT_FOUND', `Relay camera or NVR ${uuid}`);
        relays.push(relay);
      }
    } else relays = await listDevices(w, ctx.orgUuid, NVR.kinds);
    if (input.locationFilter) relays = relays.filter((r) => r.locationUuid !== null && input.locationFilter!.includes(r.locationUuid));
    for (const relay of relays) {
      await reviseDevice(w, relay, {
        kind: relay.deviceType,
        name: relay.name,
        locationUuid: relay.locationUuid,
        attributes: { discoveryRequestedAtMs: w.nowMs },
      });
    }
  });
}

/** The credentials an endpoint is given: those in the request, else (when asked to) the first saved password. */
async function credentialsFor(
  deps: ReadDeps & { secrets: SecretBox },
  orgUuid: string,
  input: { username?: string | null; password?: string | null; trySavedCredentials?: boolean | null },
) {
  if (input.username || input.password) return { username: input.username ?? null, password: input.password ?? null };
  if (input.trySavedCredentials) {
    const [saved] = await store.listPasswords(deps.store.db, orgUuid);
    if (saved) return { username: saved.username, password: deps.secrets.open(saved.password_sealed, passwordIdentity(saved.uuid)) };
  }
  return null;
}

/**
 * Sets an endpoint's credentials (sealed). The server cannot reach the camera itself (its relay can), so an
 * endpoint with credentials reads UNKNOWN until its relay checks it, and one without reads NOT_AUTHENTICATED.
 */
async function authenticateEndpoint(
  w: WriteScope,
  secrets: SecretBox,
  endpoint: ThirdPartyRtspEndpointsTable,
  creds: { username: string | null; password: string | null } | null,
) {
  const patch = creds
    ? {
        username: creds.username,
        password_sealed: creds.password ? secrets.seal(creds.password, endpointIdentity(endpoint.uuid)) : null,
        last_status: 'UNKNOWN',
      }
    : { last_status: endpoint.password_sealed ? endpoint.last_status : 'NOT_AUTHENTICATED' };
  await store.updateEndpoint(w.tx, endpoint.org_uuid, endpoint.uuid, patch);
  return { ...endpoint, ...patch };
}

async function discoveredCamera(w: WriteScope, orgUuid: string, mac: string) {
  const row = await discoveryOf(w.tx, orgUuid, mac);
  const d = detailsOf(row.details);
  const endpoints = await store.listEndpoints(w.tx, orgUuid, mac);
  const withCreds = endpoints.find((e) => e.username);
  return {
    orgUuid,
    macAddress: mac,
    ipAddress: d.ipAddress ?? null,
    manufacturer: d.manufacturer ?? null,
    model: d.model ?? null,
    codec: d.codec ?? null,
    name: d.name ?? null,
    username: withCreds?.username ?? null,
    password: withCreds?.password_sealed ? '****' : null,
    // The discovery's endpoints carry no credentials (the catalogue's type has none): the discovery's own are above.
    rtspEndpoints: endpoints.map((e) => {
      const { username: _username, password: _password, ...endpoint } = toEndpoint(e);
      return endpoint;
    }),
    lastVisibleMs: d.lastVisibleMs ?? {},
    createdOn: new Date(Number(row.created_at_ms)).toISOString(),
    updatedOn: new Date(d.updatedAtMs ?? Number(row.created_at_ms)).toISOString(),
  };
}

/** A MAC address for a camera known only by its RTSP URL: locally administered, the same for the same host. */
const macForHost = (host: string) => ['02', ...(createHash('sha256').update(host).digest('hex').slice(0, 10).match(/../g) ?? [])].join(':');

/**
 * `manualDiscoverCamera`: a camera a user names by its RTSP URL becomes a discovery (keyed by a MAC address made
 * from its host) with that URL as a user endpoint and the credentials given (or saved).
 */
export async function manualDiscover(
  deps: WriteDeps,
  ctx: CallerContext,
  input: { rtspUrl: string; locationUuid?: string | null; username?: string | null; password?: string | null; trySavedCredentials?: boolean | null },
) {
  const host = rtspHost(input.rtspUrl);
  // No discovery: result is left out (the catalogue's record is not nullable).
  if (host === null) return { rtspUrlStatus: 'NOT_SUPPORTED' as const };
  const creds = await credentialsFor(deps, ctx.orgUuid, input);
  return write(deps, ctx, async (w) => {
    if (input.locationUuid && !(await findLocation(w, ctx.orgUuid, input.locationUuid))) throw fail('NOT_FOUND', 'Location');
    const mac = macForHost(host);
    const existing = await store.findDiscoveryRow(w.tx, ctx.orgUuid, mac);
    if (!existing) await createDiscovery(w, { macAddress: mac });
    const details: DiscoveryDetails = { ...detailsOf(existing?.details), ipAddress: host, locationUuid: input.locationUuid ?? null, updatedAtMs: w.nowMs };
    await store.upsertDiscoveryDetails(w.tx, ctx.orgUuid, mac, JSON.stringify(details));
    let endpoint = (await store.listEndpoints(w.tx, ctx.orgUuid, mac)).find((e) => e.rtsp_url === input.rtspUrl);
    if (!endpoint) {
      endpoint = newEndpoint(w, ctx.orgUuid, mac, input.rtspUrl, 'USER');
      await store.insertEndpoint(w.tx, endpoint);
    }
    const authenticated = await authenticateEndpoint(w, deps.secrets, endpoint, creds);
    announceDiscovery(w, ctx.orgUuid, mac, existing?.assignments ?? 0, details, 'UPDATE');
    return { result: await discoveredCamera(w, ctx.orgUuid, mac), rtspUrlStatus: authenticated.last_status as 'UNKNOWN' };
  });
}

/** `authenticateThirdPartyCamera`: credentials for a discovery's endpoint (the URL given, added when new), or for all of them. */
export async function authenticateDiscovery(
  deps: WriteDeps,
  ctx: CallerContext,
  input: {
    thirdPartyCameraMacAddress: string;
    rtspUrl?: string | null;
    username?: string | null;
    password?: string | null;
    trySavedCredentials?: boolean | null;
  },
) {
  const mac = macOf(input.thirdPartyCameraMacAddress, 'thirdPartyCameraMacAddress');
  if (input.rtspUrl && rtspHost(input.rtspUrl) === null) return { rtspUrlStatus: 'NOT_SUPPORTED' as const };
  const creds = await credentialsFor(deps, ctx.orgUuid, input);
  return write(deps, ctx, async (w) => {
    const row = await discoveryOf(w.tx, ctx.orgUuid, mac);
    let endpoints = await store.listEndpoints(w.tx, ctx.orgUuid, mac);
    if (input.rtspUrl) {
      let endpoint = endpoints.find((e) => e.rtsp_url === input.rtspUrl);
      if (!endpoint) {
        endpoint = newEndpoint(w, ctx.orgUuid, mac, input.rtspUrl, 'USER');
        await store.insertEndpoint(w.tx, endpoint);
      }
      endpoints = [endpoint];
    }
    const statuses = [];
    for (const endpoint of endpoints) statuses.push((await authenticateEndpoint(w, deps.secrets, endpoint, creds)).last_status);
    announceDiscovery(w, ctx.orgUuid, mac, row.assignments, detailsOf(row.details), 'UPDATE');
    return { result: await discoveredCamera(w, ctx.orgUuid, mac), rtspUrlStatus: (statuses[0] ?? 'NOT_AUTHENTICATED') as 'UNKNOWN' };
  });
}

export async function getRtspEndpoints(deps: ReadDeps, ctx: CallerContext, macAddress: string) {
  const mac = macOf(macAddress, 'discoveredCameraMacAddress');
  await discoveryOf(deps.store.db, ctx.orgUuid, mac);
  return (await store.listEndpoints(deps.store.db, ctx.orgUuid, mac)).map(toEndpoint);
}

/** `findDiscoveriesWithUnassignedRtspEndpoints`: the discoveries with an endpoint no camera uses yet (two queries). */
export async function discoveriesWithUnassigned(deps: ReadDeps, ctx: CallerContext) {
  const unassigned = new Map<string, ThirdPartyRtspEndpointsTable[]>();
  for (const e of await store.listEndpointsOfOrg(deps.store.db, ctx.orgUuid))
    if (!e.camera_uuid) unassigned.set(e.mac_address, [...(unassigned.get(e.mac_address) ?? []), e]);
  return (await store.listDiscoveryRows(deps.store.db, ctx.orgUuid))
    .filter((row) => unassigned.has(row.mac_address))
    .map((row) => {
      const d = detailsOf(row.details);
      return {
        orgUuid: ctx.orgUuid,
        macAddress: row.mac_address,
        ipAddress: d.ipAddress ?? null,
        manufacturer: d.manufacturer ?? null,
        model: d.model ?? null,
        codec: d.codec ?? null,
        unassignedRtspEndpoints: unassigned.get(row.mac_address)!.map(toEndpoint),
      };
    });
}

// --- Assignment ---

interface AssignInput {
  discoveredCameraMacAddress: string;
  locationUuid: string;
  name?: string | null;
  rtspUrl?: string | null;
}

/**
 * Makes a discovered camera a camera of the organization, recorded by an NVR or relayed by the platform camera
 * that found it: one of the discovery's endpoints (the URL given, else the first unassigned one) is assigned to
 * it, the discovery counts the assignment, and the camera appears in every camera list.
 */
async function assign(deps: WriteDeps, ctx: CallerContext, input: AssignInput, recorder: { nvrUuid: string } | 'relay-camera'): Promise<string> {
  const mac = macOf(input.discoveredCameraMacAddress, 'discoveredCameraMacAddress');
  return write(deps, ctx, async (w) => {
    const row = await discoveryOf(w.tx, ctx.orgUuid, mac);
    const details = detailsOf(row.details);
    if (!(await findLocation(w, ctx.orgUuid, input.locationUuid))) throw fail('NOT_FOUND', 'Location');
    let nvrUuid: string | null = null;
    let relayCameraUuid: string | null = null;
    if (recorder === 'relay-camera') {
      const relay = details.discoveredByDeviceUuid ? await findDevice(w, ctx.orgUuid, details.discoveredByDeviceUuid, ['CAMERA']) : null;
      if (!relay) throw fail('NOT_ALLOWED', `Third-party camera discovery ${mac} was not found by a relay camera; assign it to an NVR`);
      relayCameraUuid = relay.uuid;
    } else {
      const nvr = await findDevice(w, ctx.orgUuid, recorder.nvrUuid, NVR.kinds);
      if (!nvr) throw fail('NOT_FOUND', 'NVR');
      const recorded = (await listDevices(w, ctx.orgUuid, ['CAMERA'])).filter((c) => thirdPartyOf(c)?.nvrUuid === nvr.uuid).length;
      if (recorded >= nvrCapacity(nvr)) throw fail('NOT_ALLOWED', `NVR ${nvr.name} records at most ${nvrCapacity(nvr)} third-party cameras`);
      nvrUuid = nvr.uuid;
    }
    const endpoints = await store.listEndpoints(w.tx, ctx.orgUuid, mac);
    let endpoint = input.rtspUrl ? endpoints.find((e) => e.rtsp_url === input.rtspUrl) : endpoints.find((e) => !e.camera_uuid);
    if (!endpoint && input.rtspUrl) {
      if (rtspHost(input.rtspUrl) === null) throw fail('INVALID_VALUE', 'rtspUrl: must be an rtsp:// URL');
      endpoint = newEndpoint(w, ctx.orgUuid, mac, input.rtspUrl, 'USER');
      await store.insertEndpoint(w.tx, endpoint);
    }
    if (!endpoint) throw fail('NOT_FOUND', `An unassigned RTSP endpoint of ${mac}`);
    if (endpoint.camera_uuid) throw fail('CONFLICT', `RTSP endpoint ${endpoint.rtsp_url} is already assigned to camera ${endpoint.camera_uuid}`);
    const thirdParty: ThirdParty = {
      macAddress: mac,
      rtspUrl: endpoint.rtsp_url,
      nvrUuid,
      relayCameraUuid,
      manufacturer: details.manufacturer ?? null,
      model: details.model ?? null,
      codec: details.codec ?? null,
      discoveredByDeviceUuid: details.discoveredByDeviceUuid ?? null,
    };
    const camera = await createDevice(w, {
      kind: 'CAMERA',
      name: input.name?.trim() || [details.manufacturer, details.model].filter(Boolean).join(' ') || `Camera ${mac}`,
      locationUuid: input.locationUuid,
      macAddress: mac,
      attributes: { thirdParty, hwVariation: nvrUuid ? 'CAMERA_THIRD_PARTY_NVR' : 'CAMERA_THIRD_PARTY_RELAY' },
    });
    await store.updateEndpoint(w.tx, ctx.orgUuid, endpoint.uuid, { camera_uuid: camera.uuid });
    await store.upsertDiscoveryDetails(w.tx, ctx.orgUuid, mac, row.details ?? '{}', row.assignments + 1);
    announceDiscovery(w, ctx.orgUuid, mac, row.assignments + 1, details, 'UPDATE');
    return camera.uuid;
  });
}

export const assignToNvr = (deps: WriteDeps, ctx: CallerContext, input: AssignInput & { nvruuid: string }) =>
  assign(deps, ctx, input, { nvrUuid: input.nvruuid });
export const assignToRelayCamera = (deps: WriteDeps, ctx: CallerContext, input: AssignInput) => assign(deps, ctx, input, 'relay-camera');

/**
 * `unassignThirdPartyCamera`: the camera (named by uuid, or by its discovery's MAC address and RTSP URL) is
 * deleted as any camera is; relaysForgetDevice then frees its endpoint and the discovery's assignment.
 */
export async function unassign(
  deps: WriteDeps & Pick<Deps, 'deviceReferences'>,
  ctx: CallerContext,
  input: { thirdPartyCameraUuid?: string | null; thirdPartyCameraMacAddress?: string | null; rtspUrl?: string | null },
) {
  let uuid = input.thirdPartyCameraUuid ?? null;
  if (!uuid) {
    if (!input.thirdPartyCameraMacAddress) throw fail('INVALID_VALUE', 'thirdPartyCameraUuid: give it, or thirdPartyCameraMacAddress (and rtspUrl)');
    const mac = macOf(input.thirdPartyCameraMacAddress, 'thirdPartyCameraMacAddress');
    const assigned = (await store.listEndpoints(deps.store.db, ctx.orgUuid, mac)).filter(
      (e) => e.camera_uuid && (!input.rtspUrl || e.rtsp_url === input.rtspUrl),
    );
    if (assigned.length === 0) throw fail('NOT_FOUND', `An assigned camera of ${mac}`);
    if (assigned.length > 1) throw fail('INVALID_VALUE', `rtspUrl: ${mac} has ${assigned.length} assigned cameras; name the URL or the camera`);
    uuid = assigned[0].camera_uuid!;
  }
  const camera = await findDevice(deps, ctx.orgUuid, uuid, ['CAMERA']);
  if (!camera || !thirdPartyOf(camera)) throw fail('NOT_FOUND', 'Third-party camera');
  await deleteDevice(deps, ctx, THIRD_PARTY_CAMERA, camera.uuid);
}

/** A deleted third-party camera frees its RTSP endpoint and its discovery's assignment (unassign, camera/delete). */
export const relaysForgetDevice: DeviceReferenceCleaner = async (w, device) => {
  const thirdParty = device.deviceType === 'CAMERA' ? thirdPartyOf(device) : null;
  if (!thirdParty) return;
  await store.releaseEndpointsOfCamera(w.tx, device.orgUuid, device.uuid);
  const row = await store.findDiscoveryRow(w.tx, device.orgUuid, thirdParty.macAddress);
  if (!row) return;
  const assignments = Math.max(0, row.assignments - 1);
  await store.upsertDiscoveryDetails(w.tx, device.orgUuid, row.mac_address, row.details ?? '{}', assignments);
  announceDiscovery(w, device.orgUuid, row.mac_address, assignments, detailsOf(row.details), 'UPDATE');
};

async function thirdPartyStates(deps: ReadDeps, orgUuid: string, filter: (t: ThirdParty) => boolean) {
  const cameras = (await listDevices(deps, orgUuid, ['CAMERA'])).filter((c) => {
    const t = thirdPartyOf(c);
    return t !== null && filter(t);
  });
  const status = new Map((await store.listEndpointsOfOrg(deps.store.db, orgUuid)).filter((e) => e.camera_uuid).map((e) => [e.camera_uuid!, e.last_status]));
  return cameras.map((c) => {
    const t = thirdPartyOf(c)!;
    return {
      ...minimalState(c, String(c.attributes.hwVariation ?? 'CAMERA_THIRD_PARTY_RELAY')),
      rtspUrl: t.rtspUrl,
      manufacturer: t.manufacturer,
      model: t.model,
      codec: t.codec,
      assignedNVRUuid: t.nvrUuid,
      assignedRelayCameraUuid: t.relayCameraUuid,
      discoveredByDeviceUuid: t.discoveredByDeviceUuid,
      lastRtspUrlStatus: (status.get(c.uuid) ?? 'UNKNOWN') as 'UNKNOWN',
    };
  });
}

export async function getAssignedCameras(deps: ReadDeps, ctx: CallerContext, nvrUuid: string) {
  if (!(await findDevice(deps, ctx.orgUuid, nvrUuid, NVR.kinds))) throw fail('NOT_FOUND', 'NVR');
  return thirdPartyStates(deps, ctx.orgUuid, (t) => t.nvrUuid === nvrUuid);
}

export const getThirdPartyCameraStates = (deps: ReadDeps, ctx: CallerContext) => thirdPartyStates(deps, ctx.orgUuid, () => true);

// --- PTZ ---

interface Ptz {
  x: number;
  y: number;
  z: number;
}
const ptzOf = (camera: DeviceRecord): Ptz => ({ x: 0, y: 0, z: 0, ...(camera.attributes.ptz as Partial<Ptz> | undefined) });
const clamp = (v: number) => Math.max(-10000, Math.min(10000, v));

async function thirdPartyCameraOf(source: Parameters<typeof findDevice>[0], orgUuid: string, uuid: string) {
  const camera = await findDevice(source, orgUuid, uuid, ['CAMERA']);
  if (!camera || !thirdPartyOf(camera)) throw fail('NOT_FOUND', 'Third-party camera');
  return camera;
}

/** `ptzMove`: the camera pans, tilts and zooms by the movements given (permyriad of its range), within its range. */
export async function ptzMove(
  deps: Pick<Deps, 'store' | 'bus' | 'clock'>,
  ctx: CallerContext,
  input: { thirdPartyCameraUuid: string; xmovementPermyriad?: number | null; ymovementPermyriad?: number | null; zmovementPermyriad?: number | null },
) {
  await write(deps, ctx, async (w) => {
    const camera = await thirdPartyCameraOf(w, ctx.orgUuid, input.thirdPartyCameraUuid);
    const at = ptzOf(camera);
    const ptz = {
      x: clamp(at.x + (input.xmovementPermyriad ?? 0)),
      y: clamp(at.y + (input.ymovementPermyriad ?? 0)),
      z: clamp(at.z + (input.zmovementPermyriad ?? 0)),
    };
    await reviseDevice(w, camera, { kind: 'CAMERA', name: camera.name, locationUuid: camera.locationUuid, attributes: { ptz } });
  });
}

export async function ptzStatus(deps: ReadDeps, ctx: CallerContext, uuid: string) {
  const { x, y, z } = ptzOf(await thirdPartyCameraOf(deps, ctx.orgUuid, uuid));
  return { xpositionPermyriad: x, ypositionPermyriad: y, zpositionPermyriad: z };
}

// --- Saved passwords ---

/** A saved password as the stream carries it: never the password. */
export interface ThirdPartyCameraPasswordRecord {
  uuid: string;
  orgUuid: string;
  username: string;
  notes: string | null;
}

export async function createPassword(deps: WriteDeps, ctx: CallerContext, input: { username: string; password: string; notes?: string | null }) {
  return write(deps, ctx, async (w) => {
    const uuid = newRuuid();
    await store.insertPassword(w.tx, {
      uuid,
      org_uuid: ctx.orgUuid,
      username: input.username,
      password_sealed: deps.secrets.seal(input.password, passwordIdentity(uuid)),
      notes: input.notes ?? null,
      created_at_ms: w.nowMs,
    });
    w.change({
      entity: 'THIRD_PARTY_CAMERA_PASSWORD',
      entityUuid: uuid,
      type: 'CREATE',
      update: { uuid, orgUuid: ctx.orgUuid, username: input.username, notes: input.notes ?? null },
    });
    return uuid;
  });
}

export async function listPasswords(deps: ReadDeps & { secrets: SecretBox }, ctx: CallerContext) {
  return (await store.listPasswords(deps.store.db, ctx.orgUuid)).map((row) => ({
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    username: row.username,
    password: maskSecret(deps.secrets.open(row.password_sealed, passwordIdentity(row.uuid))),
    notes: row.notes,
  }));
}

export async function deletePassword(deps: Pick<Deps, 'store' | 'bus' | 'clock'>, ctx: CallerContext, uuid: string) {
  await write(deps, ctx, async (w) => {
    const row = await store.findPassword(w.tx, ctx.orgUuid, uuid);
    if (!row) throw fail('NOT_FOUND', 'Third-party camera password');
    await store.deletePassword(w.tx, ctx.orgUuid, uuid);
    w.change({
      entity: 'THIRD_PARTY_CAMERA_PASSWORD',
      entityUuid: uuid,
      type: 'DELETE',
      update: { uuid, orgUuid: ctx.orgUuid, username: row.username, notes: row.notes },
    });
  });
}

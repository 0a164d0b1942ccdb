import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet, facetId, isRuuid } from '../../../ids.js';
import type { ReadSource } from '../../../store/reader.js';
import { write } from '../../../bus/write.js';
import { normaliseMac } from '../identifiers.js';
import { findDevice, healthDetailsOf, findDiscovery, type DeviceRecord } from '../service.js';
import * as store from '../store.js';
import { DEFAULT_CAMERA_MODEL } from './store.js';

/** The facets a camera streams: its main video, `v0` (the facet id `<camera uuid>.v0`). */
export const CAMERA_FACETS: readonly string[] = ['v0'];

/** A camera of the organization by uuid or facet id (`<uuid>.v0`); null for a missing one or another organization's. */
export async function findCamera(source: ReadSource, orgUuid: string, uuidOrFacet: string): Promise<DeviceRecord | null> {
  const uuid = isRuuid(uuidOrFacet) ? uuidOrFacet : deviceOfFacet(uuidOrFacet);
  return uuid ? findDevice(source, orgUuid, uuid, ['CAMERA']) : null;
}

/** The facet names of a camera: its facet ids to its name. */
function facetNames(camera: DeviceRecord): Record<string, string> {
  const names: Record<string, string> = {};
  for (const facet of CAMERA_FACETS) names[facetId(camera.uuid, facet)] = camera.name;
  return names;
}

const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);

/** The hardware model the camera registered as (site file, batch registration), else the default model. */
export const hwVariationOf = (camera: DeviceRecord): string =>
  typeof camera.attributes.hwVariation === 'string' ? camera.attributes.hwVariation : DEFAULT_CAMERA_MODEL;

/**
 * A camera's MinimalCameraState; minimalCameraStatesJson (cameras.store.ts) writes the same in SQL, for the list.
 * Whether a live stream of it is shared is another table's: given by the list, left out of the stream's
 * announcements (which carry the camera's own record).
 */
export function toMinimalCameraState(camera: DeviceRecord, liveStreamShared?: boolean) {
  const a = camera.attributes;
  return {
    uuid: camera.uuid,
    name: camera.name,
    locationUuid: camera.locationUuid,
    connectionStatus: camera.connectionStatus,
    healthStatus: camera.healthStatus,
    healthStatusDetails: healthDetailsOf(camera),
    // Unknown strings and lists are empty, as the platform answers them (clients print and index them unchecked).
    firmwareVersion: camera.firmwareVersion ?? '',
    serialNumber: camera.serialNumber ?? '',
    hwVariation: hwVariationOf(camera),
    supportedFacets: CAMERA_FACETS.slice(),
    facetNameMap: facetNames(camera),
    defaultInterfaceMac: camera.macAddress,
    lanAddresses: Array.isArray(a.lanAddresses) ? a.lanAddresses.filter((v): v is string => typeof v === 'string') : [],
    latitude: num(a.latitude),
    longitude: num(a.longitude),
    directionRadians: num(a.directionRadians),
    ...(liveStreamShared === undefined ? {} : { liveStreamShared }),
    mummified: false,
    createdAtMillis: camera.createdAtMillis,
  };
}

/** `deleteThirdPartyCameraDiscovery`: only a discovery with no assignments is deleted (the specification's rule). */
export async function deleteThirdPartyCameraDiscovery(deps: Pick<Deps, 'store' | 'bus' | 'clock'>, ctx: CallerContext, macAddress: string): Promise<void> {
  const mac = normaliseMac(macAddress);
  if (!mac) throw fail('INVALID_VALUE', `thirdPartyCameraMacAddress: "${macAddress}" is not a MAC address`);
  await write(deps, ctx, async (w) => {
    const discovery = await findDiscovery(w, ctx.orgUuid, mac);
    if (!discovery) throw fail('NOT_FOUND', `Third-party camera discovery ${mac}`);
    if (discovery.assignments > 0) {
      throw fail('NOT_ALLOWED', `Third-party camera discovery ${mac} has ${discovery.assignments} assignment(s); remove them before deleting it`);
    }
    await store.deleteDiscovery(w.tx, ctx.orgUuid, mac);
    w.change({ entity: 'THIRD_PARTY_CAMERA_DISCOVERY', entityUuid: mac, type: 'DELETE', update: discovery });
  });
}

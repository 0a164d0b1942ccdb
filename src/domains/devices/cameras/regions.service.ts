import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import type { ReadSource } from '../../../store/reader.js';
import { listDevices, type DeviceRecord } from '../service.js';
import { polygonProblem, type Point } from './region-polygons.js';
import type { RegionOfInterestGroups } from './regions.schemas.js';

/**
 * A camera's regions of interest (`region_of_interest_groups` of its settings): checked and given their uuids
 * when set, and found by uuid for the REGION scope of the count reports (events/reports).
 */

/** The kinds of device whose settings hold regions (a doorbell camera keeps a camera's settings). */
const REGION_KINDS = ['CAMERA', 'DOORBELL_CAMERA'] as const;

/** A region of a camera, as the reports count it. */
export interface CameraRegion {
  uuid: string;
  name: string | null;
  deviceUuid: string;
  groupType: string;
  polygon: Point[];
}

type StoredGroups = Array<{
  inclusive: boolean;
  type: string;
  regionsOfInterest: Array<{ uuid: string; name: string | null; activities: string[]; polygon: { coordinates: Point[] } }>;
}>;

/** The regions a camera's settings hold, in the order of their groups. */
export function regionsOf(camera: DeviceRecord): CameraRegion[] {
  const config = (camera.attributes.config ?? {}) as { region_of_interest_groups?: StoredGroups | null };
  return (config.region_of_interest_groups ?? []).flatMap((group) =>
    group.regionsOfInterest.map((r) => ({ uuid: r.uuid, name: r.name, deviceUuid: camera.uuid, groupType: group.type, polygon: r.polygon.coordinates })),
  );
}

/** Every region of the organization's cameras, by camera then group order (one query). */
export async function listOrgRegions(source: ReadSource, orgUuid: string): Promise<CameraRegion[]> {
  return (await listDevices(source, orgUuid, REGION_KINDS)).flatMap(regionsOf);
}

/** A region of the organization by uuid; null for a missing one or another organization's. */
export async function findRegion(source: ReadSource, orgUuid: string, uuid: string): Promise<CameraRegion | null> {
  return (await listOrgRegions(source, orgUuid)).find((r) => r.uuid === uuid) ?? null;
}

/**
 * The groups as the camera keeps them: each region's polygon checked (a malformed one is a 400 naming it), each
 * region given a uuid when it has none, and the defaults filled in (inclusive, type ACTIVITY, no activities). A
 * uuid is unique in the organization: twice in the list is a 400, one of another camera's regions a conflict.
 */
export async function checkRegionGroups(source: ReadSource, camera: DeviceRecord, groups: RegionOfInterestGroups): Promise<StoredGroups> {
  const field = 'region_of_interest_groups';
  const seen = new Set<string>();
  const stored: StoredGroups = groups.map((group, g) => ({
    inclusive: group.inclusive ?? true,
    type: group.type ?? 'ACTIVITY',
    regionsOfInterest: group.regionsOfInterest.map((region, r) => {
      const at = `${field}[${g}].regionsOfInterest[${r}]`;
      const coordinates = region.polygon.coordinates.map(({ x, y }) => ({ x, y }));
      const problem = polygonProblem(coordinates);
      if (problem) throw fail('INVALID_REQUEST', `${at}.polygon: ${problem}`);
      const uuid = region.uuid ?? newRuuid();
      if (seen.has(uuid)) throw fail('INVALID_REQUEST', `${at}.uuid: ${uuid} names two regions`);
      seen.add(uuid);
      return { uuid, name: region.name ?? null, activities: region.activities ?? [], polygon: { coordinates } };
    }),
  }));
  const others = (await listOrgRegions(source, camera.orgUuid)).filter((r) => r.deviceUuid !== camera.uuid);
  const taken = others.find((r) => seen.has(r.uuid));
  if (taken) throw fail('CONFLICT', `${field}: region ${taken.uuid} is a region of another camera`);
  return stored;
}

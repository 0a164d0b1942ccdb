import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { getLocations, type LocationView } from './service.js';

/** How near a point a location's coordinates must be for `getLocationsByGeo` to answer it. */
export const GEO_MATCH_RADIUS_M = 1000;
const EARTH_RADIUS_M = 6_371_000;

/** Great-circle distance in metres (haversine). */
export function distanceM(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

const placed = (l: LocationView): l is LocationView & { latitude: number; longitude: number } => l.latitude != null && l.longitude != null;

/** `getLocationsByGeo`: the organization's locations within GEO_MATCH_RADIUS_M of the point, nearest first. */
export async function locationsNear(deps: Pick<Deps, 'store'>, ctx: CallerContext, point: { latitude: number; longitude: number }) {
  const all = (await getLocations(deps, ctx, { subLocationsIncluded: true })).filter(placed);
  return all
    .map((l) => ({ l, d: distanceM(point, l) }))
    .filter((x) => x.d <= GEO_MATCH_RADIUS_M)
    .sort((a, b) => a.d - b.d)
    .map((x) => x.l);
}

const words = (s: string) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * `geoCode`: Gatehouse runs no geocoding service of its own and calls none (it keeps no network dependency),
 * so an address resolves against what the organization already placed: the location whose address (street,
 * city, postal code) every word of the query is found in, and which has coordinates. Anything else is unknown.
 */
export async function geoCode(deps: Pick<Deps, 'store'>, ctx: CallerContext, address: string) {
  const query = words(address);
  if (!query) throw fail('INVALID_VALUE', 'address: must not be empty');
  const terms = query.split(' ');
  for (const l of (await getLocations(deps, ctx, {})).filter(placed)) {
    const haystack = ` ${words([l.name, l.address1, l.address2, l.city, l.postalCode, l.countryCode].filter(Boolean).join(' '))} `;
    if (terms.every((t) => haystack.includes(` ${t} `))) return { latitude: l.latitude, longitude: l.longitude };
  }
  throw fail('NOT_FOUND', `Address "${address.slice(0, 200)}" (no location of the organization with coordinates has it)`);
}

/**
 * `getLocationsBySubLocationsHierarchyKey`: the key is a path of locations from a top-level one down, each a
 * sub-location of the one before; the answer is the path's last location with its direct sub-locations.
 */
export async function locationByHierarchyKey(deps: Pick<Deps, 'store'>, ctx: CallerContext, path: readonly string[]) {
  if (path.length === 0) throw fail('INVALID_VALUE', 'subLocationsHierarchyKey.locationUuids: must name at least one location');
  const all = await getLocations(deps, ctx, { subLocationsIncluded: true });
  const byUuid = new Map(all.map((l) => [l.uuid, l]));
  let parent: string | null = null;
  let at: LocationView | undefined;
  for (const [i, uuid] of path.entries()) {
    at = byUuid.get(uuid);
    if (!at) throw fail('NOT_FOUND', `Location ${uuid}`);
    if ((at.parentLocationUuid ?? null) !== parent) {
      throw fail(
        'INVALID_VALUE',
        `subLocationsHierarchyKey.locationUuids[${i}]: location ${uuid} is not ${parent ? `a sub-location of ${parent}` : 'a top-level location'}`,
      );
    }
    parent = uuid;
  }
  return at!;
}

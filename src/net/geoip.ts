import { createRequire } from 'node:module';
import { isPublicAddress } from './address-policy.js';

/** Where a client address is, as the audit feed answers it: codes, or empty strings when unknown. */
export interface GeoPlace {
  city: string;
  state: string;
  country: string;
}

/** What an address that is not public (loopback, private, link-local, ...) or not in the database answers. */
export const NO_PLACE: GeoPlace = { city: '', state: '', country: '' };

interface GeoIpLite {
  lookup(ip: string): { city?: string; region?: string; country?: string } | null;
}

let database: GeoIpLite | null = null;

/**
 * The place of a client address, from the GeoLite2 data that the geoip-lite package ships: offline, never a
 * network call. The data (about 100 MB in memory) is loaded on the first public address, so a server that only
 * sees loopback and private clients never loads it. An IPv4 address mapped into IPv6 is looked up as IPv4.
 */
export function geoLocate(address: string | null | undefined): GeoPlace {
  if (!address) return NO_PLACE;
  if (address === last.address) return last.place;
  const place = lookUp(address);
  last = { address, place };
  return place;
}

/**
 * The last address looked up and its place (the data never changes while the server runs): an audit page's rows
 * mostly share one address, and telling a public address from another costs a parse of it.
 */
let last: { address: string; place: GeoPlace } = { address: '', place: NO_PLACE };

function lookUp(address: string): GeoPlace {
  if (!isPublicAddress(address)) return NO_PLACE;
  database ??= createRequire(import.meta.url)('geoip-lite') as GeoIpLite;
  const found = database.lookup(address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1'));
  return found ? { city: found.city ?? '', state: found.region ?? '', country: found.country ?? '' } : NO_PLACE;
}

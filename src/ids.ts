import { randomBytes, randomUUID } from 'node:crypto';

/** A RUUID: a random UUID's 16 bytes in URL-safe base-64 without padding (22 characters). */
export function newRuuid(): string {
  return Buffer.from(randomUUID().replaceAll('-', ''), 'hex').toString('base64url');
}

export const RUUID_PATTERN = '^[A-Za-z0-9_-]{22}$';
const ruuid = new RegExp(RUUID_PATTERN);

export function isRuuid(value: unknown): value is string {
  return typeof value === 'string' && ruuid.test(value);
}

/** A device facet id is `<RUUID>.<suffix>`, for example `<camera uuid>.v0`. */
export const FACET_ID_PATTERN = '^[A-Za-z0-9_-]{22}\\.[A-Za-z0-9]+$';

export function facetId(deviceUuid: string, suffix = 'v0'): string {
  return `${deviceUuid}.${suffix}`;
}

/** The device RUUID a facet id belongs to, or null when the value is not a facet id. */
export function deviceOfFacet(value: string): string | null {
  const dot = value.indexOf('.');
  if (dot !== 22) return null;
  const device = value.slice(0, 22);
  return isRuuid(device) && /^[A-Za-z0-9]+$/.test(value.slice(23)) ? device : null;
}

/** The device uuid a reference names: a RUUID as it is, a facet id (`<uuid>.v0`) by its device; null otherwise. */
export function deviceUuidOf(ref: string): string | null {
  return isRuuid(ref) ? ref : deviceOfFacet(ref);
}

/** An opaque random token with at least `bits` bits of entropy. */
export function randomToken(bits = 192): string {
  return randomBytes(Math.ceil(bits / 8)).toString('base64url');
}

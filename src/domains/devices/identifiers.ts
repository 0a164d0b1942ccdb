import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/**
 * A MAC address in its one stored form (lowercase hex pairs joined by colons), from any of the usual
 * spellings: `00:11:22:AA:BB:CC`, `00-11-22-aa-bb-cc`, `0011.22aa.bbcc`, `001122aabbcc`. Null when it is not one.
 */
const MAC_SPELLINGS = [/^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/i, /^[0-9a-f]{2}(-[0-9a-f]{2}){5}$/i, /^[0-9a-f]{4}(\.[0-9a-f]{4}){2}$/i, /^[0-9a-f]{12}$/i];

export function normaliseMac(value: string): string | null {
  const trimmed = value.trim();
  if (!MAC_SPELLINGS.some((spelling) => spelling.test(trimmed))) return null;
  return trimmed.replace(/[:.-]/g, '').toLowerCase().match(/../g)!.join(':');
}

/** A monitoring pin: 4 to 8 digits. */
export const PIN_PATTERN = /^[0-9]{4,8}$/;

/** Pins are short, so they are stored as a salted scrypt digest, never as text: `scrypt$<salt>$<digest>`. */
export function digestPin(pin: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64url')}$${scryptSync(pin, salt, 32).toString('base64url')}`;
}

export function pinMatches(pin: string, stored: string | null): boolean {
  if (!stored) return false;
  const [scheme, salt, digest] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !digest) return false;
  const expected = Buffer.from(digest, 'base64url');
  const actual = scryptSync(pin, Buffer.from(salt, 'base64url'), expected.length);
  return timingSafeEqual(actual, expected);
}

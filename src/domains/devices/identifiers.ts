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

/** Pins are short, so they are stored as a salted scrypt digest, never as text (src/secrets.ts). */
export { digestSecret as digestPin, secretMatches as pinMatches } from '../../secrets.js';

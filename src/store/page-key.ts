import { fail } from '../errors.js';

/**
 * Opaque `lastEvaluatedKey` strings: the keyset position of the last item of a page, as URL-safe base-64
 * JSON. Clients pass them back untouched; a key that does not decode to the expected shape is refused.
 */
export function encodePageKey(parts: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');
}

export function decodePageKey<T extends readonly ('string' | 'number')[]>(key: string, shape: T): { [K in keyof T]: T[K] extends 'number' ? number : string } {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(key, 'base64url').toString('utf8'));
  } catch {
    parts = null;
  }
  const valid =
    Array.isArray(parts) && parts.length === shape.length && parts.every((p, i) => (shape[i] === 'number' ? Number.isSafeInteger(p) : typeof p === 'string'));
  if (!valid) throw fail('INVALID_VALUE', 'lastEvaluatedKey: not a key this operation returned');
  return parts as never;
}

/**
 * A page out of the `limit + 1` rows a keyset query read: the first `limit` rows, and the key of the last of
 * them while the extra row shows that more follow.
 */
export function pageOf<R>(rows: readonly R[], limit: number, keyOf: (row: R) => readonly (string | number)[]): { page: R[]; lastEvaluatedKey: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, lastEvaluatedKey: rows.length > limit && last !== undefined ? encodePageKey(keyOf(last)) : null };
}

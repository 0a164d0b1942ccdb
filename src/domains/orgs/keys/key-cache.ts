import type { ApiKeysTable } from '../tables.js';

/**
 * A short-lived cache of key records by digest, so that a busy client does not cost a store read per call.
 * A revocation announced on the bus (`key.revoked`) is forgotten at once on every instance that shares the
 * bus; one that was not (a key revoked straight in the store) stops working within TTL_MS. A reset or
 * restore of the store clears the cache at once. Only found keys are cached: an unknown key always reaches
 * the store.
 */
export interface KeyCache {
  get(digest: string, nowMs: number): ApiKeysTable | undefined;
  set(digest: string, key: ApiKeysTable, nowMs: number): void;
  /** Forgets the key with this id, whatever its digest: after a revocation announced on the bus. */
  forgetKey(keyId: string): void;
  /** Forgets every key: after the store was reset or restored. */
  clear(): void;
}

export const KEY_CACHE_TTL_MS = 5000;
const MAX_ENTRIES = 10_000;

export function createKeyCache(ttlMs = KEY_CACHE_TTL_MS): KeyCache {
  const entries = new Map<string, { key: ApiKeysTable; expiresAtMs: number }>();
  return {
    get(digest, nowMs) {
      const entry = entries.get(digest);
      if (!entry) return undefined;
      if (entry.expiresAtMs <= nowMs) {
        entries.delete(digest);
        return undefined;
      }
      return entry.key;
    },
    set(digest, key, nowMs) {
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(digest, { key, expiresAtMs: nowMs + ttlMs });
    },
    forgetKey(keyId) {
      // Revocations are rare and the cache is bounded: a scan beats keeping a second index.
      for (const [digest, entry] of entries) if (entry.key.id === keyId) entries.delete(digest);
    },
    clear() {
      entries.clear();
    },
  };
}

declare module '../../../deps.js' {
  interface Deps {
    /** This instance's short-lived cache of API keys. */
    keyCache: KeyCache;
  }
}

import type { ApiKeysTable } from './tables.js';

/**
 * A short-lived cache of key records by digest, so that a busy client does not cost a store read per call.
 * A key revoked in the store stops working within TTL_MS on every instance; a reset or restore of the store
 * clears the cache at once. Only found keys are cached: an unknown key always reaches the store.
 */
export interface KeyCache {
  get(digest: string, nowMs: number): ApiKeysTable | undefined;
  set(digest: string, key: ApiKeysTable, nowMs: number): void;
  delete(digest: string): void;
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
    delete(digest) {
      entries.delete(digest);
    },
    clear() {
      entries.clear();
    },
  };
}

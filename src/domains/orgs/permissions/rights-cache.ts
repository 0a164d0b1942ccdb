import type { Rights } from '../../../edge/rights.js';

/**
 * This instance's short-lived cache of each user's rights, so that the permission check of a call costs a
 * map lookup. A change of groups or of a user's group clears it at once on every instance sharing the bus
 * (`permissions.changed`); an instance that misses the announcement follows within TTL_MS.
 */
export interface RightsCache {
  get(userUuid: string, nowMs: number): Rights | undefined;
  set(userUuid: string, rights: Rights, nowMs: number): void;
  clear(): void;
}

export const RIGHTS_CACHE_TTL_MS = 5000;
const MAX_ENTRIES = 10_000;

export function createRightsCache(ttlMs = RIGHTS_CACHE_TTL_MS): RightsCache {
  const entries = new Map<string, { rights: Rights; expiresAtMs: number }>();
  return {
    get(userUuid, nowMs) {
      const entry = entries.get(userUuid);
      if (!entry) return undefined;
      if (entry.expiresAtMs > nowMs) return entry.rights;
      entries.delete(userUuid);
      return undefined;
    },
    set(userUuid, rights, nowMs) {
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(userUuid, { rights, expiresAtMs: nowMs + ttlMs });
    },
    clear() {
      entries.clear();
    },
  };
}

declare module '../../../deps.js' {
  interface Deps {
    /** This instance's short-lived cache of users' rights. */
    rightsCache: RightsCache;
  }
}

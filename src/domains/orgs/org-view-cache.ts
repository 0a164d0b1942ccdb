import type { OrgView } from './org-settings.service.js';

/**
 * This instance's short-lived cache of organization views (getOrgV2, getOrganization), so that a client polling
 * its organization does not cost three store reads per call (on PostgreSQL a round trip, most of the call).
 * Every write that changes a view forgets it here at once, after its commit, and on every instance that shares
 * the bus through `org.changed` (orgViewChanged in org-settings.service.ts); one that was not announced (a row
 * changed straight in the store) shows within TTL_MS. A reset or restore of the store clears the cache.
 *
 * A read that began before a forget does not store what it read: it may have read the state before the commit.
 * The views handed out are shared between calls and must not be changed.
 */
export interface OrgViewCache {
  /** The organization's view: from memory when read within TTL_MS and not forgotten since, else from `read`. */
  view(orgUuid: string, nowMs: number, read: () => Promise<OrgView>): OrgView | Promise<OrgView>;
  forget(orgUuid: string): void;
  clear(): void;
}

export const ORG_VIEW_CACHE_TTL_MS = 5000;
const MAX_ENTRIES = 10_000;

export function createOrgViewCache(ttlMs = ORG_VIEW_CACHE_TTL_MS): OrgViewCache {
  const entries = new Map<string, { view: OrgView; expiresAtMs: number }>();
  // Counts forgets: a read stores its view only if none happened while it ran. Forgets are rare (a write to an
  // organization's profile, settings or partner grants), so one counter for all organizations costs nothing.
  let forgets = 0;

  async function readAndKeep(orgUuid: string, nowMs: number, read: () => Promise<OrgView>): Promise<OrgView> {
    const forgetsBefore = forgets;
    const view = await read();
    if (forgets === forgetsBefore) {
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(orgUuid, { view, expiresAtMs: nowMs + ttlMs });
    }
    return view;
  }

  return {
    view(orgUuid, nowMs, read) {
      const entry = entries.get(orgUuid);
      if (entry && entry.expiresAtMs > nowMs) return entry.view;
      if (entry) entries.delete(orgUuid);
      return readAndKeep(orgUuid, nowMs, read);
    },
    forget(orgUuid) {
      forgets++;
      entries.delete(orgUuid);
    },
    clear() {
      forgets++;
      entries.clear();
    },
  };
}

import type { Deps } from '../../../deps.js';
import { SizedLru } from '../../../sized-lru.js';
import { lastChangePosition } from '../../../store/change-log.js';
import * as liveShareStore from '../live-shares/store.js';
import { CAMERA_FACETS } from './service.js';
import * as cameraStore from './store.js';

/**
 * The camera list's states (minimalCameraStatesJson: 44 ms of SQLite's time at 10,000 cameras, 74 ms of
 * PostgreSQL's) as last written for each organization, answered again while nothing of the organization changed.
 * "Nothing changed" is its change position (store/change-log.ts), read before the list: every write of a camera,
 * a share or anything else of the organization logs a change in its own transaction, so a list written after the
 * read is at least as new as the position it is kept under, and the next write makes it stale. The one thing that
 * changes without a write is a share's expiry (liveStreamShared), so a list is kept only until the first one.
 * The position is the store's, so every instance on one store keeps its lists current; each holds its own.
 */
interface Held {
  position: number;
  validUntilMs: number;
  json: string | Buffer;
  /** The text's length: what the cache's bound counts. */
  length: number;
}

/** The most bytes of lists one store's cache holds: the least recently used go first. */
const MAX_BYTES = 64 * 1024 * 1024;

const caches = new WeakMap<object, SizedLru<Held>>();

/** The organization's cameras' MinimalCameraState array as JSON text (or its bytes), from the cache when current. */
export async function cameraStatesJson(deps: Pick<Deps, 'store' | 'clock'>, orgUuid: string): Promise<string | Buffer> {
  const db = deps.store.db;
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new SizedLru<Held>(MAX_BYTES)));
  const position = await lastChangePosition(db, orgUuid);
  const nowMs = deps.clock.now();
  const held = cache.get(orgUuid);
  if (held && held.position === position && nowMs < held.validUntilMs) return held.json;
  const json = await cameraStore.minimalCameraStatesJson(db, deps.store.dialect, orgUuid, ['CAMERA'], CAMERA_FACETS, nowMs);
  const validUntilMs = (await liveShareStore.nextShareExpiry(db, orgUuid, nowMs)) ?? Infinity;
  cache.set(orgUuid, { position, validUntilMs, json, length: json.length });
  return json;
}

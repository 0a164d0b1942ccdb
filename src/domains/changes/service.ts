import type { ChangeEvent } from '../../store/change-event.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import * as store from './store.js';

/**
 * The durable change log read by position: what the stream replays on a SUBSCRIBE with `resume-after`, and what
 * the REST extension `listChangesAfter` answers to clients that poll. A position is the organization's own count
 * of its changes (1, 2, 3, ... without gaps), carried by every MESSAGE in its `position` header.
 */
type LogDeps = Pick<Deps, 'store'>;

export const MAX_PAGE = 1000;

/** Why a position cannot be resumed from, or null when it can. */
export async function positionProblem(deps: LogDeps, orgUuid: string, afterPosition: number): Promise<{ message: string; detail: string } | null> {
  const bounds = await store.logBounds(deps.store.db, orgUuid);
  if (afterPosition > bounds.last) {
    return {
      message: 'Unknown position',
      detail: `position ${afterPosition} is past the organization's last change (${bounds.last}): the store was reset or restored since; start again without a position`,
    };
  }
  if (afterPosition < bounds.prunedThrough) {
    return {
      message: 'Position too old',
      detail: `the change log no longer holds the changes after position ${afterPosition} (kept: after ${bounds.prunedThrough}, for the retention period); start again without a position`,
    };
  }
  return null;
}

export interface ChangePage {
  changes: ChangeEvent[];
  /** The position of the last change answered, or the position asked for when none. */
  lastPosition: number;
  /** The organization's newest position now: more changes wait when it is past lastPosition. */
  latestPosition: number;
}

/** The organization's changes after a position, oldest first; refused when the position cannot be resumed from. */
export async function changesAfterPosition(deps: LogDeps, orgUuid: string, afterPosition: number, limit = MAX_PAGE): Promise<ChangePage> {
  const problem = await positionProblem(deps, orgUuid, afterPosition);
  if (problem) throw fail('INVALID_VALUE', `${problem.message}: ${problem.detail}`);
  const changes = await store.changesAfter(deps.store.db, orgUuid, afterPosition, Math.min(Math.max(1, limit), MAX_PAGE));
  const { last } = await store.logBounds(deps.store.db, orgUuid);
  return { changes, lastPosition: changes.length > 0 ? changes[changes.length - 1]!.position : afterPosition, latestPosition: last };
}

/** Read-through for the stream's sequencer: the changes with `after < position <= upTo`. */
export const changesBetween = (deps: LogDeps, orgUuid: string, after: number, upTo: number, limit = 10_000) =>
  store.changesAfter(deps.store.db, orgUuid, after, limit, upTo);

export const lastPositions = (deps: LogDeps, orgUuids: string[]) => store.lastPositions(deps.store.db, orgUuids);

export const storeIdentity = (deps: LogDeps) => store.storeIdentity(deps.store.db);

const PRUNE_BATCH = 5000;

/** Removes the changes logged before `cutoffMs`, in batches; answers how many went. */
export async function pruneChangeLog(deps: LogDeps, cutoffMs: number): Promise<number> {
  const through = await store.lastIdLoggedBefore(deps.store.db, cutoffMs);
  if (through === null) return 0;
  let removed = 0;
  for (let i = 0; i < 100_000; i++) {
    const n = await store.pruneBatch(deps.store.db, through, PRUNE_BATCH);
    removed += n;
    if (n === 0) break;
  }
  return removed;
}

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** Applies the change log's retention (`GATEHOUSE_CHANGE_LOG_RETENTION_DAYS`) shortly after start, then hourly. */
export function startChangeLogRetention(deps: Pick<Deps, 'store' | 'clock' | 'log' | 'config'>): { stop(): void } {
  const run = () =>
    void pruneChangeLog(deps, deps.clock.now() - deps.config.changeLogRetentionMs)
      .then((n) => n > 0 && deps.log.info({ removed: n }, 'change log: changes past the retention removed'))
      .catch((err) => deps.log.error({ err }, 'change log: applying the retention failed'));
  const first = setTimeout(run, 10_000).unref();
  const every = setInterval(run, PRUNE_EVERY_MS).unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(every);
    },
  };
}

/** The change log read by id across organizations, for delivery workers that keep their own cursor (org webhooks). */
export { latestChangeEventId, positionAtOrBeforeId } from './store.js';

import type { Bus } from './bus.js';
import type { ChangeEvent, ChangeType } from '../store/change-event.js';
import { hasPendingChanges, orgsWithPendingChanges, positionPending, type LoggedChange } from '../store/change-log.js';
import type { Store } from '../store/database.js';

/**
 * Numbers an organization's changes in batches on PostgreSQL (issue 36). A write commits its changes unnumbered
 * (`change_pending`, src/store/change-log.ts stageChanges), without its organization's position lock, so the
 * commits of one organization's writes flush together; then it asks the positioner for its organization, which
 * moves every change committed and still pending into the change log in one transaction (positionPending: the
 * lock, two statements, one WAL flush however many changes), and announces them on the bus in position order.
 * Before, each write took the lock itself and held it through its commit's flush: one organization committed one
 * write per flush (docs/performance.md).
 *
 * One run at a time per organization and instance: a write that asks while a run is under way is taken by the next
 * run, which starts when the current one ends and so serves every write that asked meanwhile. Instances share the
 * lock: a run of another instance may move (and announce) a write's changes, and the write's own run then finds
 * nothing left. A write answers once a run begun after its commit has ended: its changes are numbered and
 * announced by then. Changes whose writer stopped before asking are numbered by the next write of their
 * organization, or by the sweep (`sweep`, every few seconds and at start, src/app.ts).
 */
export class ChangePositioner {
  private readonly runs = new Map<string, { current: Promise<void>; next: Promise<void> | null }>();
  /** The records of this instance's staged changes, by pending id: announced as they are, not parsed again. */
  private readonly staged = new Map<number, LoggedChange>();

  constructor(
    private readonly store: Store,
    private readonly bus: Pick<Bus, 'publish'>,
  ) {}

  /** Numbers and announces the changes a committed write staged (their pending ids beside them). */
  async settle(changes: ReadonlyArray<{ pendingId: number; change: LoggedChange }>): Promise<void> {
    for (const { pendingId, change } of changes) this.staged.set(pendingId, change);
    try {
      await Promise.all([...new Set(changes.map((c) => c.change.orgUuid))].map((org) => this.runAfterNow(org)));
    } finally {
      for (const { pendingId } of changes) this.staged.delete(pendingId);
    }
  }

  /** Numbers whatever is pending in any organization. */
  async sweep(): Promise<void> {
    const orgs = await orgsWithPendingChanges(this.store.db);
    await Promise.all(orgs.map((org) => this.runAfterNow(org)));
  }

  /** A run of the organization that starts after this call. */
  private runAfterNow(org: string): Promise<void> {
    const state = this.runs.get(org);
    if (!state) {
      const current = this.run(org).finally(() => this.advance(org));
      this.runs.set(org, { current, next: null });
      return current;
    }
    state.next ??= state.current.catch(() => {}).then(() => this.run(org));
    return state.next;
  }

  /** A run ended: the next one (already started after it) becomes the current one, or the organization is idle. */
  private advance(org: string): void {
    const state = this.runs.get(org)!;
    if (!state.next) {
      this.runs.delete(org);
      return;
    }
    const current = state.next.finally(() => this.advance(org));
    current.catch(() => {});
    this.runs.set(org, { current, next: null });
  }

  private async run(org: string): Promise<void> {
    // Nothing pending (an earlier run, here or on another instance, took this write's changes): no transaction.
    if (!(await hasPendingChanges(this.store.db, org))) return;
    const rows = await this.store.transaction((tx) => positionPending(tx, org));
    for (const row of rows) {
      const change = this.staged.get(row.pending_id);
      const event: ChangeEvent = change
        ? { id: row.id, position: row.position, ...change }
        : {
            id: row.id,
            position: row.position,
            orgUuid: org,
            entity: row.entity,
            entityUuid: row.entity_uuid,
            type: row.type as ChangeType,
            deviceUuid: row.device_uuid,
            timestampMs: row.timestamp_ms,
            update: JSON.parse(row.payload) as unknown,
          };
      // The change is durable in the change log; a bus hiccup must not turn a committed write into an error.
      await this.bus.publish('change', event).catch(() => {});
    }
  }
}

const positioners = new WeakMap<Store, ChangePositioner>();

/** The positioner of a store (one per store and instance). */
export function positionerOf(store: Store, bus: Pick<Bus, 'publish'>): ChangePositioner {
  let positioner = positioners.get(store);
  if (!positioner) positioners.set(store, (positioner = new ChangePositioner(store, bus)));
  return positioner;
}

/** Sweeps the store's pending changes now and every `everyMs` (PostgreSQL; nothing on SQLite). */
export function startPendingSweep(store: Store, bus: Pick<Bus, 'publish'>, onError: (err: unknown) => void, everyMs = 5000): { stop(): Promise<void> } {
  if (store.dialect !== 'postgres') return { stop: async () => {} };
  const positioner = positionerOf(store, bus);
  let running: Promise<void> = positioner.sweep().catch(onError);
  const timer = setInterval(() => {
    running = running.then(() => positioner.sweep().catch(onError));
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

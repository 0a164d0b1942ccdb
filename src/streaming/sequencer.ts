import type { ChangeEvent } from '../bus/events.js';

export interface SequencerDeps {
  /** Committed changes with `afterId < id <= upToId`, oldest first (the durable change log). */
  readRange(afterId: number, upToId: number): Promise<ChangeEvent[]>;
  deliver(event: ChangeEvent): void;
  onError(error: unknown): void;
  gapWaitMs: number;
}

/** Changes held back behind a gap before the gap is filled at once, whatever the wait. */
const MAX_HELD = 10_000;
/** Ids remembered as skipped, so that one that commits late is still delivered (once). */
const MAX_SKIPPED = 10_000;

/**
 * Puts the changes announced on the bus back in change-log order before they are delivered.
 *
 * Ids come from one database sequence, but writers on several instances commit (and announce) out of
 * order, and an announcement may be lost. A change whose predecessor has not arrived is held for
 * `gapWaitMs`; then the gap is read from the change log (which also recovers a lost announcement), and
 * whatever is still missing there (a rolled-back write, or one still uncommitted) is skipped. A skipped id that shows up later is delivered late rather
 * than lost; an id already delivered (read through, then announced) is dropped.
 */
export class ChangeSequencer {
  private last: number | null = null;
  private readonly held = new Map<number, ChangeEvent>();
  private readonly skipped = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private filling = false;
  private stopped = false;

  constructor(private readonly deps: SequencerDeps) {}

  /** Starts ordering after `lastId`; changes accepted before are held until then. */
  start(lastId: number): void {
    this.last = lastId;
    for (const id of this.held.keys()) if (id <= lastId) this.held.delete(id);
    this.drain();
  }

  accept(event: ChangeEvent): void {
    if (this.stopped) return;
    if (this.last !== null && event.id <= this.last) {
      if (this.skipped.delete(event.id)) this.deps.deliver(event);
      return;
    }
    this.held.set(event.id, event);
    this.drain();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.held.clear();
  }

  private drain(): void {
    if (this.last === null || this.filling || this.stopped) return;
    let next: ChangeEvent | undefined;
    while ((next = this.held.get(this.last + 1))) {
      this.held.delete(next.id);
      this.last = next.id;
      this.deps.deliver(next);
    }
    if (this.held.size === 0) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
    } else if (this.held.size >= MAX_HELD) {
      void this.fill();
    } else {
      this.timer ??= setTimeout(() => void this.fill(), this.deps.gapWaitMs);
    }
  }

  /**
   * Reads the gap from the change log and delivers, in order, everything up to the newest logged change.
   * A change is announced only after it commits, so a held change that the log does not hold is not of
   * this store (another deployment on the same bus): it is dropped rather than let it move the sequence.
   */
  private async fill(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.filling || this.last === null || this.held.size === 0) return;
    this.filling = true;
    const from = this.last;
    const before = [...this.held.keys()];
    const upTo = Math.max(...before);
    let logged: ChangeEvent[];
    try {
      logged = await this.deps.readRange(from, upTo);
    } catch (e) {
      // Without the log the held changes still go out, in order; only the gap is lost.
      this.deps.onError(e);
      logged = before.sort((a, b) => a - b).map((id) => this.held.get(id)!);
    }
    if (this.stopped) return;
    const byId = new Map(logged.map((e) => [e.id, e]));
    const reached = logged.length > 0 ? logged[logged.length - 1]!.id : from;
    for (const id of before) if (!byId.has(id)) this.held.delete(id);
    for (let id = from + 1; id <= reached; id++) {
      const event = byId.get(id) ?? this.held.get(id);
      this.held.delete(id);
      if (event) this.deps.deliver(event);
      else this.remember(id);
    }
    this.last = reached;
    this.filling = false;
    // Changes announced while the log was read, at or below `reached`, committed after the read: late.
    for (const [id, event] of this.held) {
      if (id <= reached) {
        this.held.delete(id);
        this.skipped.delete(id);
        this.deps.deliver(event);
      }
    }
    this.drain();
  }

  private remember(id: number): void {
    this.skipped.add(id);
    if (this.skipped.size > MAX_SKIPPED) this.skipped.delete(this.skipped.values().next().value!);
  }
}

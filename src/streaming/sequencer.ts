import type { ChangeEvent } from '../store/change-event.js';

export interface SequencerDeps {
  /** The organization's last position in the durable change log (0: none). */
  lastPosition(orgUuid: string): Promise<number>;
  /** The last positions of several organizations. */
  lastPositions(orgUuids: string[]): Promise<Map<string, number>>;
  /** The organization's committed changes with `after < position <= upTo`, in position order, at most `limit`. */
  readRange(orgUuid: string, after: number, upTo: number, limit: number): Promise<ChangeEvent[]>;
  deliver(event: ChangeEvent): void;
  onError(error: unknown): void;
  /** How long a change waits for its predecessor's announcement before the gap is read from the log. */
  gapWaitMs: number;
  /** How long after a failed read of the log it is tried again. */
  retryMs: number;
}

/** Changes held back behind a gap before they go out anyway (the log cannot be read): the bound on memory. */
const MAX_HELD = 10_000;
/** Changes read from the log at a time. */
const READ_LIMIT = 2000;

interface OrgSequence {
  /** The position delivered last; null while it is being read from the log. */
  last: number | null;
  /** Announced changes waiting for their predecessors, by position. */
  held: Map<number, ChangeEvent>;
  timer: NodeJS.Timeout | null;
  filling: boolean;
  /** Bumped when the store is replaced: a read of the log begun before is ignored. */
  generation: number;
  /** Resolves once `last` is known: from then on every change committed is delivered. */
  ready: Promise<void>;
  setReady: () => void;
}

function newSequence(): OrgSequence {
  let setReady!: () => void;
  const ready = new Promise<void>((resolve) => (setReady = resolve));
  return { last: null, held: new Map(), timer: null, filling: false, generation: 0, ready, setReady };
}

/**
 * Puts the changes announced on the bus in each organization's position order before they are delivered.
 *
 * Positions are gap-free per organization and committed in order (src/bus/write.ts), but announcements travel
 * from several instances and may arrive out of order, or not at all (a bus outage). A change whose predecessor
 * has not arrived is held for `gapWaitMs`; then the gap is read from the change log, which holds every
 * committed change. A change announced but not in the log is not of this store (another deployment on the same
 * bus namespace) and is dropped. Only organizations with subscribers on this instance are followed.
 */
export class ChangeSequencer {
  private readonly orgs = new Map<string, OrgSequence>();
  private stopped = false;

  constructor(private readonly deps: SequencerDeps) {}

  /**
   * Follows an organization. Resolves once its position is read: every change committed after that is
   * delivered, in order (null when it was already followed and known).
   */
  follow(orgUuid: string): Promise<void> | null {
    const known = this.orgs.get(orgUuid);
    if (known) return known.last === null ? known.ready : null;
    if (this.stopped) return null;
    const seq = newSequence();
    this.orgs.set(orgUuid, seq);
    void this.base(orgUuid, seq);
    return seq.ready;
  }

  unfollow(orgUuid: string): void {
    const seq = this.orgs.get(orgUuid);
    if (!seq) return;
    if (seq.timer) clearTimeout(seq.timer);
    seq.setReady();
    this.orgs.delete(orgUuid);
  }

  accept(event: ChangeEvent): void {
    const seq = this.orgs.get(event.orgUuid);
    if (!seq) return;
    if (seq.last !== null && event.position <= seq.last) return;
    seq.held.set(event.position, event);
    this.drain(event.orgUuid, seq);
  }

  /** The store was reset or restored: every organization's position is read again from the log. */
  rebase(): void {
    for (const [orgUuid, seq] of this.orgs) {
      if (seq.timer) clearTimeout(seq.timer);
      seq.timer = null;
      seq.generation += 1;
      seq.setReady();
      const fresh = newSequence();
      seq.ready = fresh.ready;
      seq.setReady = fresh.setReady;
      seq.last = null;
      seq.filling = false;
      seq.held.clear();
      void this.base(orgUuid, seq);
    }
  }

  /**
   * Compares each followed organization's position with the log and reads what the bus did not announce (an
   * announcement lost while Redis was away): nothing committed stays undelivered past one poll.
   */
  async poll(): Promise<void> {
    const ready = [...this.orgs].filter(([, seq]) => seq.last !== null && !seq.filling);
    if (ready.length === 0) return;
    let latest: Map<string, number>;
    try {
      latest = await this.deps.lastPositions(ready.map(([org]) => org));
    } catch (e) {
      this.deps.onError(e);
      return;
    }
    for (const [orgUuid, seq] of ready) {
      const logged = latest.get(orgUuid) ?? 0;
      if (this.orgs.get(orgUuid) === seq && seq.last !== null && logged > seq.last) void this.fill(orgUuid, seq, logged);
    }
  }

  stop(): void {
    this.stopped = true;
    for (const orgUuid of [...this.orgs.keys()]) this.unfollow(orgUuid);
  }

  private async base(orgUuid: string, seq: OrgSequence): Promise<void> {
    const generation = seq.generation;
    let last: number;
    try {
      last = await this.deps.lastPosition(orgUuid);
    } catch (e) {
      this.deps.onError(e);
      if (this.orgs.get(orgUuid) === seq && seq.generation === generation) {
        seq.timer = setTimeout(() => ((seq.timer = null), void this.base(orgUuid, seq)), this.deps.retryMs);
      }
      return;
    }
    if (this.orgs.get(orgUuid) !== seq || seq.generation !== generation) return;
    // Changes announced while the position was read were committed before it: they go out first, in order.
    const early = [...seq.held.values()].filter((e) => e.position <= last).sort((a, b) => a.position - b.position);
    for (const e of early) {
      seq.held.delete(e.position);
      this.deps.deliver(e);
    }
    seq.last = last;
    seq.setReady();
    this.drain(orgUuid, seq);
  }

  private drain(orgUuid: string, seq: OrgSequence): void {
    if (seq.last === null || seq.filling) return;
    let next: ChangeEvent | undefined;
    while ((next = seq.held.get(seq.last + 1))) {
      seq.held.delete(next.position);
      seq.last = next.position;
      this.deps.deliver(next);
    }
    if (seq.held.size === 0) {
      if (seq.timer) clearTimeout(seq.timer);
      seq.timer = null;
    } else if (seq.held.size >= MAX_HELD) {
      void this.fill(orgUuid, seq);
    } else {
      seq.timer ??= setTimeout(() => ((seq.timer = null), void this.fill(orgUuid, seq)), this.deps.gapWaitMs);
    }
  }

  /** Reads the gap (up to the newest held change, or `target`) from the log and delivers it in order. */
  private async fill(orgUuid: string, seq: OrgSequence, target = 0): Promise<void> {
    if (seq.filling || seq.last === null) return;
    if (seq.timer) clearTimeout(seq.timer);
    seq.timer = null;
    const upTo = Math.max(target, ...seq.held.keys());
    if (upTo <= seq.last) return;
    seq.filling = true;
    const generation = seq.generation;
    let logged: ChangeEvent[];
    try {
      logged = await this.deps.readRange(orgUuid, seq.last, upTo, READ_LIMIT);
    } catch (e) {
      this.deps.onError(e);
      if (this.orgs.get(orgUuid) !== seq || seq.generation !== generation) return;
      seq.filling = false;
      if (seq.held.size >= MAX_HELD) {
        // The log cannot be read and memory is bounded: the held changes go out, in order, past the gap.
        for (const e of [...seq.held.values()].sort((a, b) => a.position - b.position)) this.deps.deliver(e);
        seq.last = Math.max(...seq.held.keys());
        seq.held.clear();
      } else {
        seq.timer = setTimeout(() => ((seq.timer = null), void this.fill(orgUuid, seq, target)), this.deps.retryMs);
      }
      return;
    }
    if (this.orgs.get(orgUuid) !== seq || seq.generation !== generation) return;
    seq.filling = false;
    for (const e of logged) {
      if (e.position <= seq.last) continue;
      seq.held.delete(e.position);
      seq.last = e.position;
      this.deps.deliver(e);
    }
    // Held changes up to what was read and not in the log were never committed here: not of this store.
    const reached = logged.length === READ_LIMIT ? seq.last : upTo;
    for (const position of seq.held.keys()) if (position <= reached) seq.held.delete(position);
    if (reached < upTo) return void this.fill(orgUuid, seq, upTo);
    this.drain(orgUuid, seq);
  }
}

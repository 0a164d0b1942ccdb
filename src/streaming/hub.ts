import type { ChangeEvent } from '../store/change-event.js';
import type { Deps } from '../deps.js';
import { changeMessageBody } from '../store/change-event.js';
import { absoluteRecordMediaUris } from '../edge/media-uris.js';
import { changeDestination } from './destinations.js';
import { ChangeSequencer } from './sequencer.js';
import { changesBetween, lastPositions, positionProblem } from '../domains/changes/service.js';

/**
 * A change ready to go out to every subscriber of its organization. Its MESSAGE frames are encoded once per
 * shape (version, subscription, ack mode), as the bytes the transport sends (the whole WebSocket frame), so that
 * the connections whose frames are equal, usually all of them, are handed one and the same buffer.
 */
export class PreparedChange {
  readonly destination: string;
  readonly body: string;
  private readonly frames = new Map<string, Buffer>();

  /** `mediaBase`: the public media base the record's media paths are answered under (src/edge/media-uris.ts). */
  constructor(
    readonly event: ChangeEvent,
    mediaBase: string,
  ) {
    this.destination = changeDestination(event.orgUuid);
    const body = changeMessageBody(event);
    this.body = JSON.stringify({ ...body, update: absoluteRecordMediaUris(body.update, mediaBase) });
  }

  /** The frame `key` names, when one was kept. */
  encoded(key: string): Buffer | undefined {
    return this.frames.get(key);
  }

  /** Keeps the frame `key` names, for the connections asking for it next; answers it. */
  keep(key: string, frame: Buffer): Buffer {
    this.frames.set(key, frame);
    return frame;
  }
}

export type ChangeListener = (change: PreparedChange) => void;

/** What a subscription that resumes reads from the durable change log. */
export interface ChangeLogReader {
  /** Why the organization's changes after `afterPosition` cannot be replayed, or null. */
  problem(orgUuid: string, afterPosition: number): Promise<{ message: string; detail: string } | null>;
  /** The organization's changes after a position, oldest first, at most `limit`. */
  after(orgUuid: string, afterPosition: number, limit: number): Promise<ChangeEvent[]>;
}

export interface HubTimings {
  gapWaitMs: number;
  /** How often the followed organizations' positions are compared with the log (announcements the bus lost). */
  logPollMs: number;
}

/**
 * Takes the changes announced on the bus (by any instance), puts each organization's in position order, and
 * hands each to the local subscribers of its organization.
 */
export class ChangeHub {
  private readonly byOrg = new Map<string, Set<ChangeListener>>();
  private readonly sequencer: ChangeSequencer;
  private readonly unsubscribe: Array<() => void> = [];
  private poller: NodeJS.Timeout | null = null;
  readonly log: ChangeLogReader;
  /** Bumped when the store is reset or restored: positions start again, lower than those delivered before. */
  generation = 0;

  constructor(
    private readonly deps: Pick<Deps, 'bus' | 'store' | 'log' | 'mediaHost'>,
    private readonly timings: HubTimings,
  ) {
    this.sequencer = new ChangeSequencer({
      gapWaitMs: timings.gapWaitMs,
      retryMs: Math.max(timings.gapWaitMs, 500),
      lastPosition: async (orgUuid) => (await lastPositions(deps, [orgUuid])).get(orgUuid) ?? 0,
      lastPositions: (orgUuids) => lastPositions(deps, orgUuids),
      readRange: (orgUuid, after, upTo, limit) => changesBetween(deps, orgUuid, after, upTo, limit),
      deliver: (event) => this.dispatch(event),
      onError: (e) => deps.log.error({ err: e }, 'stream: reading the change log failed'),
    });
    this.log = {
      problem: (orgUuid, after) => positionProblem(deps, orgUuid, after),
      after: (orgUuid, after, limit) => changesBetween(deps, orgUuid, after, Number.MAX_SAFE_INTEGER, limit),
    };
  }

  start(): void {
    this.unsubscribe.push(
      this.deps.bus.subscribe('change', (event) => this.sequencer.accept(event)),
      this.deps.bus.subscribe('store.replaced', () => {
        this.generation += 1;
        this.sequencer.rebase();
      }),
    );
    let polling = false;
    this.poller = setInterval(() => {
      if (polling) return;
      polling = true;
      void this.sequencer.poll().finally(() => (polling = false));
    }, this.timings.logPollMs).unref();
  }

  /**
   * Listens to the changes of one organization. `ready` (null when already so) resolves once every change
   * committed from then on will reach the listener; `stop` stops listening.
   */
  listen(orgUuid: string, listener: ChangeListener): { stop(): void; ready: Promise<void> | null } {
    let set = this.byOrg.get(orgUuid);
    if (!set) this.byOrg.set(orgUuid, (set = new Set()));
    const ready = this.sequencer.follow(orgUuid);
    set.add(listener);
    return {
      ready,
      stop: () => {
        set.delete(listener);
        if (set.size === 0 && this.byOrg.get(orgUuid) === set) {
          this.byOrg.delete(orgUuid);
          this.sequencer.unfollow(orgUuid);
        }
      },
    };
  }

  /** A change as its MESSAGE carries it (its media links absolute). */
  prepare(event: ChangeEvent): PreparedChange {
    return new PreparedChange(event, this.deps.mediaHost.base);
  }

  close(): void {
    for (const stop of this.unsubscribe.splice(0)) stop();
    if (this.poller) clearInterval(this.poller);
    this.sequencer.stop();
    this.byOrg.clear();
  }

  private dispatch(event: ChangeEvent): void {
    const listeners = this.byOrg.get(event.orgUuid);
    if (!listeners) return;
    const change = this.prepare(event);
    for (const listener of listeners) {
      try {
        listener(change);
      } catch (e) {
        this.deps.log.error({ err: e }, 'stream: delivering a change failed');
      }
    }
  }
}

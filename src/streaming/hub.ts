import type { ChangeEvent } from '../bus/events.js';
import type { Deps } from '../deps.js';
import { changeDestination, changeMessageBody } from './destinations.js';
import { ChangeSequencer } from './sequencer.js';
import { changeEventsBetween, latestChangeEventId } from './store.js';

/**
 * A change ready to go out to every subscriber of its organization. Its MESSAGE frames are encoded once per
 * shape (version, subscription, ack mode), so that the connections whose frames are equal, usually all of
 * them, are handed one and the same buffer.
 */
export class PreparedChange {
  readonly destination: string;
  readonly body: string;
  private readonly frames = new Map<string, Buffer>();

  constructor(readonly event: ChangeEvent) {
    this.destination = changeDestination(event.orgUuid);
    this.body = JSON.stringify(changeMessageBody(event));
  }

  /** The frame `key` names, made by `make` the first time it is asked for. */
  encoded(key: string, make: () => string): Buffer {
    let frame = this.frames.get(key);
    if (frame === undefined) this.frames.set(key, (frame = Buffer.from(make())));
    return frame;
  }
}

export type ChangeListener = (change: PreparedChange) => void;

/**
 * Takes the changes announced on the bus (by any instance), puts them in change-log order, and hands each
 * to the local subscribers of its organization.
 */
export class ChangeHub {
  private readonly byOrg = new Map<string, Set<ChangeListener>>();
  private readonly sequencer: ChangeSequencer;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly deps: Pick<Deps, 'bus' | 'store' | 'log'>,
    gapWaitMs: number,
  ) {
    this.sequencer = new ChangeSequencer({
      gapWaitMs,
      readRange: (afterId, upToId) => changeEventsBetween(deps.store.db, afterId, upToId),
      deliver: (event) => this.dispatch(event),
      onError: (e) => deps.log.error({ err: e }, 'stream: reading the change log failed'),
    });
  }

  async start(): Promise<void> {
    // Subscribe first, then read where the log stands: nothing announced in between is missed.
    this.unsubscribe = this.deps.bus.subscribe('change', (event) => this.sequencer.accept(event));
    this.sequencer.start(await latestChangeEventId(this.deps.store.db));
  }

  /** Listens to the changes of one organization; returns the function that stops listening. */
  listen(orgUuid: string, listener: ChangeListener): () => void {
    let set = this.byOrg.get(orgUuid);
    if (!set) this.byOrg.set(orgUuid, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.byOrg.get(orgUuid) === set) this.byOrg.delete(orgUuid);
    };
  }

  close(): void {
    this.unsubscribe?.();
    this.sequencer.stop();
    this.byOrg.clear();
  }

  private dispatch(event: ChangeEvent): void {
    const listeners = this.byOrg.get(event.orgUuid);
    if (!listeners) return;
    const change = new PreparedChange(event);
    for (const listener of listeners) {
      try {
        listener(change);
      } catch (e) {
        this.deps.log.error({ err: e }, 'stream: delivering a change failed');
      }
    }
  }
}

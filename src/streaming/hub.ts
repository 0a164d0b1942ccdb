import type { ChangeEvent } from '../bus/events.js';
import type { Deps } from '../deps.js';
import { changeDestination, changeMessageBody } from './destinations.js';
import { messageTail, type StompVersion } from './frame.js';
import { ChangeSequencer } from './sequencer.js';
import { changeEventsBetween, latestChangeEventId } from './store.js';

/** A change ready to go out: its frame tail is serialized once per version, whatever the number of subscribers. */
export interface PreparedChange {
  event: ChangeEvent;
  destination: string;
  body: string;
  /** The MESSAGE frame from the destination header on (see `messageTail`). */
  tail(version: StompVersion): string;
}

function prepare(event: ChangeEvent): PreparedChange {
  const destination = changeDestination(event.orgUuid);
  const body = JSON.stringify(changeMessageBody(event));
  const tails = new Map<StompVersion, string>();
  return {
    event,
    destination,
    body,
    tail(version) {
      let tail = tails.get(version);
      if (tail === undefined) tails.set(version, (tail = messageTail(destination, 'application/json', body, version)));
      return tail;
    },
  };
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
    const change = prepare(event);
    for (const listener of listeners) {
      try {
        listener(change);
      } catch (e) {
        this.deps.log.error({ err: e }, 'stream: delivering a change failed');
      }
    }
  }
}

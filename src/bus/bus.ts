import type { BusEventName, BusEvents } from './events.js';

export type BusHandler<K extends BusEventName> = (payload: BusEvents[K]) => void;

/**
 * The event bus: announces what happened to every subscriber of every Gatehouse instance that shares it.
 * Publishing after a commit is the services' job (see src/store/write.ts).
 */
export interface Bus {
  publish<K extends BusEventName>(name: K, payload: BusEvents[K]): Promise<void>;
  /** Returns the function that unsubscribes. */
  subscribe<K extends BusEventName>(name: K, handler: BusHandler<K>): () => void;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Wraps a handler so that a failing subscriber cannot stop the others. */
export function isolated<K extends BusEventName>(handler: BusHandler<K>): (payload: unknown) => void {
  return (payload) => {
    try {
      handler(payload as BusEvents[K]);
    } catch {
      // The subscriber's own failure; the bus carries on.
    }
  };
}

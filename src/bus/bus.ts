import type { BusEventName, BusEvents } from './events.js';

export type BusHandler<K extends BusEventName> = (payload: BusEvents[K]) => void;

/**
 * The event bus: announces what happened to every subscriber of every Gatehouse instance that shares it.
 * Publishing after a commit is the services' job (see src/bus/write.ts).
 */
/** Where a bus reports losing and regaining its connection. */
export interface BusLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

/** A bus reached but not opened yet: its namespace comes from the store, read once the store is migrated. */
export interface BusConnection {
  open(namespace: string): Promise<Bus>;
  close(): void;
}

export interface Bus {
  /** What the bus is, to print (a Redis URL without its password, and the namespace). */
  readonly name: string;
  /**
   * The deployment's namespace: every key and channel Gatehouse keeps in a shared Redis carries it, so that
   * deployments on one Redis never see each other's announcements or counters.
   */
  readonly namespace: string;
  publish<K extends BusEventName>(name: K, payload: BusEvents[K]): Promise<void>;
  /** Returns the function that unsubscribes. */
  subscribe<K extends BusEventName>(name: K, handler: BusHandler<K>): () => void;
  /** Fails, saying why, when the bus cannot carry announcements now. */
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

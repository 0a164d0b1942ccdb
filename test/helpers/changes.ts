import type { ChangeEvent, ChangeType } from '../../src/store/change-event.js';
import type { ChangeInput } from '../../src/bus/write.js';

/** A change of any entity name and payload, as stream and bus tests raise them. */
export interface RawChange {
  entity: string;
  entityUuid: string;
  type: ChangeType;
  deviceUuid?: string | null;
  update: unknown;
  orgUuid?: string;
  timestampMs?: number;
}

/**
 * Lets a test raise a change outside the typed entity map (src/bus/entities.ts): the stream and the change
 * log carry whatever they are given, and their tests exercise that with made-up names and payloads.
 * Domain code never does this; its `w.change()` calls are checked against the map.
 */
export const rawChange = (change: RawChange): ChangeInput => change as unknown as ChangeInput;

/** What a test's server offers to listen to its bus (TestServer has it). */
interface WithBus {
  gatehouse: { deps: { bus: { subscribe(channel: 'change', listener: (event: ChangeEvent) => void): () => void } } };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The changes the server announces while `fn` runs, with `fn`'s result. A turn of the event loop before and after
 * keeps an announcement of an earlier write out and lets one published right after `fn`'s answer in.
 */
export async function recordChanges<T>(server: WithBus, fn: () => Promise<T>): Promise<{ result: T; changes: ChangeEvent[] }> {
  await nextTurn();
  const changes: ChangeEvent[] = [];
  const unsubscribe = server.gatehouse.deps.bus.subscribe('change', (event) => changes.push(event));
  try {
    const result = await fn();
    await nextTurn();
    return { result, changes };
  } finally {
    unsubscribe();
  }
}

/** The changes the server announces while `fn` runs. */
export const changesDuring = async (server: WithBus, fn: () => Promise<unknown>): Promise<ChangeEvent[]> => (await recordChanges(server, fn)).changes;

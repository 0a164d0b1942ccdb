import type { Bus, BusConnection, BusLog } from './bus.js';
import { createMemoryBus } from './memory-bus.js';

/** The bus of `url`; on Redis its channels carry `namespace`, so that deployments sharing a Redis stay apart. */
export async function openBus(url: string, namespace: string, log?: BusLog): Promise<Bus> {
  // The Redis client loads only for a Redis bus.
  return url.startsWith('memory:') ? createMemoryBus(namespace) : (await import('./redis-bus.js')).createRedisBus(url, namespace, log);
}

/**
 * Connects to the bus of `url` now (failing fast when it is unreachable) and answers the function that opens
 * it under a namespace, once the namespace is known (it comes from the store).
 */
export async function connectBus(url: string, log?: BusLog): Promise<BusConnection> {
  if (url.startsWith('memory:')) return { open: async (namespace) => createMemoryBus(namespace), close() {} };
  return (await import('./redis-bus.js')).connectRedisBus(url, log);
}

import type { Bus, BusLog } from './bus.js';
import { createMemoryBus } from './memory-bus.js';
import { createRedisBus } from './redis-bus.js';

/** The bus of `url`; on Redis its channels carry `namespace`, so that deployments sharing a Redis stay apart. */
export async function openBus(url: string, namespace: string, log?: BusLog): Promise<Bus> {
  return url.startsWith('memory:') ? createMemoryBus() : createRedisBus(url, namespace, log);
}

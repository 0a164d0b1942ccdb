import type { Bus } from './bus.js';
import { createMemoryBus } from './memory-bus.js';
import { createRedisBus } from './redis-bus.js';

export async function openBus(url: string): Promise<Bus> {
  return url.startsWith('memory:') ? createMemoryBus() : createRedisBus(url);
}

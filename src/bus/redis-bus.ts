import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import { isolated, type Bus } from './bus.js';

const PREFIX = 'gatehouse:';

/**
 * The bus shared by several instances through Redis pub/sub. Every publish goes through Redis, also to
 * this instance's own subscribers, so that all instances see the same order.
 */
export async function createRedisBus(url: string): Promise<Bus> {
  const options = { lazyConnect: true, maxRetriesPerRequest: 3, enableOfflineQueue: true };
  const publisher = new Redis(url, options);
  const subscriber = new Redis(url, options);
  // Connection errors surface through ping() and publish(); without listeners ioredis would log them.
  publisher.on('error', () => {});
  subscriber.on('error', () => {});
  await Promise.all([publisher.connect(), subscriber.connect()]);
  const local = new EventEmitter();
  local.setMaxListeners(0);
  // One pattern subscription, made before the bus is handed out, so that no announcement is missed.
  await subscriber.psubscribe(PREFIX + '*');
  subscriber.on('pmessage', (_pattern: string, channel: string, message: string) => {
    const name = channel.slice(PREFIX.length);
    let payload: unknown;
    try {
      payload = JSON.parse(message);
    } catch {
      return;
    }
    local.emit(name, payload);
  });
  return {
    async publish(name, payload) {
      await publisher.publish(PREFIX + name, JSON.stringify(payload));
    },
    subscribe(name, handler) {
      const listener = isolated(handler);
      local.on(name, listener);
      return () => local.off(name, listener);
    },
    async ping() {
      await publisher.ping();
    },
    async close() {
      local.removeAllListeners();
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}

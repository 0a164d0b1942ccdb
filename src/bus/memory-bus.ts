import { EventEmitter } from 'node:events';
import { isolated, type Bus } from './bus.js';

/**
 * The in-process bus of a single instance. Handlers run in a microtask, never inside the publisher, yet
 * before the event loop moves on: a change is announced to this instance's subscribers before the answer to
 * the call that made it can reach its caller.
 */
export function createMemoryBus(namespace = 'memory'): Bus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    name: 'memory:',
    namespace,
    async publish(name, payload) {
      queueMicrotask(() => emitter.emit(name, payload));
    },
    subscribe(name, handler) {
      const listener = isolated(handler);
      emitter.on(name, listener);
      return () => emitter.off(name, listener);
    },
    async ping() {},
    async close() {
      emitter.removeAllListeners();
    },
  };
}

import { EventEmitter } from 'node:events';
import { isolated, type Bus } from './bus.js';

/** The in-process bus of a single instance. Handlers run on a later tick, never inside the publisher. */
export function createMemoryBus(): Bus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(name, payload) {
      setImmediate(() => emitter.emit(name, payload));
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

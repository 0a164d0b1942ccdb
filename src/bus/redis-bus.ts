import { EventEmitter } from 'node:events';
import { Redis, type RedisOptions } from 'ioredis';
import { isolated, type Bus, type BusConnection, type BusLog } from './bus.js';

/** How long the first connection may take before start gives up (the server then exits saying why). */
const CONNECT_DEADLINE_MS = 5000;
/** Reconnect back-off while running: 100 ms, 200 ms, ... up to 5 s between attempts, forever. */
const retryDelay = (attempt: number) => Math.min(attempt * 100, 5000);

/** The URL without its password, to print. */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString().replace(/\/$/, '');
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

export class BusUnreachable extends Error {}

/**
 * The bus shared by several instances through Redis pub/sub. Every publish goes through Redis, also to
 * this instance's own subscribers, so that all instances see the same order. Channels are
 * `gatehouse:<namespace>:<event>`: deployments that share a Redis but not a store never hear each other.
 *
 * Unreachable at start: rejects within 5 s naming the URL. Lost while running: ioredis reconnects with
 * back-off; publishing fails at once meanwhile (the change log is durable and the stream reads what the bus
 * missed from it), and ping() fails, so that /healthz answers 503.
 */
export async function createRedisBus(url: string, namespace: string, log?: BusLog): Promise<Bus> {
  return (await connectRedisBus(url, log)).open(namespace);
}

/**
 * Connects to Redis (or fails within 5 s naming the URL), and answers the function that makes the bus of a
 * namespace on that connection: the server checks the bus before the slower work of migrating the store.
 */
export async function connectRedisBus(url: string, log?: BusLog): Promise<BusConnection> {
  let name = redactedUrl(url);
  let started = false;
  let lastError = '';
  const options: RedisOptions = {
    lazyConnect: true,
    connectTimeout: 3000,
    maxRetriesPerRequest: 1,
    // While down, fail commands at once rather than queue them: a write must not wait for Redis.
    enableOfflineQueue: false,
    retryStrategy: (attempt) => (started ? retryDelay(attempt) : null),
  };
  const publisher = new Redis(url, options);
  const subscriber = new Redis(url, { ...options, enableOfflineQueue: true });
  let down = false;
  for (const client of [publisher, subscriber]) {
    client.on('error', (e: Error) => {
      lastError = e.message;
      if (started && !down) {
        down = true;
        log?.warn({ bus: name, err: e.message }, 'bus: connection to Redis lost, reconnecting');
      }
    });
  }
  subscriber.on('ready', () => {
    if (started && down) {
      down = false;
      log?.info({ bus: name }, 'bus: reconnected to Redis');
    }
  });
  const unreachable = (why: string) => {
    publisher.disconnect();
    subscriber.disconnect();
    return new BusUnreachable(`cannot reach the bus at ${redactedUrl(url)}: ${why}`);
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      Promise.all([publisher.connect(), subscriber.connect()]),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), CONNECT_DEADLINE_MS))),
    ]);
  } catch (e) {
    throw unreachable((e as Error).message === 'timeout' ? `no answer within ${CONNECT_DEADLINE_MS / 1000} s` : lastError || (e as Error).message);
  } finally {
    clearTimeout(timer);
  }
  const open = async (namespace: string): Promise<Bus> => {
    const prefix = `gatehouse:${namespace}:`;
    name = `${redactedUrl(url)} (namespace ${namespace})`;
    try {
      // One pattern subscription, made before the bus is handed out, so that no announcement is missed.
      await subscriber.psubscribe(prefix + '*');
    } catch (e) {
      throw unreachable(lastError || (e as Error).message);
    }
    started = true;
    const local = new EventEmitter();
    local.setMaxListeners(0);
    subscriber.on('pmessage', (_pattern: string, channel: string, message: string) => {
      if (!channel.startsWith(prefix)) return;
      const event = channel.slice(prefix.length);
      let payload: unknown;
      try {
        payload = JSON.parse(message);
      } catch {
        return;
      }
      local.emit(event, payload);
    });
    return {
      name,
      namespace,
      async publish(event, payload) {
        await publisher.publish(prefix + event, JSON.stringify(payload));
      },
      subscribe(event, handler) {
        const listener = isolated(handler);
        local.on(event, listener);
        return () => local.off(event, listener);
      },
      async ping() {
        for (const client of [publisher, subscriber]) {
          if (client.status !== 'ready') throw new Error(`bus ${name} unreachable (${client.status}${lastError ? `: ${lastError}` : ''})`);
        }
        await publisher.ping();
      },
      async close() {
        local.removeAllListeners();
        publisher.disconnect();
        subscriber.disconnect();
      },
    };
  };
  return {
    open,
    close() {
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}

import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Bus, BusConnection } from './bus/bus.js';
import { connectBus } from './bus/open-bus.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { readOrCreateSecretFile } from './data-dir.js';
import type { Deps } from './deps.js';
import { buildHttpApp } from './http/app.js';
import { doorsUsingSchedule } from './domains/access/schedule-usage.js';
import { rulesUsingSchedule } from './domains/rules/rules.service.js';
import { createKeyCache } from './domains/orgs/key-cache.js';
import { createRightsCache } from './domains/permissions/rights-cache.js';
import { createLogger, type Logger } from './logger.js';
import { buildMediaApp } from './media/app.js';
import { startRelockScheduler } from './domains/access/relock-scheduler.js';
import { startAlertExpiry } from './domains/events/alert-expiry.js';
import { startChatRelay } from './domains/integrations/chat-relay.js';
import { webhookOutboxKinds } from './domains/integrations/webhooks/delivery.js';
import { startWebhookDispatcher } from './domains/integrations/webhooks/dispatch.js';
import { startOutboxWorker } from './outbox/worker.js';
import { ruleOutboxSteps } from './domains/rules/actions/webhook.js';
import { createSecretBox, parseSecretKey } from './secrets.js';
import { storeIdentity, startChangeLogRetention } from './domains/changes/service.js';
import { openStore } from './store/database.js';
import { migrateToLatest } from './store/migrate.js';
import { verifySecretKey } from './store/secret-key-check.js';
import type { StreamOptions } from './streaming/options.js';
import { startStream, type StreamServer } from './streaming/server.js';
import { loadOrCreateTls } from './tls.js';

export interface Gatehouse {
  config: Config;
  deps: Deps;
  http: Awaited<ReturnType<typeof buildHttpApp>>;
  stream: StreamServer;
  urls: { rest: string; media: string; ws: string };
  close(): Promise<void>;
}

export interface StartOptions {
  log?: Logger;
  clock?: Clock;
  /** Limits and timings of the stream (defaults in src/streaming/options.ts). */
  stream?: Partial<StreamOptions>;
}

/** Opens the store (migrated) and the bus, and builds the services' dependencies: the composition root. */
export async function openDeps(config: Config, options: StartOptions = {}): Promise<Deps> {
  const log = options.log ?? createLogger(config.logLevel);
  const store = openStore(config.databaseUrl);
  // The bus is reached first, while the store migrates, so that an unreachable Redis ends the start at once.
  const connecting = connectBus(config.busUrl, log);
  const migrating = migrateToLatest(store);
  migrating.catch(() => {});
  let bus: Bus;
  let connection: BusConnection | null = null;
  try {
    connection = await connecting;
    await migrating;
    // The bus namespace: configured, else the store's own identity, so that deployments on one Redis stay apart.
    bus = await connection.open(config.busNamespace ?? (await storeIdentity({ store })));
  } catch (e) {
    connection?.close();
    await migrating.catch(() => {});
    await store.close();
    throw e;
  }
  const secretKey = config.secretKey ?? readOrCreateSecretFile(config.dataDir, 'secret.key', () => randomBytes(32).toString('hex'));
  const secrets = createSecretBox(parseSecretKey(secretKey));
  const clock = options.clock ?? systemClock;
  // An instance whose key cannot open the store's secrets would answer 500s: it refuses to start instead.
  await verifySecretKey(store, secrets, clock.now()).catch(async (e) => {
    await Promise.allSettled([bus.close(), store.close()]);
    throw e;
  });
  return {
    config,
    store,
    bus,
    log,
    clock,
    secrets,
    keyCache: createKeyCache(),
    rightsCache: createRightsCache(),
    // The domains whose records follow schedules: deleting a schedule they use is refused.
    scheduleUsage: [doorsUsingSchedule, rulesUsingSchedule],
  };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await deps.bus.close();
  await deps.store.close();
}

function portOf(server: { address(): AddressInfo | string | null }): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/** Starts the REST, media and WebSocket listeners on one set of dependencies. */
export async function startGatehouse(config: Config, options: StartOptions = {}): Promise<Gatehouse> {
  const deps = await openDeps(config, options);
  const tls = await loadOrCreateTls(config);
  const http = await buildHttpApp(deps, { https: config.httpTls ? tls : undefined });
  const media = await buildMediaApp(deps);
  let stream: StreamServer | null = null;
  try {
    await http.listen({ host: config.host, port: config.httpPort });
    await media.listen({ host: config.host, port: config.mediaPort });
    const backlog = config.streamMaxBacklogBytes === null ? {} : { maxBufferedBytes: config.streamMaxBacklogBytes };
    stream = await startStream(deps, tls, { host: config.host, port: config.wsPort }, { ...backlog, ...options.stream });
  } catch (e) {
    await Promise.allSettled([http.close(), media.close(), stream?.close()]);
    await closeDeps(deps);
    throw e;
  }
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const urls = {
    rest: `${config.httpTls ? 'https' : 'http'}://${host}:${portOf(http.server)}`,
    media: `http://${host}:${portOf(media.server)}`,
    ws: stream.url,
  };
  // Background work of this instance: forgetting keys revoked anywhere, pending deliveries and door relocks
  // (also those an earlier run left), and the chat relay.
  const stopKeyWatch = deps.bus.subscribe('key.revoked', ({ keyId }) => deps.keyCache.forgetKey(keyId));
  const stopRightsWatch = deps.bus.subscribe('permissions.changed', () => deps.rightsCache.clear());
  const outbox = startOutboxWorker(deps, { ...ruleOutboxSteps(deps), ...webhookOutboxKinds(deps) });
  const relocks = await startRelockScheduler(deps);
  const stopChatRelay = startChatRelay(deps, urls.media);
  const retention = startChangeLogRetention(deps);
  // A reset or restore of the store (control API, any instance): caches and pending work follow the new state.
  const stopReplaced = deps.bus.subscribe('store.replaced', () => {
    deps.keyCache.clear();
    outbox.kick();
  });
  const alertExpiry = startAlertExpiry(deps);
  const webhooks = startWebhookDispatcher(deps, urls.media);
  return {
    config,
    deps,
    http,
    stream,
    urls,
    async close() {
      stopChatRelay();
      stopKeyWatch();
      stopReplaced();
      retention.stop();
      stopRightsWatch();
      await Promise.all([outbox.stop(), relocks.stop(), alertExpiry.stop(), webhooks.stop()]);
      await Promise.allSettled([http.close(), media.close(), stream.close()]);
      await closeDeps(deps);
    },
  };
}

import type { AddressInfo } from 'node:net';
import type { Config } from './config.js';
import type { Deps } from './deps.js';
import { buildHttpApp } from './http/app.js';
import { createRequestLimits } from './edge/rate-limit.js';
import { buildMediaApp } from './media/app.js';
import { startRelockScheduler } from './domains/access/doors/relock-scheduler.js';
import { startRelayRests } from './domains/access/components/relay-rests.js';
import { startLockdownRuleRunner } from './domains/access/lockdowns/lockdown-rules.js';
import { startGeneralRuleRunner } from './domains/rules/general/runner.js';
import { startAlertExpiry } from './domains/events/alerts/alert-expiry.js';
import { startPromptRunner } from './domains/chatbot/runner.js';
import { startClipRenderer } from './domains/events/clips/clip-renderer.js';
import { chatOutboxKinds, startChatRelay } from './domains/integrations/chat-relay.js';
import { startUserNotifications } from './domains/notifications/notify.js';
import { webhookOutboxKinds } from './domains/integrations/webhooks/delivery.js';
import { startWebhookDispatcher } from './domains/integrations/webhooks/dispatch.js';
import { startOutboxWorker } from './outbox/worker.js';
import { ruleOutboxSteps } from './domains/rules/actions/webhook.js';
import { startChangeLogRetention } from './domains/changes/service.js';
import { closeDeps, openDeps, type StartOptions } from './open-deps.js';
import { startStream, type StreamServer } from './streaming/server.js';
import { loadOrCreateTls } from './tls.js';
import { consoleRoutes, relayConsoleStream } from './console/serve.js';

export interface Gatehouse {
  config: Config;
  deps: Deps;
  http: Awaited<ReturnType<typeof buildHttpApp>>;
  stream: StreamServer;
  urls: { rest: string; media: string; ws: string; console: string };
  close(): Promise<void>;
}

function portOf(server: { address(): AddressInfo | string | null }): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/** Starts the REST, media and WebSocket listeners on one set of dependencies. */
export async function startGatehouse(config: Config, options: StartOptions = {}): Promise<Gatehouse> {
  const deps = await openDeps(config, options);
  const tls = await loadOrCreateTls(config);
  // One count of failed keys per client address for the REST port and the stream's handshake.
  const limits = createRequestLimits(config, deps.log, deps.bus.namespace);
  let mediaOrigin: string | null = null;
  const http = await buildHttpApp(deps, { https: config.httpTls ? tls : undefined, limits, extraRoutes: [consoleRoutes({ mediaOrigin: () => mediaOrigin })] });
  const media = await buildMediaApp(deps);
  let stream: StreamServer | null = null;
  try {
    await http.listen({ host: config.host, port: config.httpPort });
    await media.listen({ host: config.host, port: config.mediaPort });
    const backlog = config.streamMaxBacklogBytes === null ? {} : { maxBufferedBytes: config.streamMaxBacklogBytes };
    stream = await startStream(deps, tls, { host: config.host, port: config.wsPort }, { ...backlog, ...options.stream }, limits);
  } catch (e) {
    await Promise.allSettled([http.close(), media.close(), stream?.close(), limits.close()]);
    await closeDeps(deps);
    throw e;
  }
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const urls = {
    rest: `${config.httpTls ? 'https' : 'http'}://${host}:${portOf(http.server)}`,
    media: `http://${host}:${portOf(media.server)}`,
    ws: stream.url,
    console: '',
  };
  // Media URIs are absolute: from the configured public base, else from the address the media listener got.
  if (!config.publicMediaUrl) deps.mediaHost.base = urls.media;
  urls.console = `${urls.rest}/console/`;
  // The console's pages may load what the media URIs name: the public base's origin when one is set.
  mediaOrigin = new URL(deps.mediaHost.base).origin;
  const stopConsoleRelay = relayConsoleStream(http.server, stream.url, tls.cert, deps.log);
  // Background work of this instance: forgetting keys revoked anywhere, pending deliveries and door relocks
  // (also those an earlier run left), and the chat relay.
  const stopKeyWatch = deps.bus.subscribe('key.revoked', ({ keyId }) => deps.keyCache.forgetKey(keyId));
  const stopRightsWatch = deps.bus.subscribe('permissions.changed', () => deps.rightsCache.clear());
  // The deliveries read and write over the store's background connections, so that a busy API does not hold them up.
  const deliveryDeps = { ...deps, store: deps.store.background };
  const outbox = startOutboxWorker(deliveryDeps, { ...ruleOutboxSteps(deliveryDeps), ...webhookOutboxKinds(deliveryDeps), ...chatOutboxKinds(deliveryDeps) });
  const relocks = await startRelockScheduler(deps);
  const relayRests = await startRelayRests(deps);
  const stopChatRelay = startChatRelay(deps, deps.mediaHost.base);
  const stopUserNotifications = startUserNotifications(deps);
  const retention = startChangeLogRetention(deps);
  // A reset or restore of the store (control API, any instance): caches and pending work follow the new state.
  const stopReplaced = deps.bus.subscribe('store.replaced', () => {
    deps.keyCache.clear();
    outbox.kick();
  });
  const alertExpiry = startAlertExpiry(deps);
  const promptRunner = startPromptRunner(deps);
  const clipRenderer = startClipRenderer(deps);
  const webhooks = startWebhookDispatcher(deps, deps.mediaHost.base);
  // access-lockdown (issue 21): lockdown rules fire on the triggers the changes raise at their locations.
  const lockdownRules = startLockdownRuleRunner(deps);
  const generalRules = startGeneralRuleRunner(deps);
  return {
    config,
    deps,
    http,
    stream,
    urls,
    async close() {
      stopConsoleRelay();
      stopChatRelay();
      stopUserNotifications();
      stopKeyWatch();
      stopReplaced();
      retention.stop();
      stopRightsWatch();
      await Promise.all([
        outbox.stop(),
        relocks.stop(),
        relayRests.stop(),
        alertExpiry.stop(),
        promptRunner.stop(),
        clipRenderer.stop(),
        webhooks.stop(),
        lockdownRules.stop(),
        generalRules.stop(),
      ]);
      await Promise.allSettled([http.close(), media.close(), stream.close()]);
      await limits.close();
      await closeDeps(deps);
    },
  };
}

import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { outboxIdle } from '../../helpers/outbox-idle.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { waitFor } from '../../helpers/wait.js';
import { assertFails, assertOk } from '../../helpers/api.js';
import { seedEventsSite, simulate, type EventsSite } from '../events/fixtures.js';
import { FAST_WEBHOOKS } from '../webhooks/fixtures.js';
import { FAST_OUTBOX } from './alerts.js';

const DIAGNOSTICS = '/api/report/getIntegrationDiagnosticEvents';

forEachDialect('report/getIntegrationDiagnosticEvents: the integrations’ recorded delivery failures', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  let other: EventsSite;
  let failing: Receiver;
  let working: Receiver;
  before(async () => {
    [failing, working] = await Promise.all([startReceiver(() => ({ status: 500 })), startReceiver()]);
    server = await startTestServer(dialect, {
      env: { ...FAST_OUTBOX, ...FAST_WEBHOOKS, GATEHOUSE_OUTBOX_MAX_ATTEMPTS: '3', GATEHOUSE_WEBHOOK_RETRY_SCALE: '0.00001' },
    });
    site = await seedEventsSite(server, 'Diagnostics Org');
    other = await seedEventsSite(server, 'Working Org');
    for (const [s, r] of [
      [site, failing],
      [other, working],
    ] as const) {
      assertOk(await call('/api/integrations/updateChatIntegration', { mattermostSettings: { enabled: true, webhookUrl: `${r.url}/chat/secret-path` } }, s));
      assertOk(await call('/api/integrations/webhooks/updateWebhookIntegration', { webhookSettings: { enabled: true, webhookUrl: `${r.url}/hook` } }, s));
    }
  });
  after(async () => {
    await server.close();
    await Promise.all([failing.close(), working.close()]);
  });

  const call = (path: string, body: unknown, s = site) => server.call(path, body, { key: s.org.apiKey });
  const diagnostics = async (body: object = {}, s = site) => {
    const r = await call(DIAGNOSTICS, body, s);
    assertOk(r);
    return r.json.integrationDiagnosticEvents as any[];
  };

  it('lists each failed attempt to post to a webhook or the chat integration, newest first, within the range, of the caller only', async () => {
    const start = Date.now();
    await simulate(server, 'alert', { device: site.lobby, trigger: 'MOTION' });
    await simulate(server, 'alert', { device: other.lobby, trigger: 'MOTION' });
    const log = await waitFor('both deliveries to fail for good', async () => {
      const deliveries = (await call('/api/integrations/getDeliveryLog', { maxResults: 50 })).json.deliveries as any[];
      return deliveries.length === 2 && deliveries.every((d) => d.status === 'FAILED') && deliveries;
    });
    await outboxIdle(server.gatehouse.deps, other.org.orgUuid);

    const found = await diagnostics();
    const attempts = log.flatMap((d: any) => d.attemptLog.map((a: any) => ({ ...a, delivery: d })));
    assert.equal(found.length, attempts.length);
    assert.ok(found.length >= 4, 'several attempts of each');
    for (let i = 1; i < found.length; i++) assert.ok(found[i - 1].timestamp >= found[i].timestamp, 'newest first');
    const chat = log.find((d: any) => d.kind === 'CHAT_POLICY_ALERT');
    const hook = log.find((d: any) => d.kind !== 'CHAT_POLICY_ALERT');
    const of = (d: any) => found.filter((f) => f.deliveryUuid === d.deliveryUuid);
    assert.equal(of(chat).length, chat.attemptLog.length);
    assert.equal(of(hook).length, hook.attemptLog.length);
    assert.deepEqual(
      [...new Set(of(chat).map((f) => [f.integration, f.activity, f.thirdPartyDeviceName, f.statusCode, f.orgUuid].join(' ')))],
      [['UNKNOWN', 'NOTIFICATION_FAILURE', `${failing.url}/****`, 500, site.org.orgUuid].join(' ')],
      'the chat URL is a credential: its host only',
    );
    assert.deepEqual(
      [...new Set(of(hook).map((f) => [f.integration, f.activity, f.thirdPartyDeviceName, f.statusCode, f.error].join(' ')))],
      [['WEBHOOKS', 'EXTERNAL_WEBHOOK_FAILURE', `${failing.url}/hook`, 500, 'HTTP 500'].join(' ')],
    );
    assert.equal(new Set(found.map((f) => f.uuid)).size, found.length);
    assert.ok(found.every((f) => Date.parse(f.timestamp) >= start - 1000));

    assert.deepEqual(await diagnostics({ timestampMsBefore: start - 1000 }), []);
    const latest = Date.parse(found[0].timestamp);
    assert.deepEqual(
      (await diagnostics({ timestampMsAfter: latest })).map((f) => f.uuid),
      found.filter((f) => Date.parse(f.timestamp) >= latest).map((f) => f.uuid),
    );
    assert.deepEqual(await diagnostics({}, other), [], 'delivered posts are no failures, and another organization sees none of ours');
    assertFails(await call(DIAGNOSTICS, { timestampMsAfter: start, timestampMsBefore: start - 1 }), 'timestampMsAfter must not be after timestampMsBefore');
  });
});

import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { systemActor } from '../../../src/deps.js';
import { findSavedClip } from '../../../src/domains/events/clips/service.js';
import { CHAT_DELIVERY_KIND } from '../../../src/domains/integrations/chat-relay.js';
import { write } from '../../../src/bus/write.js';
import { rawChange } from '../../helpers/changes.js';
import { DELIVERY_ID_HEADER } from '../../../src/outbox/worker.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { outboxIdle } from '../../helpers/outbox-idle.js';
import { waitFor } from '../../helpers/wait.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { announcePolicyAlert, FAST_OUTBOX } from './alerts.js';
import { seedIntegrationSite, type IntegrationSite } from './site.js';

const LOG = '/api/integrations/getDeliveryLog';

forEachDialect('Chat integration: policy alerts posted through the outbox', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: IntegrationSite;
  const receivers: Receiver[] = [];
  before(async () => {
    server = await startTestServer(dialect, { env: { ...FAST_OUTBOX, GATEHOUSE_OUTBOX_MAX_ATTEMPTS: '4' } });
    org = await server.createOrg('Chat Org');
    other = await server.createOrg('Other Org');
    site = await seedIntegrationSite(server, org.orgUuid);
  });
  after(async () => {
    await server.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  async function receiver(answer: Parameters<typeof startReceiver>[0]) {
    const r = await startReceiver(answer);
    receivers.push(r);
    const update = await server.call(
      '/api/integrations/updateChatIntegration',
      { mattermostSettings: { enabled: true, channel: 'security', webhookUrl: `${r.url}/hooks/abc` } },
      { key: org.apiKey },
    );
    assert.equal(update.json.error, false, update.json.errorMsg);
    return r;
  }

  const deliveryLog = async (key = org.apiKey, body = {}) => (await server.call(LOG, body, { key })).json;

  it('posts the chat message of an alert once, after a receiver that fails twice then succeeds', async () => {
    const r = await receiver((_req, i) => (i < 2 ? { status: 503 } : { status: 200 }));
    const alert = await announcePolicyAlert(server, org.orgUuid, { deviceUuid: site.cameras.Lobby, triggers: ['MOTION_HUMAN', 'PEOPLECOUNT_HIGH'] });
    await r.waitFor(3);
    const delivered = await waitFor('the delivery', async () => {
      const log = await deliveryLog();
      return log.deliveries.find((d: any) => d.status === 'DELIVERED');
    });
    // Nothing more arrives: the delivery is final and the outbox has nothing left to send.
    await outboxIdle(server.gatehouse.deps, org.orgUuid);
    assert.equal(r.requests.length, 3);
    const ids = new Set(r.requests.map((q) => q.headers[DELIVERY_ID_HEADER]));
    assert.deepEqual([...ids], [delivered.deliveryUuid], 'the same delivery id on every attempt');
    const message = r.requests[2].json;
    assert.equal(message.channel, 'security');
    assert.match(message.text, /Policy alert\*\* on \*\*Lobby\*\* at \*\*HQ\*\*/);
    assert.match(message.text, /Triggers: MOTION_HUMAN, PEOPLECOUNT_HIGH/);
    const clipUrl = /Clip: (http:\/\/127\.0\.0\.1:\d+\/media\/clips\/([A-Za-z0-9_-]{22})\/video)$/m.exec(message.text);
    assert.ok(clipUrl, message.text);
    assert.ok(clipUrl[1].startsWith(server.gatehouse.urls.media));
    const clip = await findSavedClip(server.gatehouse.deps, org.orgUuid, clipUrl[2]);
    assert.equal(clip?.sourceAlertUuid, alert.uuid, 'the link is to a clip of the alert');
    assert.deepEqual(
      r.requests.map((q) => q.path),
      ['/hooks/abc', '/hooks/abc', '/hooks/abc'],
    );
    // The URL is a credential: the outbox keeps, and the log shows, its host only.
    assert.equal(delivered.targetUrl, `${r.url}/****`);
    const stored = await server.gatehouse.deps.store.db.selectFrom('outbox_deliveries').select(['target_url', 'headers', 'body']).execute();
    assert.ok(!stored.some((row) => JSON.stringify(row).includes('/hooks/abc')), 'no copy of the URL in the outbox');
    assert.equal(delivered.attempts, 3);
    assert.equal(delivered.kind, CHAT_DELIVERY_KIND);
    assert.equal(delivered.lastStatusCode, 200);
    assert.equal(delivered.lastError, null);
    assert.equal(delivered.nextAttemptAtMs, null);
    assert.ok(delivered.deliveredAtMs >= delivered.createdAtMs);
  });

  it('posts nothing twice when the same alert is announced again (a replay)', async () => {
    const r = await receiver(() => ({ status: 200 }));
    const alert = await announcePolicyAlert(server, org.orgUuid, { deviceUuid: site.cameras.Hall });
    await r.waitFor(1);
    await write(server.gatehouse.deps, systemActor(org.orgUuid, 'test.replay'), async (w) => {
      w.change(rawChange({ entity: 'POLICY_ALERT', entityUuid: alert.uuid, type: 'CREATE', update: alert }));
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(r.requests.length, 1);
    assert.match(r.requests[0].json.text, /\*\*Hall\*\* at \*\*Annex\*\*/);
  });

  it('gives up after the attempt limit, and the log says why', async () => {
    const r = await receiver(() => ({ status: 500 }));
    await announcePolicyAlert(server, org.orgUuid, { deviceUuid: site.cameras.Lobby });
    const failed = await waitFor('the delivery', async () => (await deliveryLog()).deliveries.find((d: any) => d.status === 'FAILED'));
    assert.equal(failed.attempts, 4);
    assert.equal(failed.lastStatusCode, 500);
    assert.equal(failed.lastError, 'HTTP 500');
    assert.equal(r.requests.length, 4);
  });

  it('does not retry a delivery the receiver refuses as a bad request', async () => {
    const r = await receiver(() => ({ status: 400 }));
    await announcePolicyAlert(server, org.orgUuid, { deviceUuid: site.cameras.Lobby });
    const failed = await waitFor('the delivery', async () =>
      (await deliveryLog()).deliveries.find((d: any) => d.status === 'FAILED' && d.lastStatusCode === 400),
    );
    assert.equal(failed.attempts, 1);
    assert.equal(r.requests.length, 1);
  });

  it('posts nothing for an alert of another organization, or when the integration is disabled', async () => {
    const r = await receiver(() => ({ status: 200 }));
    await announcePolicyAlert(server, other.orgUuid, { deviceUuid: site.cameras.Lobby });
    await server.call(
      '/api/integrations/updateChatIntegration',
      { mattermostSettings: { enabled: false, webhookUrl: `${r.url}/hooks/abc` } },
      { key: org.apiKey },
    );
    await announcePolicyAlert(server, org.orgUuid, { deviceUuid: site.cameras.Lobby });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(r.requests.length, 0);
  });

  it('ends a delivery still pending when the integration is disabled, without posting again', async () => {
    // The first attempt is answered (503) only once the integration is disabled, so that its retry, however soon
    // the back-off schedules it, finds the integration disabled.
    let disabled!: () => void;
    const afterDisable = new Promise<void>((resolve) => (disabled = resolve));
    const r = await receiver(() => afterDisable.then(() => ({ status: 503 })));
    await announcePolicyAlert(server, org.orgUuid, { deviceUuid: site.cameras.Lobby });
    await r.waitFor(1);
    await server.call('/api/integrations/updateChatIntegration', { mattermostSettings: { enabled: false } }, { key: org.apiKey });
    disabled();
    const ended = await waitFor('the delivery to end', async () => {
      const log = await deliveryLog();
      return log.deliveries.find((d: any) => d.status === 'FAILED' && /disabled or deleted/.test(d.lastError ?? ''));
    });
    assert.ok(ended);
    assert.equal(r.requests.length, 1);
  });

  it('answers each organization its own delivery log, newest first, in pages', async () => {
    const all = (await deliveryLog()).deliveries;
    assert.ok(all.length >= 4);
    assert.deepEqual(
      all.map((d: any) => d.createdAtMs),
      [...all.map((d: any) => d.createdAtMs)].sort((a, b) => b - a),
    );
    const first = await deliveryLog(org.apiKey, { maxResults: 2 });
    assert.equal(first.deliveries.length, 2);
    const second = await deliveryLog(org.apiKey, { maxResults: 100, lastDeliveryId: first.lastDeliveryId });
    assert.deepEqual(
      [...first.deliveries, ...second.deliveries].map((d: any) => d.deliveryUuid),
      all.map((d: any) => d.deliveryUuid),
    );
    assert.equal(second.lastDeliveryId, null);
    assert.deepEqual((await deliveryLog(other.apiKey)).deliveries, []);
    assert.equal((await deliveryLog(org.apiKey, { kind: 'NOTHING' })).deliveries.length, 0);
  });

  it('requires authentication for the delivery log and refuses a malformed body', async () => {
    assert.equal((await server.call(LOG, {}, { key: '' })).status, 401);
    assert.equal((await server.call(LOG, { maxResults: 0 }, { key: org.apiKey })).status, 400);
  });
});

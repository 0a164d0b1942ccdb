import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { webhookRetryDelayMs } from '../../../src/domains/integrations/webhooks/delivery.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startReceiver, type Answer, type ReceivedRequest, type Receiver } from '../../helpers/receiver.js';
import { waitFor } from '../../helpers/wait.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { collect, stompjsClient } from '../streaming/helpers.js';
import { FAST_WEBHOOKS, seedWebhookSite, settle, simulateAlert, verified, type WebhookSite } from './fixtures.js';

const UPDATE_V2 = '/api/integrations/webhooks/updateWebhookIntegrationV2';
const GET = '/api/integrations/webhooks/getWebhookIntegration';
const LOG = '/api/integrations/getDeliveryLog';

forEachDialect('Webhook delivery: retries, Retry-After, 410 and the address policy', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let site: WebhookSite;
  const receivers: Receiver[] = [];
  before(async () => {
    server = await startTestServer(dialect, { env: FAST_WEBHOOKS });
    org = await server.createOrg('Delivery Org');
    site = await seedWebhookSite(server, org.orgUuid);
  });
  after(async () => {
    await server.close();
    await Promise.all(receivers.map((r) => r.close()));
  });
  const call = (path: string, body: unknown = {}) => server.call(path, body, { key: org.apiKey });

  /** A receiver registered as the organization's only activity URL; answers its secret. */
  async function only(answer: (request: ReceivedRequest, index: number) => Answer): Promise<{ receiver: Receiver; secret: string }> {
    await call('/api/integrations/webhooks/deleteWebhookIntegrationV2');
    const receiver = await startReceiver(answer);
    receivers.push(receiver);
    const r = await call(UPDATE_V2, { webhookUrl: `${receiver.url}/in` });
    assert.equal(r.json.error, false, r.text);
    return { receiver, secret: r.json.webhookSecret };
  }
  const deliveriesTo = async (receiver: Receiver) =>
    ((await call(LOG, { kind: 'WEBHOOK_V2_ACTIVITY', maxResults: 500 })).json.deliveries as any[]).filter((d) => d.targetUrl.startsWith(receiver.url));

  describe('retries', () => {
    it('a receiver that is down, then up, gets every event once (deduplicated on webhook-id), each verifying', async () => {
      let up = false;
      const { receiver, secret } = await only(() => (up ? { status: 204 } : { status: 503 }));
      const alerts: Array<{ uuid: string }> = [];
      for (let i = 0; i < 3; i++) alerts.push(await simulateAlert(server, site.cameras.Lobby, 'MOTION', { text: `alert ${i}` }));
      // At least two failed attempts of each before the receiver comes up.
      const tries = (uuid: string) => receiver.requests.filter((r) => r.json?.alertUuid === uuid).length;
      await waitFor('two attempts of each alert', async () => (alerts.every((a) => tries(a.uuid) >= 2) ? true : undefined), 15_000);
      up = true;
      const delivered = await waitFor(
        'all three delivered',
        async () => {
          const ds = await deliveriesTo(receiver);
          return ds.length === 3 && ds.every((d) => d.status === 'DELIVERED') ? ds : undefined;
        },
        20_000,
      );
      const accepted = new Map<string, ReceivedRequest>();
      for (const r of receiver.requests) {
        assert.deepEqual(verified(r, secret), JSON.parse(r.body));
        if (!accepted.has(String(r.headers['webhook-id']))) accepted.set(String(r.headers['webhook-id']), r);
      }
      assert.deepEqual([...accepted.values()].map((r) => r.json.alertUuid).sort(), alerts.map((a) => a.uuid).sort());
      assert.deepEqual([...accepted.keys()].sort(), delivered.map((d) => `msg_${d.deliveryUuid}`).sort());
      for (const d of delivered) {
        assert.ok(d.attempts >= 3);
        assert.deepEqual(
          d.attemptLog.map((a: any) => a.statusCode),
          [...Array(d.attempts - 1).fill(503), 204],
        );
        assert.deepEqual(
          d.attemptLog.map((a: any) => a.attempt),
          Array.from({ length: d.attempts }, (_, i) => i + 1),
        );
      }
      await settle();
      const count = receiver.requests.length;
      await settle();
      assert.equal(receiver.requests.length, count, 'nothing more after delivery');
    });

    it('a redirect is a failure and is retried, not followed', async () => {
      const { receiver } = await only((_req, i) => (i === 0 ? { status: 302 } : { status: 200 }));
      await simulateAlert(server, site.cameras.Lobby);
      await receiver.waitFor(2);
      const [d] = await waitFor(
        'condition',
        async () => {
          const ds = await deliveriesTo(receiver);
          return ds[0]?.status === 'DELIVERED' ? ds : undefined;
        },
        10_000,
      );
      assert.deepEqual(
        d.attemptLog.map((a: any) => [a.statusCode, a.error]),
        [
          [302, 'HTTP 302'],
          [200, null],
        ],
      );
    });

    it('follows the Svix schedule, scaled, with jitter, and gives up after the 8th attempt', () => {
      assert.deepEqual(
        [1, 2, 3, 4, 5, 6, 7].map((n) => webhookRetryDelayMs(n, 1, () => 0.5)),
        [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      );
      assert.equal(
        webhookRetryDelayMs(8, 1, () => 0.5),
        null,
      );
      assert.deepEqual([webhookRetryDelayMs(1, 1, () => 0), webhookRetryDelayMs(1, 1, () => 1)], [4_000, 6_000]);
      assert.equal(
        webhookRetryDelayMs(2, 0.001, () => 0.5),
        300,
      );
    });

    it('waits as Retry-After says on 429 and 503', async () => {
      const { receiver } = await only((_req, i) => (i === 0 ? { status: 429 } : { status: 200 }));
      // The receiver helper cannot set headers: a second one that sends Retry-After: 1.
      const { createServer } = await import('node:http');
      const times: number[] = [];
      const limited = createServer((req, res) => {
        times.push(Date.now());
        req.resume();
        req.on('end', () => (times.length === 1 ? res.writeHead(503, { 'retry-after': '1' }).end() : res.writeHead(200).end()));
      });
      await new Promise<void>((resolve) => limited.listen(0, '127.0.0.1', resolve));
      try {
        await call('/api/integrations/webhooks/deleteWebhookIntegrationV2');
        const url = `http://127.0.0.1:${(limited.address() as { port: number }).port}/limited`;
        assert.equal((await call(UPDATE_V2, { webhookUrl: url })).json.error, false);
        await simulateAlert(server, site.cameras.Lobby);
        await waitFor('the second attempt', async () => (times.length >= 2 ? true : undefined), 10_000);
        assert.ok(times[1] - times[0] >= 950, `the retry waited ${times[1] - times[0]} ms, Retry-After said 1 s`);
        assert.equal(receiver.requests.length, 0);
      } finally {
        limited.closeAllConnections();
        await new Promise((resolve) => limited.close(resolve));
      }
    });
  });

  describe('410 Gone', () => {
    it('disables the URL after one attempt, announces it on the stream, and sends it nothing more', async () => {
      const { receiver } = await only(() => ({ status: 410 }));
      const client = await stompjsClient(server.gatehouse.urls.ws, { key: org.apiKey, scheme: 'api-token' });
      try {
        const sub = await collect(client, `/topic/change/${org.orgUuid}`);
        await simulateAlert(server, site.cameras.Lobby);
        await receiver.waitFor(1);
        const seen = () => sub.messages.map((m) => JSON.parse(m.body));
        await waitFor(
          'the disabled URL on the stream',
          async () => (seen().some((c) => c.entity === 'WEBHOOK_ENDPOINT' && c.update.webhookDisabled) ? true : undefined),
          5000,
        );
        const change = seen().find((c) => c.entity === 'WEBHOOK_ENDPOINT' && c.update.webhookDisabled);
        assert.deepEqual([change.type, change.update.url, change.update.disabledReason], ['UPDATE', `${receiver.url}/in`, 'GONE: the receiver answered 410']);
        assert.ok(!JSON.stringify(change).includes('whsec_'), 'the stream carries no secret');
      } finally {
        await client.deactivate();
      }
      const info = (await call(GET)).json.orgIntegrationV2.activityWebhooksV2[`${receiver.url}/in`];
      assert.equal(info.webhookDisabled, true);
      const [d] = await deliveriesTo(receiver);
      assert.deepEqual([d.status, d.attempts, d.lastStatusCode], ['FAILED', 1, 410]);
      await simulateAlert(server, site.cameras.Lobby);
      await settle();
      assert.equal(receiver.requests.length, 1);
    });

    it('turns the classic webhook off', async () => {
      const receiver = await startReceiver(() => ({ status: 410 }));
      receivers.push(receiver);
      await call('/api/integrations/webhooks/updateWebhookIntegration', { webhookSettings: { enabled: true, webhookUrl: `${receiver.url}/classic` } });
      await simulateAlert(server, site.cameras.Lobby);
      await receiver.waitFor(1);
      await waitFor(
        'the classic webhook disabled',
        async () => ((await call('/api/integrations/org/getOrgIntegrations')).json.orgIntegrations.webhookSettings.enabled === false ? true : undefined),
        5000,
      );
    });
  });

  describe('the outbound address policy', () => {
    it('refuses a private URL when private outbound traffic is not allowed', async () => {
      const strict = await startTestServer(dialect, { env: { ...FAST_WEBHOOKS, GATEHOUSE_ALLOW_PRIVATE_OUTBOUND: 'false' } });
      try {
        const o = await strict.createOrg('Strict Org');
        for (const [path, body] of [
          [UPDATE_V2, { webhookUrl: 'http://127.0.0.1:9/in' }],
          ['/api/integrations/webhooks/updateWebhookIntegration', { webhookSettings: { enabled: true, webhookUrl: 'http://10.0.0.1/in' } }],
          ['/api/integrations/webhooks/subscribeZapierWebhook', { hookUrl: 'http://169.254.169.254/latest', zapEnum: 'BUTTON_EVENTS' }],
        ] as const) {
          const r = await strict.call(path, body, { key: o.apiKey });
          assert.equal(r.json.error, true, path);
          assert.match(r.json.errorMsg, /private, loopback or link-local/);
        }
      } finally {
        await strict.close();
      }
    });
  });
});

import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { randomToken } from '../../../src/ids.js';
import { DELIVERY_ID_HEADER } from '../../../src/outbox/worker.js';
import { createTestDatabase, REDIS_TEST_URL, type TestDatabase } from '../../helpers/databases.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { outboxIdle } from '../../helpers/outbox-idle.js';
import { waitFor } from '../../helpers/wait.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { announcePolicyAlert, FAST_OUTBOX } from './alerts.js';
import { seedIntegrationSite, type IntegrationSite } from './site.js';

forEachDialect('Outbox: deliveries survive restarts and several instances', (dialect) => {
  let database: TestDatabase;
  let org: TestOrg;
  let site: IntegrationSite;
  const cleanup: Array<() => Promise<void>> = [];
  before(async () => {
    database = await createTestDatabase(dialect);
  });
  after(async () => {
    for (const c of cleanup.reverse()) await c().catch(() => {});
    await database.drop();
  });

  async function server(env: Record<string, string> = {}, busUrl?: string): Promise<TestServer> {
    const s = await startTestServer(dialect, { databaseUrl: database.url, busUrl, env: { ...FAST_OUTBOX, ...env } });
    cleanup.push(() => s.close());
    return s;
  }
  async function receiver(answer: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
    const r = await startReceiver(answer);
    cleanup.push(() => r.close());
    return r;
  }
  async function enableChat(s: TestServer, r: Receiver) {
    const update = await s.call(
      '/api/integrations/updateChatIntegration',
      { mattermostSettings: { enabled: true, webhookUrl: `${r.url}/hook` } },
      { key: org.apiKey },
    );
    assert.equal(update.json.error, false, update.json.errorMsg);
  }
  const log = async (s: TestServer) => (await s.call('/api/integrations/getDeliveryLog', {}, { key: org.apiKey })).json.deliveries;

  it('hands an interrupted delivery to the next run, which delivers it under the same delivery id', async () => {
    const first = await server();
    org = await first.createOrg('Restart Org');
    site = await seedIntegrationSite(first, org.orgUuid);
    const r = await receiver((_req, i) => (i === 0 ? 'hang' : { status: 200 }));
    await enableChat(first, r);
    await announcePolicyAlert(first, org.orgUuid, { deviceUuid: site.cameras.Lobby });
    await r.waitFor(1);
    assert.equal((await log(first))[0].status, 'IN_FLIGHT');
    await first.close(); // stops in the middle of the delivery

    const second = await server();
    await r.waitFor(2);
    const [delivery] = await waitFor('the delivery', async () => {
      const d = await log(second);
      return d[0]?.status === 'DELIVERED' ? d : undefined;
    });
    assert.equal(r.requests[0].headers[DELIVERY_ID_HEADER], delivery.deliveryUuid);
    assert.equal(r.requests[1].headers[DELIVERY_ID_HEADER], delivery.deliveryUuid);
    assert.equal(delivery.attempts, 1, 'the interrupted attempt is not counted');
    await second.close();
  });

  it("takes over the delivery of an instance that crashed once its claim's lease runs out", async () => {
    const s = await server({ GATEHOUSE_OUTBOX_LEASE_MS: '60000' });
    const r = await receiver(() => ({ status: 200 }));
    await enableChat(s, r);
    // What a crashed instance leaves: a claimed row whose lease has run out.
    const db = s.gatehouse.deps.store.db;
    await db
      .insertInto('outbox_deliveries')
      .values({
        uuid: 'crashedDeliveryAAAAAAA',
        org_uuid: org.orgUuid,
        kind: 'TEST',
        dedupe_key: 'crashed',
        target_url: `${r.url}/hook`,
        headers: '{}',
        body: '{"text":"left behind"}',
        status: 'IN_FLIGHT',
        attempts: 1,
        next_attempt_at_ms: Date.now() - 1,
        claim_token: randomToken(96),
        last_error: null,
        last_status_code: null,
        created_at_ms: Date.now(),
        updated_at_ms: Date.now(),
        delivered_at_ms: null,
      })
      .execute();
    await r.waitFor(1);
    const row = await waitFor('the delivery', async () => {
      const found = await db.selectFrom('outbox_deliveries').selectAll().where('uuid', '=', 'crashedDeliveryAAAAAAA').executeTakeFirst();
      return found?.status === 'DELIVERED' ? found : undefined;
    });
    assert.equal(row.attempts, 2);
    assert.equal(r.requests[0].json.text, 'left behind');
    await s.close();
  });

  it('delivers an alert once when two instances share the store and the bus', async () => {
    const a = await server({}, REDIS_TEST_URL);
    const b = await server({}, REDIS_TEST_URL);
    const r = await receiver(() => ({ status: 200 }));
    await enableChat(a, r);
    const alerts = [];
    for (let i = 0; i < 5; i++) alerts.push(await announcePolicyAlert(i % 2 ? a : b, org.orgUuid, { deviceUuid: site.cameras.Lobby }));
    await r.waitFor(5);
    // Once the outbox is idle nothing more goes out; a later relay of the same alert is refused by its dedupe key.
    await outboxIdle(a.gatehouse.deps, org.orgUuid);
    assert.equal(r.requests.length, 5, 'each alert once, though both instances relayed each');
    const texts = new Set(r.requests.map((q) => q.headers[DELIVERY_ID_HEADER]));
    assert.equal(texts.size, 5);
  });
});

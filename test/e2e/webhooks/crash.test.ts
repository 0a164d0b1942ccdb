import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { lastJson, runCli, spawnServer } from '../../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/databases.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { waitFor } from '../../helpers/wait.js';
import { callApi } from '../../helpers/server.js';
import { FAST_WEBHOOKS, verified } from './fixtures.js';

const ALERTS = 5;

forEachDialect('Webhooks: a server killed (SIGKILL) in the middle of deliveries', (dialect) => {
  let database: TestDatabase;
  let dataDir: string;
  let receiver: Receiver;
  const servers: Array<Awaited<ReturnType<typeof spawnServer>>> = [];
  before(async () => {
    database = await createTestDatabase(dialect);
    dataDir = mkdtempSync(join(tmpdir(), 'gh-webhook-crash-'));
    // The first request never gets an answer: the server dies while waiting for it.
    receiver = await startReceiver((_req, i) => (i === 0 ? 'hang' : { status: 200 }));
  });
  after(async () => {
    for (const s of servers) await s.stop();
    await receiver.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async () => {
    const args = ['--data-dir', dataDir, '--database', database.url, '--http-port', '0', '--media-port', '0', '--ws-port', '0', '--no-seed'];
    const server = await spawnServer(args, { ...FAST_WEBHOOKS, GATEHOUSE_OUTBOX_LEASE_MS: '1500', GATEHOUSE_ADMIN_TOKEN: '' });
    servers.push(server);
    return { server, rest: /REST:\s+(\S+)/.exec(server.output())![1] };
  };

  it('loses nothing: the next server delivers every alert, each under one stable webhook-id', async () => {
    const org = lastJson((await runCli(['org', 'create', '--name', 'Crash Org', '--json', '--data-dir', dataDir, '--database', database.url])).stdout);
    const first = await start();
    const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    const admin = { headers: { authorization: `Bearer ${token}` } };
    const seeded = await callApi(
      first.rest,
      `/_gatehouse/orgs/${org.orgUuid}/seed`,
      { locations: [{ name: 'HQ' }], cameras: [{ name: 'Lobby', location: 'HQ' }] },
      admin,
    );
    assert.equal(seeded.json.error, false, seeded.text);
    const added = await callApi(first.rest, '/api/integrations/webhooks/updateWebhookIntegrationV2', { webhookUrl: `${receiver.url}/in` }, { key: org.apiKey });
    assert.equal(added.json.error, false, added.text);
    const secret = added.json.webhookSecret;

    const alerts: string[] = [];
    for (let i = 0; i < ALERTS; i++) {
      const r = await callApi(first.rest, '/_gatehouse/simulate/alert', { device: seeded.json.cameras.Lobby, trigger: 'MOTION' }, admin);
      assert.equal(r.json.error, false, r.text);
      alerts.push(r.json.policyAlert.uuid);
    }
    await receiver.waitFor(1, 20_000);
    const exited = new Promise((resolve) => first.server.child.once('exit', resolve));
    first.server.child.kill('SIGKILL');
    await exited;
    servers.splice(servers.indexOf(first.server), 1);

    const second = await start();
    const delivered = await waitFor(
      'every delivery made',
      async () => {
        const log = await callApi(second.rest, '/api/integrations/getDeliveryLog', { kind: 'WEBHOOK_V2_ACTIVITY' }, { key: org.apiKey });
        const ds = log.json.deliveries ?? [];
        return ds.length === ALERTS && ds.every((d: any) => d.status === 'DELIVERED') ? ds : undefined;
      },
      30_000,
    );
    // Deduplicated on webhook-id, the receiver has each alert exactly once, every request verifying.
    const byId = new Map<string, string>();
    for (const r of receiver.requests) {
      const body = verified(r, secret) as { alertUuid: string };
      const id = String(r.headers['webhook-id']);
      assert.equal(byId.get(id) ?? body.alertUuid, body.alertUuid, 'one webhook-id, one alert');
      byId.set(id, body.alertUuid);
    }
    assert.deepEqual([...byId.values()].sort(), [...alerts].sort());
    assert.deepEqual([...byId.keys()].sort(), delivered.map((d: any) => `msg_${d.deliveryUuid}`).sort());
    const cut = delivered.find((d: any) => d.attempts === 2);
    assert.ok(cut, 'the attempt the crash cut short counts, and the next server made the second');
  });
});

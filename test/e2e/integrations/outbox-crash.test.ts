import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { DELIVERY_ID_HEADER } from '../../../src/outbox/worker.js';
import { lastJson, runCli, spawnServer } from '../../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/databases.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { waitFor } from '../../helpers/wait.js';
import { callApi } from '../../helpers/server.js';
import { FAST_OUTBOX } from './alerts.js';

forEachDialect('Outbox: a server killed in the middle of a chat delivery', (dialect) => {
  let database: TestDatabase;
  let dataDir: string;
  let receiver: Receiver;
  const servers: Array<Awaited<ReturnType<typeof spawnServer>>> = [];
  before(async () => {
    database = await createTestDatabase(dialect);
    dataDir = mkdtempSync(join(tmpdir(), 'gh-crash-'));
    // The first attempt never gets an answer: the server dies while waiting for it.
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
    const server = await spawnServer(args, { ...FAST_OUTBOX, GATEHOUSE_OUTBOX_LEASE_MS: '1500', GATEHOUSE_ADMIN_TOKEN: '' });
    servers.push(server);
    return { server, rest: /REST:\s+(\S+)/.exec(server.output())![1] };
  };

  it('is delivered by the next server, under the same delivery id, once the lease runs out', async () => {
    const org = lastJson((await runCli(['org', 'create', '--name', 'Crash Org', '--json', '--data-dir', dataDir, '--database', database.url])).stdout);
    const first = await start();
    const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    const seeded = await callApi(
      first.rest,
      `/_gatehouse/orgs/${org.orgUuid}/seed`,
      { locations: [{ name: 'HQ' }], cameras: [{ name: 'Lobby', location: 'HQ' }] },
      { headers: { authorization: `Bearer ${token}` } },
    );
    assert.equal(seeded.json.error, false, seeded.text);
    const chat = await callApi(
      first.rest,
      '/api/integrations/updateChatIntegration',
      { mattermostSettings: { enabled: true, webhookUrl: `${receiver.url}/hook` } },
      { key: org.apiKey },
    );
    assert.equal(chat.json.error, false, chat.text);

    const alert = await runCli(
      ['simulate', 'alert', '--device', seeded.json.cameras.Lobby, '--trigger', 'MOTION_HUMAN', '--server', first.rest, '--data-dir', dataDir],
      { GATEHOUSE_ADMIN_TOKEN: '' },
    );
    assert.equal(alert.code, 0, alert.stderr);
    await receiver.waitFor(1, 20_000);
    const exited = new Promise((resolve) => first.server.child.once('exit', resolve));
    first.server.child.kill('SIGKILL');
    await exited;
    servers.splice(servers.indexOf(first.server), 1);

    const second = await start();
    await receiver.waitFor(2, 20_000);
    const delivery = await waitFor(
      'the delivery',
      async () => {
        const log = await callApi(second.rest, '/api/integrations/getDeliveryLog', {}, { key: org.apiKey });
        const d = log.json.deliveries?.[0];
        return d?.status === 'DELIVERED' ? d : undefined;
      },
      20_000,
    );
    assert.equal(receiver.requests.length, 2);
    assert.deepEqual(
      receiver.requests.map((r) => r.headers[DELIVERY_ID_HEADER]),
      [delivery.deliveryUuid, delivery.deliveryUuid],
    );
    assert.equal(delivery.attempts, 2, 'the attempt the crash cut short counts');
    assert.match(receiver.requests[1].json.text, /\*\*Lobby\*\* at \*\*HQ\*\*/);
  });
});

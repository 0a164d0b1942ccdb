import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { simulateEvents } from '../../../src/cli/simulate-catalogue.js';
import { eventsHelp } from '../../../src/cli/simulate.js';
import { createOrg } from '../../../src/domains/orgs/service.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { lastJson, runCli } from '../../helpers/cli.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { adminTokenOf } from '../control/admin.js';

/** A loopback port that nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('gatehouse CLI: the contract', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'gh-cli-contract-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('--version prints the package version', async () => {
    const r = await runCli(['--version']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), JSON.parse(readFileSync('package.json', 'utf8')).version);
  });

  it('refuses a data dir without a store unless --init, and then creates one', async () => {
    const empty = join(dir, 'typo');
    const refused = await runCli(['org', 'create', '--name', 'X', '--json', '--data-dir', empty]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /no store in .*typo.*--init/);
    assert.equal(refused.stdout, '');
    const created = await runCli(['org', 'create', '--name', 'X', '--json', '--data-dir', empty, '--init']);
    assert.equal(created.code, 0, created.stderr);
    assert.match(lastJson(created.stdout).apiKey, /^us_/);
    assert.equal((await runCli(['key', 'create', '--org', lastJson(created.stdout).orgUuid, '--json', '--data-dir', empty])).code, 0);
  });

  it("key create refuses a region other than the organization's", async () => {
    const data = join(dir, 'regions');
    const org = lastJson((await runCli(['org', 'create', '--name', 'US Org', '--json', '--data-dir', data, '--init'])).stdout);
    const r = await runCli(['key', 'create', '--org', org.orgUuid, '--region', 'eu', '--json', '--data-dir', data]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /is in the us region, not eu/);
    assert.equal(r.stdout, '');
  });

  describe('simulate', () => {
    it('--help lists every event with its flags', async () => {
      const r = await runCli(['simulate', '--help']);
      assert.equal(r.code, 0, r.stderr);
      for (const line of [
        'alert --device UUID --trigger TRIGGER [--people N]',
        'crossing --camera UUID --in N --out N --object HUMAN|VEHICLE|FACE',
        'controller --door UUID [--online] [--offline]',
      ]) {
        assert.ok(r.stdout.includes(line), `${line}\n${r.stdout}`);
      }
      // The CLI reads the events from the build's catalogue: the same as the routes of this checkout.
      assert.ok(r.stdout.includes(eventsHelp(await simulateEvents())), r.stdout);
    });

    it('refuses an unknown event, listing the events', async () => {
      const r = await runCli(['simulate', 'earthquake', '--server', 'http://127.0.0.1:1']);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /unknown event "earthquake"/);
      assert.match(r.stderr, /press --button UUID --press /);
    });

    it('refuses an unknown flag naming it, and words errors in flags', async () => {
      const base = ['simulate', 'alert', '--server', 'http://127.0.0.1:1'];
      const unknown = await runCli([...base, '--device', 'AAAAAAAAAAAAAAAAAAAAAA', '--trigger', 'MOTION', '--peple', '3']);
      assert.match(unknown.stderr, /unknown flag --peple for alert/);
      assert.match((await runCli([...base, '--trigger', 'MOTION'])).stderr, /--device is required/);
      assert.match(
        (await runCli([...base, '--device', 'AAAAAAAAAAAAAAAAAAAAAA', '--trigger', 'WOBBLE'])).stderr,
        /--trigger must be one of SOUND_LOUD, .*MOTION/,
      );
      assert.doesNotMatch(unknown.stderr, /body\//);
    });

    it('names an unreachable server and the reason', async () => {
      const url = `http://127.0.0.1:${await closedPort()}`;
      const r = await runCli(['simulate', 'alert', '--device', 'AAAAAAAAAAAAAAAAAAAAAA', '--trigger', 'MOTION', '--server', url], {
        GATEHOUSE_ADMIN_TOKEN: 'token',
      });
      assert.equal(r.code, 1);
      assert.match(r.stderr, new RegExp(`cannot reach the server at ${url}: ECONNREFUSED`));
    });
  });
});

forEachDialect('gatehouse simulate against a running server', (dialect) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(dialect);
  });
  after(async () => {
    await server?.close();
  });
  const simulate = (args: string[]) => runCli(['simulate', ...args, '--server', server.rest, '--data-dir', server.config.dataDir]);

  it('takes --region, --database and --data-dir without sending them as event flags', async () => {
    const org = await server.createOrg('Simulated Org');
    const seeded = await fetch(`${server.rest}/_gatehouse/orgs/${org.orgUuid}/seed`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminTokenOf(server)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ locations: [{ name: 'HQ' }], cameras: [{ name: 'Lobby', location: 'HQ' }] }),
    });
    const camera = (await seeded.json()).cameras.Lobby;
    const r = await simulate(['alert', '--device', camera, '--trigger', 'MOTION', '--people', '3', '--region', 'us', '--database', 'sqlite:/nonexistent/x.db']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(lastJson(r.stdout).policyAlert.numHumans, 3);
  });

  it("prints the server's reason for an ignored event", async () => {
    const { orgUuid } = await createOrg(server.gatehouse.deps, { name: 'No Integration' });
    const r = await simulate(['smart-sensor', '--org', orgUuid, '--sensor', 'hall', '--type', 'VAPE']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(lastJson(r.stdout).ignored, true);
    assert.match(r.stderr, /the server ignored the event: event ignored: the smart-sensor integration is not enabled/);
  });

  it('the server refuses an unknown flag in flag words too', async () => {
    const r = await fetch(`${server.rest}/_gatehouse/simulate/alert`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminTokenOf(server)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ device: 'AAAAAAAAAAAAAAAAAAAAAA', trigger: 'MOTION', peple: '3' }),
    });
    assert.equal(r.status, 400);
    assert.match((await r.json()).errorMsg, /unknown flag --peple for alert/);
  });
});

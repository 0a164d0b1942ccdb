import assert from 'node:assert/strict';
import { REPO_ROOT } from '../../../scripts/lib/repo-root.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { findDevice } from '../../../src/domains/devices/service.js';
import { GATEHOUSE_BIN } from '../../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/databases.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

const root = REPO_ROOT;

/** Runs `gatehouse ...` as a user would, bounded in time. */
function gatehouse(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [GATEHOUSE_BIN, ...args], {
      cwd: root,
      env: { ...process.env, GATEHOUSE_ADMIN_TOKEN: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

forEachDialect('gatehouse seed', (dialect) => {
  let database: TestDatabase;
  let dir: string;
  let store: string[];
  let orgUuid: string;
  before(async () => {
    database = await createTestDatabase(dialect);
    dir = mkdtempSync(join(tmpdir(), 'gh-seed-cli-'));
    store = ['--data-dir', join(dir, 'data'), '--database', database.url];
    const org = await gatehouse(['org', 'create', '--name', 'CLI Org', '--json', ...store]);
    assert.equal(org.code, 0, org.stderr);
    orgUuid = JSON.parse(org.stdout).orgUuid;
  });
  after(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads the demo YAML file and prints the created UUIDs by kind and name', async () => {
    const r = await gatehouse(['seed', 'examples/demo-site.yaml', '--org', orgUuid, '--json', ...store]);
    assert.equal(r.code, 0, r.stderr);
    const created = JSON.parse(r.stdout);
    assert.match(created.cameras.Lobby, /^[A-Za-z0-9_-]{22}$/);
    assert.deepEqual(Object.keys(created.doors).sort(), ['Dock Door', 'Front Door', 'Server Room Door']);
    assert.equal(Object.keys(created.locations).length, 2);
  });

  it('loads a JSON file', async () => {
    const file = join(dir, 'site.json');
    writeFileSync(file, JSON.stringify({ locations: [{ name: 'Depot' }], relays: [{ name: 'R', location: 'Depot' }] }));
    const r = await gatehouse(['seed', file, '--org', orgUuid, '--json', ...store]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(Object.keys(JSON.parse(r.stdout)).sort(), ['locations', 'relays']);
  });

  it('refuses a bad file with the entry and field on stderr, exit code 1 and nothing printed', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'locations: [{name: HQ}]\ndoors: [{name: Back Door, location: HQ, schedule: Nights}]\n');
    const r = await gatehouse(['seed', file, '--org', orgUuid, '--json', ...store]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trim(), 'gatehouse: site file: doors[0].schedule (Back Door): no schedule named "Nights"');
  });
});

forEachDialect('gatehouse seed --server', (dialect) => {
  let server: TestServer;
  let orgUuid: string;
  let dir: string;
  before(async () => {
    server = await startTestServer(dialect);
    orgUuid = (await server.createOrg('Served Org')).orgUuid;
    dir = mkdtempSync(join(tmpdir(), 'gh-seed-srv-'));
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("goes through the running server's control API, so its bus carries the changes", async () => {
    const file = join(dir, 'site.yaml');
    writeFileSync(file, 'locations: [{name: HQ}]\ncameras: [{name: Lobby, location: HQ}]\n');
    const events: ChangeEvent[] = [];
    const unsubscribe = server.gatehouse.deps.bus.subscribe('change', (e) => events.push(e));
    const r = await gatehouse(['seed', file, '--org', orgUuid, '--json', '--server', server.rest, '--data-dir', server.config.dataDir]);
    unsubscribe();
    assert.equal(r.code, 0, r.stderr);
    const created = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(created).sort(), ['cameras', 'locations']);
    assert.equal((await findDevice(server.gatehouse.deps, orgUuid, created.cameras.Lobby))?.name, 'Lobby');
    assert.deepEqual(
      events.map((e) => [e.entity, e.entityUuid]),
      [
        ['LOCATION', created.locations.HQ],
        ['CAMERA', created.cameras.Lobby],
      ],
    );
  });

  it("reports the server's refusal of a bad file", async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ locations: [{ name: 'HQ', timeZone: 'Nowhere/City' }] }));
    const r = await gatehouse(['seed', file, '--org', orgUuid, '--json', '--server', server.rest, '--data-dir', server.config.dataDir]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /locations\[0\]\.timeZone \(HQ\): "Nowhere\/City" is not a known IANA time zone/);
  });

  it('fails with a clear message when the admin token is wrong or missing', async () => {
    const file = join(dir, 'ok.yaml');
    writeFileSync(file, 'people: [{name: P}]\n');
    const wrong = await gatehouse(['seed', file, '--org', orgUuid, '--server', server.rest], { GATEHOUSE_ADMIN_TOKEN: 'wrong-token' });
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /admin token is required/);
    const missing = await gatehouse(['seed', file, '--org', orgUuid, '--server', server.rest, '--data-dir', join(dir, 'empty')]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no admin token/);
  });
});

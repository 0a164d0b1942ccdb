import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../../scripts/lib/repo-root.js';
import { createOrg } from '../../../src/domains/orgs/service.js';
import { runCli } from '../../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/databases.js';
import { freePort, startInstance } from '../../helpers/instances.js';
import { raiseChanges, StrictClient } from './helpers.js';
import { waitFor } from '../../helpers/wait.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A Redis of this test's own (nothing else uses it), so that it can be stopped and started again. */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const deadline = Date.now() + 5000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const probe = spawn('redis-cli', ['-p', String(port), 'ping'], { stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      probe.stdout!.on('data', (d) => (out += d));
      probe.on('close', () => resolve(out.includes('PONG')));
    });
    if (up) return child;
    if (Date.now() > deadline) throw new Error(`redis-server did not start on ${port}`);
    await sleep(50);
  }
}

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

describe('a Redis bus that is unreachable or lost', () => {
  it('start exits within 10 s with one line naming the unreachable URL', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'gh-nobus-'));
    try {
      // What loading the server's modules costs on this machine now (start loads them before it reaches the bus).
      const loadStarted = Date.now();
      await promisify(execFile)(process.execPath, [
        '--input-type=module',
        '-e',
        `await import(${JSON.stringify(pathToFileURL(join(REPO_ROOT, 'dist/app.js')).href)})`,
      ]);
      const load = Date.now() - loadStarted;
      const started = Date.now();
      const r = await runCli([
        'start',
        '--bus',
        `redis://127.0.0.1:${port}`,
        '--data-dir',
        dataDir,
        '--http-port',
        '0',
        '--media-port',
        '0',
        '--ws-port',
        '0',
        '--no-seed',
      ]);
      const elapsed = Date.now() - started;
      assert.equal(r.code, 1, r.stdout + r.stderr);
      assert.ok(elapsed - load < 10_000, `exited ${elapsed - load} ms after loading (${elapsed} ms in all)`);
      const lines = r.stderr.trim().split('\n');
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0]!, new RegExp(`cannot reach the bus at redis://127\\.0\\.0\\.1:${port}`));
      assert.doesNotMatch(r.stdout, /running/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  describe('lost while running', () => {
    let db: TestDatabase;
    let redis: ChildProcess;
    let port: number;
    let instance: Awaited<ReturnType<typeof startInstance>>;
    before(async () => {
      port = await freePort();
      redis = await startRedis(port);
      db = await createTestDatabase('sqlite');
      instance = await startInstance({ databaseUrl: db.url, busUrl: `redis://127.0.0.1:${port}`, stream: { logPollMs: 500 } });
    });
    after(async () => {
      await instance.stop();
      await stopRedis(redis);
      await db.drop();
    });

    it('keeps writing, answers 503 naming the bus on /healthz, and delivers every change once Redis is back', async () => {
      const org = await createOrg(instance.deps, { name: 'Outage' });
      const c = await StrictClient.connect(instance.urls.ws, { key: org.apiKey, scheme: 'api-token' });
      c.send(`SUBSCRIBE\nid:0\ndestination:/topic/change/${org.orgUuid}\nreceipt:s\n\n\0`);
      await c.next();
      await raiseChanges(instance.deps, org.orgUuid, [{ entityUuid: 'before' }]);
      await c.until(() => c.frames.some((f) => f.command === 'MESSAGE'), 'the first change');
      assert.equal((await fetch(`${instance.urls.rest}/healthz`)).status, 200);

      await stopRedis(redis);
      let health: Response | null = null;
      await waitFor(
        '/healthz to answer 503',
        () => health?.status === 503 || (void fetch(`${instance.urls.rest}/healthz`).then((r) => (health = r)), false),
        5000,
      );
      const body = (await health!.json()) as { error: boolean; errorMsg: string };
      assert.equal(body.error, true);
      assert.match(body.errorMsg, new RegExp(`bus redis://127\\.0\\.0\\.1:${port}`));

      // Writes go on while the bus is away: each commits at once.
      const during = Array.from({ length: 10 }, (_, i) => `during-${i}`);
      for (const entityUuid of during) {
        const t = Date.now();
        await raiseChanges(instance.deps, org.orgUuid, [{ entityUuid }]);
        assert.ok(Date.now() - t < 2000, 'a write does not wait for the bus');
      }
      redis = await startRedis(port);
      await waitFor(
        '/healthz to answer 200 again',
        () => health?.status === 200 || (void fetch(`${instance.urls.rest}/healthz`).then((r) => (health = r)), false),
        15_000,
      );
      await raiseChanges(instance.deps, org.orgUuid, [{ entityUuid: 'after' }]);
      const uuids = () => c.frames.filter((f) => f.command === 'MESSAGE').map((f) => JSON.parse(f.body).entityUuid);
      await c.until(() => uuids().includes('after'), 'every change', 10_000);
      assert.deepEqual(uuids(), ['before', ...during, 'after']);
      c.close();
    });
  });
});

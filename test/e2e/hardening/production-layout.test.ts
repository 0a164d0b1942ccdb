import assert from 'node:assert/strict';
import { REPO_ROOT } from '../../../scripts/lib/repo-root.js';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GATEHOUSE_BIN } from '../../helpers/cli.js';
import { createTestDatabase, postgresProblem, REDIS_TEST_URL, type TestDatabase } from '../../helpers/databases.js';
import { callApi } from '../../helpers/server.js';
import { StrictClient } from '../streaming/helpers.js';

/**
 * The layout of docs/production.md, on loopback: two Gatehouse processes on one PostgreSQL and one Redis,
 * behind HAProxy (Debian's package; .ci/run installs it). One instance is killed (SIGKILL) in the middle
 * of a run of writes through the load balancer: every write that was acknowledged is in the store and in
 * the change log, and the stream through the load balancer keeps delivering.
 */
const haproxy = spawnSync('haproxy', ['-v'], { encoding: 'utf8' });
const haproxyProblem = haproxy.error ? 'haproxy is not installed (apt-get install haproxy)' : null;
const pgProblem = await postgresProblem();
const problem = haproxyProblem ?? (pgProblem ? `PostgreSQL unreachable: ${pgProblem}` : null);
if (problem && !process.env.CI) process.stderr.write(`\n*** production layout test SKIPPED: ${problem} ***\n\n`);

const ROOT = REPO_ROOT;
const WRITES = 60;
const KILL_AT = 20;

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolvePort(port));
    });
  });
}

function waitForOutput(child: ChildProcess, pattern: RegExp, what: string, ms = 90_000): Promise<void> {
  return new Promise((resolveWait, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start within ${ms} ms: ${output.slice(-2000)}`)), ms);
    const onData = (d: Buffer) => {
      output += d.toString();
      if (pattern.test(output)) {
        clearTimeout(timer);
        resolveWait();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}: ${output.slice(-500)}`));
    });
  });
}

describe('production layout: two instances behind HAProxy on one PostgreSQL and one Redis', { skip: problem && !process.env.CI ? problem : false }, () => {
  let database: TestDatabase;
  let dataDir: string;
  const children: ChildProcess[] = [];
  const ports = { lbRest: 0, lbWs: 0, a: { http: 0, media: 0, ws: 0 }, b: { http: 0, media: 0, ws: 0 } };
  const env = { GATEHOUSE_SECRET_KEY: randomBytes(32).toString('hex'), GATEHOUSE_ADMIN_TOKEN: randomBytes(24).toString('hex') };
  let instanceA: ChildProcess;

  const startInstance = async (p: { http: number; media: number; ws: number }) => {
    const child = spawn(
      process.execPath,
      [
        GATEHOUSE_BIN,
        'start',
        '--no-seed',
        '--data-dir',
        dataDir,
        '--database',
        database.url,
        '--bus',
        REDIS_TEST_URL,
        '--http-port',
        String(p.http),
        '--media-port',
        String(p.media),
        '--ws-port',
        String(p.ws),
      ],
      { cwd: ROOT, env: { ...process.env, ...env, GATEHOUSE_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    await waitForOutput(child, /Gatehouse is running/, 'an instance');
    return child;
  };

  before(async () => {
    if (problem) throw new Error(problem);
    database = await createTestDatabase('postgres');
    dataDir = mkdtempSync(join(tmpdir(), 'gh-prod-'));
    ports.lbRest = await freePort();
    ports.lbWs = await freePort();
    for (const side of [ports.a, ports.b]) for (const k of ['http', 'media', 'ws'] as const) side[k] = await freePort();
    // The first instance makes the shared files (TLS certificate) in the shared data dir; then the second starts.
    instanceA = await startInstance(ports.a);
    await startInstance(ports.b);
    const config = join(dataDir, 'haproxy.cfg');
    writeFileSync(
      config,
      [
        'global',
        '  maxconn 256',
        'defaults',
        '  timeout connect 2s',
        '  timeout client 60s',
        '  timeout server 60s',
        '  timeout tunnel 1h',
        '  retries 3',
        '  option redispatch',
        'frontend rest',
        '  mode http',
        `  bind 127.0.0.1:${ports.lbRest}`,
        '  default_backend rest',
        'backend rest',
        '  mode http',
        '  balance roundrobin',
        '  option httpchk GET /healthz',
        '  retry-on conn-failure empty-response response-timeout',
        `  server a 127.0.0.1:${ports.a.http} check inter 500 fall 1 rise 2`,
        `  server b 127.0.0.1:${ports.b.http} check inter 500 fall 1 rise 2`,
        'frontend stream',
        '  mode tcp',
        `  bind 127.0.0.1:${ports.lbWs}`,
        '  default_backend stream',
        'backend stream',
        '  mode tcp',
        '  balance leastconn',
        `  server a 127.0.0.1:${ports.a.ws} check inter 500 fall 1 rise 2`,
        `  server b 127.0.0.1:${ports.b.ws} check inter 500 fall 1 rise 2`,
        '',
      ].join('\n'),
    );
    const lb = spawn('haproxy', ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(lb);
    // HAProxy prints nothing when all is well: wait for the REST frontend to answer.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${ports.lbRest}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error('HAProxy did not answer');
      await new Promise((r) => setTimeout(r, 200));
    }
  });

  after(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses no acknowledged write when an instance is killed mid-run, and the stream goes on', { timeout: 180_000 }, async () => {
    const lb = `http://127.0.0.1:${ports.lbRest}`;
    const created = await callApi(lb, '/_gatehouse/orgs', { name: 'Production Org' }, { headers: { authorization: `Bearer ${env.GATEHOUSE_ADMIN_TOKEN}` } });
    assert.equal(created.json.error, false, created.text);
    const { orgUuid, apiKey } = created.json;

    const subscribe = async () => {
      const client = await StrictClient.connect(`wss://127.0.0.1:${ports.lbWs}/websocket`, { key: apiKey, scheme: 'api-token' });
      client.send(`SUBSCRIBE\nid:0\ndestination:/topic/change/${orgUuid}\nreceipt:s\n\n\0`);
      assert.equal((await client.next()).command, 'RECEIPT');
      return client;
    };
    const received = (c: StrictClient) => c.frames.filter((f) => f.command === 'MESSAGE').map((f) => JSON.parse(f.body).entityUuid as string);

    const before = await subscribe();
    const acknowledged: string[] = [];
    let refused = 0;
    for (let i = 0; i < WRITES; i++) {
      if (i === KILL_AT) instanceA.kill('SIGKILL');
      const r = await callApi(lb, '/api/faceRecognition/person/createPerson', { name: `Visitor ${i}` }, { key: apiKey }).catch(() => null);
      if (r && r.status === 200 && r.json?.error === false) acknowledged.push(r.json.person?.uuid);
      else refused++;
    }
    assert.ok(acknowledged.length >= WRITES - 5, `${acknowledged.length} of ${WRITES} acknowledged (${refused} refused)`);
    assert.ok(
      acknowledged.every((u) => typeof u === 'string'),
      JSON.stringify(acknowledged.slice(0, 3)),
    );

    // Every acknowledged write is readable through the load balancer (the survivor answers) and in the change log.
    for (const uuid of acknowledged) {
      const got = await callApi(lb, '/api/faceRecognition/person/getPerson', { personUuid: uuid }, { key: apiKey });
      assert.equal(got.json?.error, false, `person ${uuid}: ${got.text}`);
    }

    // The stream: a subscriber through the load balancer after the kill sees new changes.
    const after = await subscribe();
    const last = await callApi(lb, '/api/faceRecognition/person/createPerson', { name: 'After the kill' }, { key: apiKey });
    assert.equal(last.json.error, false, last.text);
    const lastUuid = last.json.person?.uuid;
    await after.until(() => received(after).includes(lastUuid), 'the change after the kill on a new subscription', 10_000);
    // The subscriber from before the kill got the writes made before it, whichever instance it was on.
    assert.ok(received(before).length >= 1, 'the first subscriber saw the first changes');
    before.close();
    after.close();
  });
});

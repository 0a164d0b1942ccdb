import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { createApiKey } from '../../../src/domains/orgs/service.js';
import { TOO_MANY_REQUESTS } from '../../../src/edge/rate-limit.js';
import { createLogger } from '../../../src/logger.js';
import { postgresProblem, REDIS_TEST_URL } from '../../helpers/databases.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type CallResult, type TestOrg, type TestServer } from '../../helpers/server.js';

const RATE = 2; // per second: bursts of 20
const FAILURES = 5; // per minute and client address
const GET_ORG = '/api/org/getOrgV2';
const pgProblem = await postgresProblem();

/**
 * A client address of its own for each call (the server trusts X-Forwarded-For), so counts never mix: numbered, not
 * drawn at random, since two draws of the same address made "another address has its own count" fail now and then.
 * The numbers start at random in 198.18.0.0/15 (the range set aside for benchmark tests), so that the processes
 * that run this file at about the same time on one Redis (CI's two suites, a retry) each have addresses of their
 * own: from 0, the keys one process left found another's namespaced-keys check.
 */
let addresses = randomInt(0, 130_000);
function clientAddress() {
  const n = addresses++;
  const net = Math.floor(n / 254);
  return `198.${18 + (net >> 8)}.${net & 255}.${(n % 254) + 1}`;
}

function assertTooMany(r: CallResult, maxSeconds: number) {
  assert.equal(r.status, 429, r.text);
  assert.equal(r.text, TOO_MANY_REQUESTS);
  assert.match(r.headers.get('content-type') ?? '', /^text\/plain/);
  const retryAfter = Number(r.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= maxSeconds, `Retry-After: ${r.headers.get('retry-after')}`);
}

const env = { GATEHOUSE_RATE_LIMIT: String(RATE), GATEHOUSE_AUTH_FAILURE_LIMIT: String(FAILURES), GATEHOUSE_TRUST_PROXY: 'true' };

forEachDialect('rate limits: a token bucket per organization, and failed keys per client address', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let secondKey: string;
  const logLines: string[] = [];
  before(async () => {
    const log = createLogger('info', { write: (line: string) => void logLines.push(line) });
    server = await startTestServer(dialect, { env, log });
    org = await server.createOrg('Busy Org');
    other = await server.createOrg('Calm Org');
    secondKey = (await createApiKey(server.gatehouse.deps, { orgUuid: org.orgUuid, kind: 'standard' })).apiKey;
  });
  after(() => server.close());

  it('answers 429 with Retry-After and the platform text once the organization spent its burst, whichever of its keys calls', async () => {
    const started = Date.now();
    const results: CallResult[] = [];
    for (let i = 0; i < 40; i++) results.push(await server.call(GET_ORG, {}, { key: i % 2 ? org.apiKey : secondKey }));
    const allowed = results.filter((r) => r.status === 200).length;
    const refill = Math.ceil(((Date.now() - started) / 1000) * RATE) + 1;
    assert.ok(allowed >= RATE * 10 && allowed <= RATE * 10 + refill, `${allowed} of 40 allowed`);
    const refused = results.filter((r) => r.status !== 200);
    assert.equal(refused.length, 40 - allowed);
    for (const r of refused) assertTooMany(r, 1);
    // Another organization has a bucket of its own.
    const calm = await server.call(GET_ORG, {}, { key: other.apiKey });
    assert.equal(calm.status, 200, calm.text);
  });

  it('refills: after Retry-After the organization may call again', async () => {
    let r = await server.call(GET_ORG, {}, { key: org.apiKey });
    if (r.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, Number(r.headers.get('retry-after')) * 1000));
      r = await server.call(GET_ORG, {}, { key: org.apiKey });
    }
    assert.equal(r.status, 200, r.text);
  });

  it('does not limit /healthz, /openapi.json or the control API', async () => {
    for (let i = 0; i < 30; i++) assert.equal((await fetch(server.rest + '/healthz')).status, 200);
    const control = await fetch(server.rest + '/_gatehouse/state/snapshot', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(control.status, 401, 'the control API answers with its own rules');
  });

  it('throttles an address past its failed-key limit (logged, without the key) while valid keys keep working', async () => {
    const address = clientAddress();
    const wrongKey = org.apiKey.slice(0, -6) + 'ZZZZZZ';
    const attempt = () => server.call(GET_ORG, {}, { key: wrongKey, headers: { 'x-forwarded-for': address } });
    for (let i = 0; i < FAILURES; i++) assert.equal((await attempt()).status, 403);
    assertTooMany(await attempt(), 60);
    assertTooMany(await attempt(), 60);
    const valid = await server.call(GET_ORG, {}, { key: other.apiKey, headers: { 'x-forwarded-for': address } });
    assert.equal(valid.status, 200, 'a valid key from the same address works');
    const elsewhere = await server.call(GET_ORG, {}, { key: wrongKey, headers: { 'x-forwarded-for': clientAddress() } });
    assert.equal(elsewhere.status, 403, 'another address has its own count');
    const logged = logLines.filter((l) => l.includes('failed key attempt') && l.includes(address));
    assert.equal(logged.length, FAILURES + 2);
    assert.ok(!logLines.some((l) => l.includes(wrongKey) || l.includes(wrongKey.slice(0, 20))), 'the key is never logged');
  });

  it("counts the stream handshake's failed keys with the REST ones, per address, and answers 429 past the limit", async () => {
    const address = clientAddress();
    const wrongKey = org.apiKey.slice(0, -6) + 'YYYYYY';
    for (let i = 0; i < FAILURES - 1; i++)
      assert.equal((await server.call(GET_ORG, {}, { key: wrongKey, headers: { 'x-forwarded-for': address } })).status, 403);
    assert.equal((await handshake(server.gatehouse.urls.ws, wrongKey, address)).status, 401, 'the last failure within the limit');
    const throttled = await handshake(server.gatehouse.urls.ws, wrongKey, address);
    assert.equal(throttled.status, 429);
    assert.equal(throttled.body, TOO_MANY_REQUESTS);
    assert.match(throttled.headers['content-type'] ?? '', /^text\/plain/);
    assert.ok(Number(throttled.headers['retry-after']) >= 1, `Retry-After: ${throttled.headers['retry-after']}`);
    assertTooMany(await server.call(GET_ORG, {}, { key: wrongKey, headers: { 'x-forwarded-for': address } }), 60);
    assert.equal((await handshake(server.gatehouse.urls.ws, other.apiKey, address)).status, 101, 'a valid key from the same address connects');
    assert.equal((await handshake(server.gatehouse.urls.ws, wrongKey, clientAddress())).status, 401, 'another address has its own count');
    assert.ok(logLines.some((l) => l.includes('failed key attempt') && l.includes(address) && l.includes('websocket')));
  });
});

/** Opens the stream with a key, as from `address` (through a trusted proxy): the handshake's status, headers and body. */
function handshake(url: string, key: string, address: string): Promise<{ status: number; headers: Record<string, string | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url}?x-auth-scheme=api-token`, ['v12.stomp'], {
      headers: { 'x-auth-apikey': key, 'x-forwarded-for': address },
      rejectUnauthorized: false,
    });
    ws.on('open', () => {
      ws.close();
      resolve({ status: 101, headers: {}, body: '' });
    });
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string | undefined>, body }));
    });
    ws.on('error', reject);
  });
}

describe('with no rate limit configured', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite');
    await server.createOrg('Unlimited');
  });
  after(() => server.close());

  it('answers every call', async () => {
    const results = await Promise.all(Array.from({ length: 60 }, () => server.call(GET_ORG)));
    assert.deepEqual(new Set(results.map((r) => r.status)), new Set([200]));
  });
});

describe('rate limits shared by two instances through Redis', { skip: pgProblem && !process.env.CI ? `PostgreSQL unreachable: ${pgProblem}` : false }, () => {
  let a: TestServer;
  let b: TestServer;
  let org: TestOrg;
  before(async () => {
    a = await startTestServer('postgres', { busUrl: REDIS_TEST_URL, env });
    b = await startTestServer('postgres', { busUrl: REDIS_TEST_URL, databaseUrl: a.config.databaseUrl, env });
    org = await a.createOrg('Shared Org');
  });
  after(async () => {
    await b.close();
    await a.close();
  });

  it("one organization's bucket is spent across both instances", async () => {
    const started = Date.now();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      statuses.push((await a.call(GET_ORG, {}, { key: org.apiKey })).status);
      statuses.push((await b.call(GET_ORG, {}, { key: org.apiKey })).status);
    }
    const allowed = statuses.filter((s) => s === 200).length;
    const refill = Math.ceil(((Date.now() - started) / 1000) * RATE) + 2;
    assert.ok(allowed >= RATE * 10 && allowed <= RATE * 10 + refill, `${allowed} of 40 allowed across two instances`);
    assert.deepEqual(new Set(statuses.filter((s) => s !== 200)), new Set([429]));
  });

  it('keeps its counts apart from another deployment on the same Redis: every key it writes carries its namespace', async () => {
    const elsewhere = await startTestServer('postgres', { busUrl: REDIS_TEST_URL, env });
    try {
      const stranger = await elsewhere.createOrg('Elsewhere Org');
      const address = clientAddress();
      const attempt = (s: TestServer, key: string) => s.call(GET_ORG, {}, { key: key.slice(0, -6) + 'ZZZZZZ', headers: { 'x-forwarded-for': address } });
      const here: number[] = [];
      for (let i = 0; i <= FAILURES; i++) here.push((await attempt(a, org.apiKey)).status);
      assert.deepEqual(here, [...Array(FAILURES).fill(403), 429]);
      // The same address, spent here, is still counted from zero by the other deployment.
      assert.equal((await attempt(elsewhere, stranger.apiKey)).status, 403);
      for (let i = 0; i < 25; i++) await elsewhere.call(GET_ORG, {}, { key: stranger.apiKey });

      const namespaces = [a.gatehouse.deps.bus.namespace, elsewhere.gatehouse.deps.bus.namespace];
      assert.notEqual(namespaces[0], namespaces[1]);
      const redis = new Redis(REDIS_TEST_URL);
      try {
        const keys = await redis.keys('gatehouse:*');
        const mine = (ns: string) => keys.filter((k) => k.startsWith(`gatehouse:${ns}:limit:`));
        assert.ok(
          mine(namespaces[0]).some((k) => k.includes(`auth:${address}`)),
          keys.join(' '),
        );
        assert.ok(
          mine(namespaces[1]).some((k) => k.includes(`auth:${address}`)),
          keys.join(' '),
        );
        assert.ok(
          mine(namespaces[1]).some((k) => k.includes(`org:${stranger.orgUuid}`)),
          keys.join(' '),
        );
        // Keys of the two deployments: none without a namespace, none shared.
        const ours = keys.filter((k) => k.includes(`auth:${address}`) || k.includes(stranger.orgUuid) || k.includes(org.orgUuid));
        assert.deepEqual(
          ours.filter((k) => !namespaces.some((ns) => k.startsWith(`gatehouse:${ns}:`))),
          [],
        );
      } finally {
        redis.disconnect();
      }
    } finally {
      await elsewhere.close();
    }
  });

  it("an address's failed keys are counted across both instances", async () => {
    const address = clientAddress();
    const attempt = (s: TestServer) => s.call(GET_ORG, {}, { key: org.apiKey.slice(0, -6) + 'ZZZZZZ', headers: { 'x-forwarded-for': address } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await attempt(a)).status, (await attempt(b)).status);
    assert.deepEqual(statuses, [403, 403, 403, 403, 403, 429]);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestServer, type Api, apiAs } from '../../helpers/api.js';
import type { CallResult, TestOrg } from '../../helpers/server.js';
import { adminTokenOf, control, journal } from './admin.js';

describe('control API: the request journal (GET/DELETE /_gatehouse/requests)', () => {
  const server = useTestServer('sqlite');
  let org: TestOrg;
  let other: TestOrg;
  let api: Api;

  it('records each call newest first: method, path, organization, key id, status, duration, bodies', async () => {
    org = await server().createOrg('Journal Org');
    other = await server().createOrg('Other Org');
    api = apiAs(server, () => org.apiKey);
    assert.equal((await journal(server(), '', 'DELETE')).json.error, false);

    await api.ok('/api/org/getOrgV2');
    await apiAs(server, () => other.apiKey).ok('/api/org/getOrgV2');
    const r = await journal(server());
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.error, false);
    assert.equal(r.json.size, 500, 'the default size');
    const [newest, older] = r.json.requests;
    assert.equal(r.json.requests.length, 2, 'the journal reads are not journaled');
    assert.equal(newest.orgUuid, other.orgUuid);
    assert.equal(older.orgUuid, org.orgUuid);
    assert.ok(newest.id > older.id);
    assert.equal(older.method, 'POST');
    assert.equal(older.path, '/api/org/getOrgV2');
    assert.equal(older.status, 200);
    assert.equal(typeof older.durationMs, 'number');
    assert.ok(older.durationMs >= 0);
    assert.match(older.keyId, /\S/, 'the key id (not the key) is kept');
    assert.notEqual(older.keyId, org.apiKey);
    assert.equal(older.responseBody.orgUuid, org.orgUuid, 'the response body is kept, parsed');
    assert.deepEqual(older.requestBody, {});
  });

  it('masks the API key header and every secret-named field of the bodies', async () => {
    await journal(server(), '', 'DELETE');
    await api.call('/api/nothing/here', { name: 'x', password: 'hunter2', nested: { clientSecret: 's3cr3t', token: 'tok' }, list: [{ apiKey: 'k' }] });
    await control(server(), '/orgs', { name: 'Made By Control' });
    const r = await journal(server());
    const text = JSON.stringify(r.json);
    for (const secret of [org.apiKey, 'hunter2', 's3cr3t', '"tok"', '"k"', adminTokenOf(server())]) {
      assert.ok(!text.includes(secret), `${secret} is not in the journal`);
    }
    const [created, unknown] = r.json.requests;
    assert.equal(unknown.status, 404);
    assert.equal(unknown.requestHeaders['x-auth-apikey'], '***');
    assert.equal(unknown.requestBody.name, 'x');
    assert.equal(unknown.requestBody.password, '***');
    assert.equal(unknown.requestBody.nested.clientSecret, '***');
    assert.equal(unknown.requestBody.list[0].apiKey, '***');
    assert.equal(created.path, '/_gatehouse/orgs');
    assert.equal(created.requestHeaders.authorization, '***');
    assert.equal(created.responseBody.apiKey, '***', "the new organization's key is masked in the answer too");
    assert.match(created.responseBody.orgUuid, /^\S{10,}$/);
  });

  it('masks a long body before cutting it', async () => {
    await journal(server(), '', 'DELETE');
    await api.call('/api/long/body', { password: 'hunter3', filler: 'x'.repeat(20_000) });
    const [entry] = (await journal(server())).json.requests;
    assert.equal(typeof entry.requestBody, 'string');
    assert.match(entry.requestBody, /characters, cut\)$/);
    assert.match(entry.requestBody, /"password":"\*\*\*"/);
    assert.ok(!JSON.stringify(entry).includes('hunter3'));
  });

  it('filters by path, status (exact or class) and organization, and limits', async () => {
    await journal(server(), '', 'DELETE');
    await api.ok('/api/org/getOrgV2');
    await api.call('/api/org/nope');
    await apiAs(server, () => other.apiKey).ok('/api/org/getOrgV2');
    await api.call('/api/org/getOrgV2', {}, { key: 'not-a-key' });

    const paths = (r: CallResult) => r.json.requests.map((e: { path: string; status: number }) => `${e.status} ${e.path}`);
    assert.deepEqual(paths(await journal(server(), '?path=getorgv2')), ['403 /api/org/getOrgV2', '200 /api/org/getOrgV2', '200 /api/org/getOrgV2']);
    assert.deepEqual(paths(await journal(server(), '?status=404')), ['404 /api/org/nope']);
    assert.deepEqual(paths(await journal(server(), '?status=4xx')), ['403 /api/org/getOrgV2', '404 /api/org/nope']);
    const mine = await journal(server(), `?org=${org.orgUuid}`);
    assert.deepEqual(paths(mine), ['200 /api/org/getOrgV2'], 'calls of the organization (the unknown path and bad key have none)');
    assert.deepEqual(paths(await journal(server(), '?limit=1')), ['403 /api/org/getOrgV2']);
    assert.equal((await journal(server(), '?status=abc')).status, 400);
    assert.equal((await journal(server(), '?limit=0')).status, 400);
  });

  it('needs the admin token to read or clear', async () => {
    assert.equal((await journal(server(), '', 'GET', null)).status, 401);
    assert.equal((await journal(server(), '', 'GET', 'wrong')).status, 401);
    assert.equal((await journal(server(), '', 'DELETE', 'wrong')).status, 401);
    assert.ok((await journal(server())).json.requests.length > 0, 'a refused clear clears nothing');
    assert.equal((await journal(server(), '', 'DELETE')).json.error, false);
    assert.deepEqual((await journal(server())).json.requests, []);
  });
});

describe('the journal keeps no bytes of a binary body', () => {
  it('describes a buffer or a stream instead of copying it', async () => {
    const { maskSecrets } = await import('../../../src/http/journal.js');
    assert.deepEqual(maskSecrets({ file: Buffer.alloc(1000), nested: { token: 'x', data: new Uint8Array(3) } }), {
      file: '(1000 bytes)',
      nested: { token: '***', data: '(3 bytes)' },
    });
  });
});

describe('control API: the request journal is a bounded ring (GATEHOUSE_JOURNAL_SIZE)', () => {
  const server = useTestServer('sqlite', { env: { GATEHOUSE_JOURNAL_SIZE: '3' } });

  it('keeps the newest calls only', async () => {
    const org = await server().createOrg('Ring Org');
    const api = apiAs(server, () => org.apiKey);
    for (let i = 0; i < 7; i++) await api.call(`/api/ring/call${i}`);
    const r = await journal(server());
    assert.equal(r.json.size, 3);
    assert.equal(r.json.held, 3);
    assert.deepEqual(
      r.json.requests.map((e: { path: string }) => e.path),
      ['/api/ring/call6', '/api/ring/call5', '/api/ring/call4'],
    );
  });
});

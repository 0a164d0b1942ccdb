import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { callApi, startTestServer, type TestServer } from '../../helpers/server.js';
import { adminTokenOf, control } from './admin.js';

const REQUIRED = 'A valid admin token is required (Authorization: Bearer <token>)';

forEachDialect('control API: admin token', (dialect) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(dialect);
  });
  after(() => server.close());

  it('generates the admin token into the data dir, readable only by its owner', () => {
    const file = join(server.config.dataDir, 'admin-token');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.ok(adminTokenOf(server).length >= 32);
  });

  for (const path of ['/orgs', '/state/reset', '/state/snapshot', '/state/restore', '/orgs/AAAAAAAAAAAAAAAAAAAAAA/seed']) {
    it(`answers ${path} without a token with 401`, async () => {
      const r = await control(server, path, { name: 'x' }, { token: null });
      assert.equal(r.status, 401);
      assert.deepEqual([r.json.error, r.json.errorMsg], [true, REQUIRED]);
    });
  }

  it('answers a wrong token with 401', async () => {
    const token = adminTokenOf(server);
    for (const wrong of ['nope', token.slice(0, -1), token + 'x', '']) {
      const r = await control(server, '/orgs', { name: 'x' }, { token: wrong });
      assert.equal(r.status, 401, wrong);
      assert.equal(r.json.errorMsg, REQUIRED);
    }
  });

  it('does not take an API key in place of the admin token', async () => {
    const org = await server.createOrg('Keyed');
    const r = await callApi(server.rest, '/_gatehouse/orgs', { name: 'x' }, { key: org.apiKey });
    assert.equal(r.status, 401);
    const basic = await callApi(server.rest, '/_gatehouse/orgs', { name: 'x' }, { headers: { authorization: `Basic ${adminTokenOf(server)}` } });
    assert.equal(basic.status, 401);
  });

  it('creates an organization whose key works on the REST API', async () => {
    const r = await control(server, '/orgs', { name: 'Made By Control' });
    assert.equal(r.status, 200);
    assert.equal(r.json.error, false);
    assert.match(r.json.orgUuid, /^[A-Za-z0-9_-]{22}$/);
    const org = await server.call('/api/org/getOrgV2', {}, { key: r.json.apiKey });
    assert.equal(org.json.orgUuid, r.json.orgUuid);
    assert.equal(org.json.org.name, 'Made By Control');
  });

  it('answers 400 for a malformed body', async () => {
    assert.equal((await control(server, '/orgs', {})).status, 400);
    assert.equal((await control(server, '/orgs', { name: 42 })).status, 400);
    assert.equal((await control(server, '/orgs', '{not json')).status, 400);
  });

  it('leaves the control API out of the public OpenAPI document', async () => {
    const doc = (await (await fetch(`${server.rest}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    assert.ok(Object.keys(doc.paths).length > 0);
    assert.deepEqual(
      Object.keys(doc.paths).filter((p) => p.startsWith('/_gatehouse')),
      [],
    );
  });
});

describe('control API: GATEHOUSE_ADMIN_TOKEN', () => {
  let server: TestServer;
  const token = 'configured-admin-token-0123456789';
  before(async () => {
    server = await startTestServer('sqlite', { env: { GATEHOUSE_ADMIN_TOKEN: token } });
  });
  after(() => server.close());

  it('uses the configured token and writes none to the data dir', async () => {
    assert.equal(existsSync(join(server.config.dataDir, 'admin-token')), false);
    assert.equal((await control(server, '/orgs', { name: 'A' }, { token })).json.error, false);
    assert.equal((await control(server, '/orgs', { name: 'A' }, { token: 'something-else' })).status, 401);
  });
});

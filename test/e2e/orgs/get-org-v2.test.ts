import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

forEachDialect('POST /api/org/getOrgV2', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Acme Security');
  });
  after(() => server.close());

  it('requires authentication', async () => {
    const r = await server.call('/api/org/getOrgV2', {}, { key: '' });
    assert.equal(r.status, 401);
    assert.deepEqual({ error: r.json.error, errorMsg: r.json.errorMsg }, { error: true, errorMsg: 'Unauthenticated' });
  });

  it('answers the organization under org.uuid and orgUuid', async () => {
    const r = await server.call('/api/org/getOrgV2', {}, { key: org.apiKey });
    assert.equal(r.status, 200);
    assert.equal(r.json.error, false);
    assert.equal(r.json.orgUuid, org.orgUuid);
    assert.equal(r.json.org.uuid, org.orgUuid);
    assert.equal(r.json.org.name, 'Acme Security');
    assert.equal(typeof r.json.org.createdAtMillis, 'number');
    assert.match(r.json.orgUuid, /^[A-Za-z0-9_-]{22}$/);
  });

  it('treats a missing body as {}', async () => {
    const response = await fetch(server.rest + '/api/org/getOrgV2', { method: 'POST', headers: { 'x-auth-apikey': org.apiKey } });
    assert.equal(response.status, 200);
    assert.equal((await response.json()).orgUuid, org.orgUuid);
  });

  it('answers each organization only its own record', async () => {
    const other = await server.createOrg('Other Org');
    const r = await server.call('/api/org/getOrgV2', {}, { key: other.apiKey });
    assert.equal(r.json.orgUuid, other.orgUuid);
    assert.notEqual(r.json.orgUuid, org.orgUuid);
  });
});

forEachDialect('POST /api/org/getOrganization', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Records Inc');
  });
  after(() => server.close());

  it('answers the organization record', async () => {
    const r = await server.call('/api/org/getOrganization', {}, { key: org.apiKey });
    assert.equal(r.status, 200);
    assert.equal(r.json.org.uuid, org.orgUuid);
    assert.equal(r.json.org.name, 'Records Inc');
  });

  it("answers the same under the reference catalogue's name /api/org/getOrg", async () => {
    const r = await server.call('/api/org/getOrg', {}, { key: org.apiKey });
    assert.equal(r.status, 200);
    assert.equal(r.json.org.uuid, org.orgUuid);
  });
});

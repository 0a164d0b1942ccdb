import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

const STRUCTURE_MSG = "JSON doesn't match expected object structure";

forEachDialect('the HTTP edge: envelope, errors and documents', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg();
  });
  after(() => server.close());

  const raw = (path: string, init: RequestInit = {}) =>
    fetch(server.rest + path, { method: 'POST', ...init, headers: { 'x-auth-apikey': org.apiKey, ...(init.headers as object) } });

  it('answers unparseable JSON with 400 and the structure message', async () => {
    const r = await raw('/api/org/getOrgV2', { body: '{"a":', headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 400);
    const body = await r.json();
    assert.equal(body.error, true);
    assert.equal(body.msg, STRUCTURE_MSG);
    assert.match(body.errorMsg, /not valid JSON/);
  });

  it('answers a wrong content type with 400', async () => {
    const r = await raw('/api/org/getOrgV2', { body: 'hello', headers: { 'content-type': 'text/plain' } });
    assert.equal(r.status, 400);
    const body = await r.json();
    assert.equal(body.msg, STRUCTURE_MSG);
    assert.match(body.errorMsg, /Content-Type must be application\/json/);
  });

  it('answers a body that is not an object with 400', async () => {
    for (const body of ['[1,2]', '"text"', '42', 'null']) {
      const r = await raw('/api/org/getOrgV2', { body, headers: { 'content-type': 'application/json' } });
      assert.equal(r.status, 400, body);
      assert.equal((await r.json()).msg, STRUCTURE_MSG);
    }
  });

  it('refuses prototype-poisoning keys without a crash', async () => {
    const r = await raw('/api/org/getOrgV2', { body: '{"__proto__": {"admin": true}}', headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 400);
    assert.equal((await r.json()).error, true);
  });

  it('answers an unknown path with 404 and a JSON body', async () => {
    const r = await raw('/api/nothing/here', { body: '{}', headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 404);
    assert.equal((await r.json()).error, true);
  });

  it('answers GET on an operation with 405 and a JSON body', async () => {
    const r = await fetch(server.rest + '/api/org/getOrgV2');
    assert.equal(r.status, 405);
    assert.equal(r.headers.get('allow'), 'POST');
    assert.equal((await r.json()).error, true);
  });

  it('answers a body over the size limit with a JSON error, not a crash', async () => {
    const r = await raw('/api/org/getOrgV2', { body: JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }), headers: { 'content-type': 'application/json' } });
    assert.equal(r.status, 413);
    assert.equal((await r.json()).error, true);
  });

  it('serves the OpenAPI 3.1 document generated from the schemas', async () => {
    const doc = await (await fetch(server.rest + '/openapi.json')).json();
    assert.equal(doc.openapi, '3.1.0');
    const op = doc.paths['/api/org/getOrgV2'].post;
    assert.equal(op.operationId, 'getOrgV2');
    assert.ok(op.responses['200'].content['application/json'].schema.properties.orgUuid);
    assert.ok(doc.paths['/api/org/getOrg'].post, 'aliases are documented too');
    assert.equal(doc.paths['/healthz'], undefined);
  });

  it('shows the document at /docs', async () => {
    const r = await fetch(server.rest + '/docs/');
    assert.equal(r.status, 200);
    assert.match(await r.text(), /swagger/i);
  });

  it('answers /healthz with 200 when store and bus are reachable', async () => {
    const r = await fetch(server.rest + '/healthz');
    assert.equal(r.status, 200);
    assert.equal((await r.json()).status, 'ok');
  });
});

import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createApiKey } from '../../../src/domains/orgs/service.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type CallResult, type TestServer } from '../../helpers/server.js';

/**
 * One loop over every operation that /openapi.json lists, so that an operation is covered the day it lands:
 * no key is 401, a key of the other region is 403, a body of the wrong structure is 400, and every answer is
 * the JSON envelope.
 */
forEachDialect('every operation of /openapi.json: authentication, body structure, JSON answers', (dialect) => {
  let us: TestServer;
  let eu: TestServer;
  let paths: string[];
  let key: string;
  let otherRegionKey: string;
  before(async () => {
    // Two wrong keys for each of several hundred operations, from one address: past the default limit of
    // failed key attempts per minute, which this test is not about.
    us = await startTestServer(dialect, { region: 'us', env: { GATEHOUSE_AUTH_FAILURE_LIMIT: '100000' } });
    // A second deployment in the other region on the same store: its keys are real keys, of the wrong region here.
    eu = await startTestServer(dialect, { region: 'eu', databaseUrl: us.config.databaseUrl });
    const org = await us.createOrg('Every Operation');
    // An internal key answers every operation, internal ones included, so the body check reaches validation.
    key = (await createApiKey(us.gatehouse.deps, { orgUuid: org.orgUuid, kind: 'internal' })).apiKey;
    otherRegionKey = (await eu.createOrg('Other Region')).apiKey;
    const doc = (await (await fetch(us.rest + '/openapi.json')).json()) as { paths: Record<string, { post?: unknown }> };
    paths = Object.keys(doc.paths).filter((p) => doc.paths[p].post);
  });
  after(async () => {
    await eu?.close();
    await us?.close();
  });

  const envelope = (r: CallResult, path: string, status: number) => {
    assert.equal(r.status, status, `${path}: status ${r.status} ${r.text.slice(0, 200)}`);
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/, `${path}: content-type`);
    assert.equal(r.json?.error, true, `${path}: the error envelope`);
    assert.equal(typeof r.json.errorMsg, 'string', `${path}: errorMsg`);
  };

  it('lists the operations (more than a handful), and none of the control API', () => {
    assert.ok(paths.length > 50, `${paths.length} operations`);
    assert.deepEqual(
      paths.filter((p) => !p.startsWith('/api/')),
      [],
    );
  });

  it('answers 401 without a key', async () => {
    for (const path of paths) envelope(await us.call(path, {}, { key: '' }), path, 401);
  });

  it('answers 403 to a key of the other region, and to an unknown key', async () => {
    assert.match(otherRegionKey, /^eu_/);
    for (const path of paths) {
      for (const wrong of [otherRegionKey, 'us_not-a-key']) {
        const r = await us.call(path, {}, { key: wrong });
        envelope(r, path, 403);
        assert.equal(r.json.errorMsg, 'Invalid api key', path);
      }
    }
  });

  it('answers 400 to a body of the wrong structure', async () => {
    for (const path of paths) {
      for (const body of ['[1]', '"text"', '{"a":']) envelope(await us.call(path, body, { key }), `${path} ${body}`, 400);
    }
  });
});

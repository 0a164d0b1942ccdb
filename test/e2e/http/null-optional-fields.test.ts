import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiKey } from '../../../src/domains/orgs/service.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { jsonOperations, optionalFields, sampleValue, type JsonSchema } from '../../helpers/openapi-bodies.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

/**
 * The platform's clients send null for every absent value. Walks /openapi.json, so an operation added later is
 * covered too: every operation answers a body whose optional fields (at every depth) are all null, and one
 * whose optional objects are filled in with their own optional fields null, without a 400 or a 500.
 */
forEachDialect('every operation: optional fields sent as null', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let internalKey: string;
  let document: JsonSchema;

  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Null Senders');
    internalKey = (await createApiKey(server.gatehouse.deps, { orgUuid: org.orgUuid, kind: 'internal' })).apiKey;
    document = await (await fetch(`${server.rest}/openapi.json`)).json();
  });
  after(async () => {
    await server?.close();
  });

  it('finds operations with optional fields to try', () => {
    const operations = jsonOperations(document);
    assert.ok(operations.length > 50, `only ${operations.length} operations in /openapi.json`);
    assert.ok(operations.filter((o) => optionalFields(o.body).length > 0).length > 20);
  });

  it('answers no 400 (and no 500) to any operation whose optional fields are null', async () => {
    const failures: string[] = [];
    for (const { path, body } of jsonOperations(document)) {
      if (optionalFields(body).length === 0) continue;
      const key = path.startsWith('/api/internal/') ? internalKey : org.apiKey;
      for (const mode of ['null', 'filled'] as const) {
        const sent = sampleValue(body, mode);
        const r = await server.call(path, sent, { key });
        if (r.status === 400 || r.status >= 500) failures.push(`${path} (${mode}) ${r.status}: ${r.json?.errorMsg ?? r.text} <- ${JSON.stringify(sent)}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  describe('a nullable enumeration', () => {
    it('takes null for getOccupancyCountsV2 interval', async () => {
      const r = await server.call('/api/report/getOccupancyCountsV2', {
        deviceUuid: 'AAAAAAAAAAAAAAAAAAAAAA',
        startTimeMs: 0,
        endTimeMs: 3_600_000,
        interval: null,
      });
      assert.equal(r.status, 200, r.text);
    });
  });
});

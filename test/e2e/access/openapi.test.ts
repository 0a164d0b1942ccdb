import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../helpers/server.js';

// The document is built from the route schemas alone; the store dialect plays no part.
describe('GET /openapi.json: access control', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite');
  });
  after(() => server.close());

  // Which operations are documented, under which operationId, is checked for all of them in test/unit/coverage.test.ts.
  it("documents the credential types under the spec's names and the catalogue's", async () => {
    const doc = await (await fetch(server.rest + '/openapi.json')).json();
    const create = doc.paths['/api/accesscontrol/createAccessControlCredentialByHexValueAndType'].post;
    const types = create.requestBody.content['application/json'].schema.properties.credentialType.enum;
    assert.ok(types.includes('WIEGAND_H10301') && types.includes('HID_CORP1000_STD_35'), 'spec names and catalogue aliases');
  });
});

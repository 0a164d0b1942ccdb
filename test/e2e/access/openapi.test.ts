import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../helpers/server.js';

const OPERATIONS: Record<string, string> = {
  '/api/accesscontrol/createAccessControlCredentialByHexValueAndType': 'createAccessControlCredentialByHexValueAndType',
  '/api/accesscontrol/findAccessControlCredentialByOrg': 'findAccessControlCredentialByOrg',
  '/api/accesscontrol/findAccessControlCredentialByUser': 'findAccessControlCredentialByUser',
  '/api/accesscontrol/revokeAccessControlCredential': 'revokeAccessControlCredential',
  '/api/accesscontrol/suspendAccessControlCredential': 'suspendAccessControlCredential',
  '/api/accesscontrol/unsuspendAccessControlCredential': 'unsuspendAccessControlCredential',
  '/api/accesscontrol/deleteAccessControlCredential': 'deleteAccessControlCredential',
  '/api/accesscontrol/unlockAccessControlledDoor': 'unlockAccessControlledDoor',
  '/api/component/findAccessControlledDoors': 'findAccessControlledDoors',
  '/api/component/findPaginatedComponentEventsByAccessControlledDoor': 'findPaginatedComponentEventsByAccessControlledDoor',
};

// The document is built from the route schemas alone; the store dialect plays no part.
describe('GET /openapi.json: access control', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite');
  });
  after(() => server.close());

  it("documents every access operation under the catalogue's operationId, and none of the simulator's routes", async () => {
    const doc = await (await fetch(server.rest + '/openapi.json')).json();
    for (const [path, operationId] of Object.entries(OPERATIONS)) assert.equal(doc.paths[path]?.post?.operationId, operationId, path);
    const create = doc.paths['/api/accesscontrol/createAccessControlCredentialByHexValueAndType'].post;
    const types = create.requestBody.content['application/json'].schema.properties.credentialType.enum;
    assert.ok(types.includes('WIEGAND_H10301') && types.includes('HID_CORP1000_STD_35'), 'spec names and catalogue aliases');
    assert.ok(Object.keys(doc.paths).every((p) => !p.startsWith('/_gatehouse')));
  });
});

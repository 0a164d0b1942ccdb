import { assertFails, assertOk } from '../../helpers/api.js';
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { keyForUser, seedYaml, watchChanges } from '../../helpers/org-structure.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { StrictClient } from '../streaming/helpers.js';

forEachDialect('POST /api/user/* and /api/customer/getCurrentUser', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Users Inc');
    other = await server.createOrg('Other Org');
  });
  after(() => server.close());
  const call = (path: string, body: unknown, key = org.apiKey) => server.call(path, body, { key });

  it('requires authentication', async () => {
    assert.equal((await server.call('/api/user/getUsersInOrg', {}, { key: '' })).status, 401);
    assert.equal((await server.call('/api/customer/getCurrentUser', {}, { key: '' })).status, 401);
  });

  it("answers the key's own user as the current user", async () => {
    const r = await call('/api/customer/getCurrentUser', {});
    assertOk(r);
    assert.equal(r.json.user.uuid, org.userUuid);
    assert.equal(r.json.user.orgUuid, org.orgUuid);
    const theirs = await call('/api/customer/getCurrentUser', {}, other.apiKey);
    assert.equal(theirs.json.user.uuid, other.userUuid);
  });

  it('creates users with a unique, validated e-mail address, announced on the stream', async () => {
    const watch = await watchChanges(server, org.apiKey, org.orgUuid);
    try {
      const created = await call('/api/user/createUser', { name: 'Grace', email: 'Grace@Example.com' });
      assertOk(created);
      assert.equal(created.json.responseStatus, 'SUCCESS');
      const uuid = created.json.userUuid;
      const change = await watch.waitFor((c) => c.entity === 'USER' && c.entityUuid === uuid, 'the USER change');
      assert.equal(change.type, 'CREATE');
      assert.equal(change.update.email, 'grace@example.com');
      assertFails(await call('/api/user/createUser', { name: 'Grace 2', email: 'grace@example.COM' }), /already has the e-mail address/);
      assertFails(await call('/api/user/createUser', { name: 'Bad', email: 'not-an-address' }), /not an e-mail address/);
      const found = await call('/api/user/findUserByEmail', { email: 'GRACE@example.com' });
      assert.equal(found.json.user.uuid, uuid);
      const list = await call('/api/user/getUsersInOrg', {});
      assert.deepEqual(list.json.users.map((u: any) => u.name).sort(), ['Grace', 'Users Inc Administrator']);
      // Another organization may use the same address.
      assertOk(await call('/api/user/createUser', { name: 'Grace', email: 'grace@example.com' }, other.apiKey));
    } finally {
      await watch.close();
    }
  });

  it('answers 400 for a malformed body', async () => {
    assert.equal((await call('/api/user/createUser', { email: 'x@y.z' })).status, 400);
    assert.equal((await call('/api/user/deleteUser', { userUuid: 'short' })).status, 400);
  });

  it('updates a user selectively, by both names, and assigns an e-mail address', async () => {
    const uuid = (await call('/api/user/createUser', { name: 'Linus' })).json.userUuid;
    assertOk(await call('/api/user/updateUserSelective', { userUuid: uuid, name: 'Linus T' }));
    const deprecated = await call('/api/user/updateUser', { userUuid: uuid, name: 'Linus T.' });
    assertOk(deprecated);
    assert.equal(deprecated.headers.get('deprecation'), 'true');
    assertOk(await call('/api/user/assignEmailToUser', { userUuid: uuid, emailToAssign: 'linus@example.org' }));
    const user = (await call('/api/user/getUser', { userUuid: uuid })).json.user;
    assert.deepEqual([user.name, user.email], ['Linus T.', 'linus@example.org']);
  });

  it('deletes a user with their keys (their stream closes) and credentials, in one write', async () => {
    const uuid = (await call('/api/user/createUser', { name: 'Leaving' })).json.userUuid;
    const key = await keyForUser(server, org.orgUuid, uuid);
    assertOk(await call('/api/customer/getCurrentUser', {}, key));
    const stream = await StrictClient.connect(server.gatehouse.urls.ws, { key, scheme: 'api-token' });
    assertOk(await call('/api/user/deleteUser', { userUuid: uuid }));
    await stream.closed;
    assert.equal((await call('/api/customer/getCurrentUser', {}, key)).status, 403);
    assertFails(await call('/api/user/getUser', { userUuid: uuid }), /not found/);
  });

  it('refuses to delete the last administrator', async () => {
    const solo = await server.createOrg('Solo');
    assertFails(await call('/api/user/deleteUser', { userUuid: solo.userUuid }, solo.apiKey), /without an administrator/);
    assertOk(await call('/api/customer/getCurrentUser', {}, solo.apiKey));
  });

  it("answers another organization's users as unknown and changes nothing", async () => {
    const seeded = await seedYaml(server, other.orgUuid, 'users: [{name: Theirs, email: theirs@example.com}]');
    const theirs = seeded.users!.Theirs!;
    assertFails(await call('/api/user/getUser', { userUuid: theirs }), /not found/);
    assertFails(await call('/api/user/updateUserSelective', { userUuid: theirs, name: 'Mine' }), /not found/);
    assertFails(await call('/api/user/deleteUser', { userUuid: theirs }), /not found/);
    assertFails(await call('/api/user/findUserByEmail', { email: 'theirs@example.com' }), /not found/);
    const still = await call('/api/user/getUser', { userUuid: theirs }, other.apiKey);
    assert.equal(still.json.user.name, 'Theirs');
  });
});

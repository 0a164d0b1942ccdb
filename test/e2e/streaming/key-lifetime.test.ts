import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiKey, revokeApiKey } from '../../../src/domains/orgs/service.js';
import type { StreamServer } from '../../../src/streaming/server.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { raiseChanges, startStreamWith, StrictClient } from './helpers.js';

forEachDialect('stream: sessions end with their key', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let topic: string;
  /** Checks keys once a minute: whatever it closes within a test was closed by the bus announcement. */
  let announced: StreamServer;
  /** Checks keys every 200 ms. */
  let checked: StreamServer;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Org');
    topic = `/topic/change/${org.orgUuid}`;
    announced = await startStreamWith(server, { keyCheckMs: 60_000 });
    checked = await startStreamWith(server, { keyCheckMs: 200 });
  });
  after(async () => {
    await Promise.all([announced.close(), checked.close()]);
    await server.close();
  });

  const newKey = (expiresAtMs: number | null = null) => createApiKey(server.gatehouse.deps, { orgUuid: org.orgUuid, kind: 'standard', expiresAtMs });
  async function subscribed(stream: StreamServer, key: string): Promise<StrictClient> {
    const c = await StrictClient.connect(stream.url, { key, scheme: 'api-token' });
    c.send(`SUBSCRIBE\nid:0\ndestination:${topic}\nreceipt:r\n\n\0`);
    assert.equal((await c.next()).command, 'RECEIPT');
    return c;
  }

  describe('revoked', () => {
    it("closes every session of a revoked key at once, with ERROR 'API token revoked' and close code 1008, and no other", async () => {
      const { apiKey, keyId } = await newKey();
      const doomed = [await subscribed(announced, apiKey), await subscribed(announced, apiKey)];
      const bystander = await subscribed(announced, org.apiKey);
      assert.equal(await revokeApiKey(server.gatehouse.deps, { orgUuid: org.orgUuid, keyId }), true);
      for (const c of doomed) {
        const error = await c.expectErrorAndClose(2000);
        assert.equal(error.headers.message, 'API token revoked');
        assert.equal(c.closeCode, 1008);
      }
      await raiseChanges(server.gatehouse.deps, org.orgUuid, [{ entityUuid: 'after-revocation' }]);
      const message = await bystander.next();
      assert.equal(message.command, 'MESSAGE');
      assert.equal(JSON.parse(message.body).entityUuid, 'after-revocation');
      bystander.close();
    });

    it('answers a second revocation with false, and an unknown key with NOT_FOUND', async () => {
      const { keyId } = await newKey();
      assert.equal(await revokeApiKey(server.gatehouse.deps, { orgUuid: org.orgUuid, keyId }), true);
      assert.equal(await revokeApiKey(server.gatehouse.deps, { orgUuid: org.orgUuid, keyId }), false);
      await assert.rejects(
        revokeApiKey(server.gatehouse.deps, { orgUuid: org.orgUuid, keyId: 'AAAAAAAAAAAAAAAAAAAAAA' }),
        /API key AAAAAAAAAAAAAAAAAAAAAA .*not found/,
      );
      const stranger = await server.createOrg('Stranger');
      await assert.rejects(revokeApiKey(server.gatehouse.deps, { orgUuid: stranger.orgUuid, keyId }), /not found/, "another organization's key is not found");
    });

    it('closes a session whose key was revoked in the store without an announcement, by the periodic key check', async () => {
      const { apiKey, keyId } = await newKey();
      const quiet = await subscribed(announced, apiKey);
      const c = await subscribed(checked, apiKey);
      await server.gatehouse.deps.store.db.updateTable('api_keys').set({ revoked_at_ms: Date.now() }).where('id', '=', keyId).execute();
      assert.equal((await c.expectErrorAndClose(3000)).headers.message, 'API token revoked');
      assert.equal(quiet.closeCode, null, 'the stream that checks once a minute has not noticed yet: the check did it, not the bus');
      quiet.close();
    });
  });

  describe('expired', () => {
    it("closes the session when its key expires, with ERROR 'API token expired', then refuses the key: 401 on the socket, 403 on REST", async () => {
      // Long enough for a loaded machine to use the key and subscribe before it expires.
      const { apiKey } = await newKey(Date.now() + 3000);
      assert.equal((await server.call('/api/org/getOrgV2', {}, { key: apiKey })).status, 200);
      const c = await subscribed(checked, apiKey);
      const error = await c.expectErrorAndClose(8000);
      assert.equal(error.headers.message, 'API token expired');
      assert.equal(c.closeCode, 1008);
      const again = await StrictClient.open(checked.url, { key: apiKey, scheme: 'api-token' });
      assert.ok(!(again instanceof StrictClient), 'the handshake of an expired key is refused');
      assert.equal(again.status, 401);
      assert.equal(JSON.parse(again.body).errorMsg, 'Invalid api key');
      const rest = await server.call('/api/org/getOrgV2', {}, { key: apiKey });
      assert.equal(rest.status, 403);
      assert.equal(rest.json.errorMsg, 'Invalid api key');
    });

    it('refuses to issue a key that has expired already', async () => {
      await assert.rejects(newKey(Date.now() - 1), /must expire in the future/);
    });
  });

  it("closes the sessions of a key that no longer exists, with ERROR 'API token no longer exists'", async () => {
    const { apiKey, keyId } = await newKey();
    const c = await subscribed(checked, apiKey);
    await server.gatehouse.deps.store.db.deleteFrom('api_keys').where('id', '=', keyId).execute();
    assert.equal((await c.expectErrorAndClose(3000)).headers.message, 'API token no longer exists');
  });
});

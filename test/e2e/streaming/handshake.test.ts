import assert from 'node:assert/strict';
import { request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { createApiKey } from '../../../src/domains/orgs/service.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { StrictClient, stompjsClient, type HandshakeAuth } from './helpers.js';

async function refused(server: TestServer, auth: HandshakeAuth, status: number, errorMsg: RegExp): Promise<void> {
  const r = await StrictClient.open(server.gatehouse.urls.ws, auth);
  if (r instanceof StrictClient) {
    r.close();
    assert.fail(`handshake was accepted, expected HTTP ${status}`);
  }
  assert.equal(r.status, status);
  const body = JSON.parse(r.body);
  assert.equal(body.error, true);
  assert.match(body.errorMsg, errorMsg);
}

function plainGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url.replace('wss:', 'https:'), { rejectUnauthorized: false }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

forEachDialect('stream handshake: wss://HOST:PORT/websocket?x-auth-scheme=...', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let partnerOrg: TestOrg;
  let partnerKey: string;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Client');
    other = await server.createOrg('Other');
    partnerOrg = await server.createOrg('Partner');
    partnerKey = await server.createPartnerKey(partnerOrg.orgUuid, [org.orgUuid]);
  });
  after(() => server.close());

  describe('accepted', () => {
    it('accepts a standard API token and answers CONNECT with CONNECTED first', async () => {
      const client = await StrictClient.connect(server.gatehouse.urls.ws, { key: org.apiKey, scheme: 'api-token' });
      assert.equal(client.frames[0]!.command, 'CONNECTED');
      assert.equal(client.ws.protocol, 'v12.stomp');
      client.close();
    });

    it('treats a handshake without x-auth-scheme as api-token', async () => {
      const client = await StrictClient.connect(server.gatehouse.urls.ws, { key: org.apiKey });
      client.close();
    });

    it('accepts a partner token with x-auth-org in a header', async () => {
      const client = await StrictClient.connect(server.gatehouse.urls.ws, { key: partnerKey, scheme: 'partner-api-token', org: org.orgUuid });
      client.close();
    });

    it('accepts a partner token with x-auth-org in the query', async () => {
      const client = await StrictClient.connect(server.gatehouse.urls.ws, { key: partnerKey, scheme: 'partner-api-token', org: org.orgUuid, orgInQuery: true });
      client.close();
    });

    it('connects @stomp/stompjs over real TLS', async () => {
      const client = await stompjsClient(server.gatehouse.urls.ws, { key: org.apiKey, scheme: 'api-token' });
      assert.equal(client.connected, true);
      await client.deactivate();
    });
  });

  describe('refused with 401', () => {
    it('refuses a handshake without x-auth-apikey', () => refused(server, { scheme: 'api-token' }, 401, /^Unauthenticated$/));

    it('refuses an unknown token', () => refused(server, { key: 'us_' + 'x'.repeat(40), scheme: 'api-token' }, 401, /Invalid api key/));

    it('refuses a token of the other region', () => refused(server, { key: org.apiKey.replace(/^us_/, 'eu_'), scheme: 'api-token' }, 401, /Invalid api key/));

    it('refuses a revoked token', async () => {
      const { apiKey, keyId } = await createApiKey(server.gatehouse.deps, { orgUuid: org.orgUuid, kind: 'standard' });
      await StrictClient.connect(server.gatehouse.urls.ws, { key: apiKey, scheme: 'api-token' }).then((c) => c.close());
      await server.gatehouse.deps.store.db.updateTable('api_keys').set({ revoked_at_ms: Date.now() }).where('id', '=', keyId).execute();
      // The key cache would keep the key for its TTL (src/domains/orgs/keys/key-cache.ts); forget it now.
      server.gatehouse.deps.keyCache.clear();
      await refused(server, { key: apiKey, scheme: 'api-token' }, 401, /Invalid api key/);
    });

    it('refuses a partner token under the standard scheme', () =>
      refused(server, { key: partnerKey, scheme: 'api-token', org: org.orgUuid }, 401, /Invalid api key/));

    it('refuses the certificate schemes on the socket', async () => {
      await refused(server, { key: org.apiKey, scheme: 'api' }, 401, /Certificate authentication is not supported/);
      await refused(server, { key: partnerKey, scheme: 'partner-api', org: org.orgUuid }, 401, /Certificate authentication is not supported/);
    });

    it('refuses an unknown scheme', () => refused(server, { key: org.apiKey, scheme: 'bearer' }, 401, /Unsupported x-auth-scheme/));
  });

  describe('refused with 403', () => {
    it('refuses a partner token without x-auth-org', () => refused(server, { key: partnerKey, scheme: 'partner-api-token' }, 403, /Access Denied/));

    it('refuses a partner token for an organization it has no grant for', () =>
      refused(server, { key: partnerKey, scheme: 'partner-api-token', org: other.orgUuid }, 403, /Access Denied/));

    it('refuses a standard token naming another organization in x-auth-org', () =>
      refused(server, { key: org.apiKey, scheme: 'api-token', org: other.orgUuid }, 403, /Access Denied/));
  });

  describe('other requests on the port', () => {
    it('answers an upgrade to another path with 404', async () => {
      const r = await StrictClient.open(server.gatehouse.urls.ws.replace('/websocket', '/other'), { key: org.apiKey, scheme: 'api-token' });
      assert.ok(!(r instanceof StrictClient));
      assert.equal(r.status, 404);
    });

    it('answers a plain HTTPS request to /websocket with 426 Upgrade Required', async () => {
      const r = await plainGet(server.gatehouse.urls.ws);
      assert.equal(r.status, 426);
      assert.equal(JSON.parse(r.body).error, true);
    });
  });
});

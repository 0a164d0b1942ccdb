import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createApiKey } from '../../../src/domains/orgs/service.js';
import { digestApiKey } from '../../../src/domains/orgs/keys/api-keys.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

const expectError = (r: { status: number; json: any }, status: number, errorMsg: string) => {
  assert.equal(r.status, status, JSON.stringify(r.json));
  assert.equal(r.json.error, true);
  assert.equal(r.json.errorMsg, errorMsg);
};

forEachDialect('authentication with x-auth headers', (dialect) => {
  let server: TestServer;
  let client: TestOrg;
  let stranger: TestOrg;
  let partner: TestOrg;
  let partnerKey: string;
  before(async () => {
    server = await startTestServer(dialect);
    client = await server.createOrg('Client');
    stranger = await server.createOrg('Stranger');
    partner = await server.createOrg('Partner');
    partnerKey = await server.createPartnerKey(partner.orgUuid, [client.orgUuid]);
  });
  after(() => server.close());

  const getOrg = (key: string, scheme?: string, org?: string) => server.call('/api/org/getOrgV2', {}, { key, scheme, org });

  it('rejects an unknown key with 403 Invalid api key', async () => {
    expectError(await getOrg('us_' + 'A'.repeat(32)), 403, 'Invalid api key');
    expectError(await getOrg('not-a-key'), 403, 'Invalid api key');
  });

  it('accepts a standard key with the default and the explicit api-token scheme', async () => {
    assert.equal((await getOrg(client.apiKey)).json.orgUuid, client.orgUuid);
    assert.equal((await getOrg(client.apiKey, 'api-token')).json.orgUuid, client.orgUuid);
  });

  it('rejects a standard key used with the partner scheme, and a partner key with the standard scheme', async () => {
    expectError(await getOrg(client.apiKey, 'partner-api-token', client.orgUuid), 403, 'Invalid api key');
    expectError(await getOrg(partnerKey, 'api-token'), 403, 'Invalid api key');
  });

  it('rejects an unsupported scheme', async () => {
    const r = await getOrg(client.apiKey, 'basic');
    assert.equal(r.status, 401);
    assert.match(r.json.errorMsg, /x-auth-scheme/);
  });

  it('lets a partner key act for a granted client organization', async () => {
    const r = await getOrg(partnerKey, 'partner-api-token', client.orgUuid);
    assert.equal(r.status, 200);
    assert.equal(r.json.orgUuid, client.orgUuid);
  });

  it('refuses a partner key without x-auth-org, or for an organization without a grant', async () => {
    expectError(await getOrg(partnerKey, 'partner-api-token'), 403, 'Access Denied');
    expectError(await getOrg(partnerKey, 'partner-api-token', stranger.orgUuid), 403, 'Access Denied');
    expectError(await getOrg(partnerKey, 'partner-api-token', 'AAAAAAAAAAAAAAAAAAAAAA'), 403, 'Access Denied');
  });

  it('never lets a standard key act for another organization, whatever x-auth-org says', async () => {
    expectError(await getOrg(client.apiKey, 'api-token', stranger.orgUuid), 403, 'Access Denied');
    assert.equal((await getOrg(client.apiKey, 'api-token', client.orgUuid)).json.orgUuid, client.orgUuid);
  });

  it('stores keys only as SHA-256 digests, and keys carry at least 128 random bits', async () => {
    const { apiKey, keyId } = await createApiKey(server.gatehouse.deps, { orgUuid: client.orgUuid, kind: 'standard' });
    assert.match(apiKey, /^us_[A-Za-z0-9_-]{32,}$/);
    assert.ok((apiKey.length - 3) * 6 >= 128);
    const row = await server.gatehouse.deps.store.db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirstOrThrow();
    assert.equal(row.digest, digestApiKey(apiKey));
    assert.ok(!JSON.stringify(row).includes(apiKey.slice(3)), 'the key itself is not stored');
    assert.equal((await getOrg(apiKey)).json.orgUuid, client.orgUuid);
  });

  it('refuses a revoked key', async () => {
    const { apiKey, keyId } = await createApiKey(server.gatehouse.deps, { orgUuid: client.orgUuid, kind: 'standard' });
    await server.gatehouse.deps.store.db.updateTable('api_keys').set({ revoked_at_ms: Date.now() }).where('id', '=', keyId).execute();
    expectError(await getOrg(apiKey), 403, 'Invalid api key');
  });
});

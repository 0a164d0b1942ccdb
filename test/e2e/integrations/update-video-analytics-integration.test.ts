import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { callApi, startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

const UPDATE = '/api/integrations/incidentManagement/updateVideoAnalyticsIntegration';
const GET = '/api/integrations/incidentManagement/getLumeoIntegration';

forEachDialect(`POST ${UPDATE}`, (dialect) => {
  let server: TestServer;
  let analytics: Receiver;
  let org: TestOrg;
  let other: TestOrg;
  before(async () => {
    analytics = await startReceiver(() => ({ status: 200 }));
    server = await startTestServer(dialect, { env: { GATEHOUSE_ANALYTICS_API_URL: analytics.url } });
    org = await server.createOrg('Analytics Org');
    other = await server.createOrg('Other Org');
  });
  after(async () => {
    await server.close();
    await analytics.close();
  });

  const handedKeys = () => analytics.requests.filter((r) => r.path === '/v1/keys').map((r) => r.json);
  const orgOf = async (apiKey: string) => (await callApi(server.rest, '/api/org/getOrgV2', {}, { key: apiKey })).json;

  it('requires authentication', async () => {
    assert.equal((await server.call(UPDATE, { lumeoSettings: {} }, { key: '' })).status, 401);
  });

  it('issues the analytics system a key of the organization while enabled', async () => {
    const r = await server.call(UPDATE, { lumeoSettings: { enabled: true, integration: 'LUMEO', userUuid: org.userUuid } }, { key: org.apiKey });
    assert.deepEqual(r.json, { error: false, authError: false, failedGuids: [], misconfiguredDoors: [], warningMsg: null });
    const [handed] = handedKeys();
    assert.equal(handed.orgUuid, org.orgUuid);
    assert.equal(handed.region, 'us');
    assert.equal((await orgOf(handed.apiKey)).orgUuid, org.orgUuid, 'the key works, for this organization');
    assert.equal(JSON.stringify(await server.call(GET, {}, { key: org.apiKey })).includes(handed.apiKey), false, 'the key is never answered');
  });

  it('keeps the same key while it stays enabled', async () => {
    await server.call(UPDATE, { lumeoSettings: { enabled: true } }, { key: org.apiKey });
    assert.equal(handedKeys().length, 1);
  });

  it('revokes the key when disabled, and tells the analytics system', async () => {
    const [handed] = handedKeys();
    await server.call(UPDATE, { lumeoSettings: { enabled: false } }, { key: org.apiKey });
    const refused = await callApi(server.rest, '/api/org/getOrgV2', {}, { key: handed.apiKey });
    assert.deepEqual([refused.status, refused.json.errorMsg], [403, 'Invalid api key']);
    const revoke = analytics.requests.find((q) => q.path === '/v1/keys/revoke');
    assert.deepEqual(revoke?.json, { orgUuid: org.orgUuid, keyId: handed.keyId });
  });

  it('issues a new key when enabled again, and revokes it when the integration is deleted', async () => {
    await server.call(UPDATE, { lumeoSettings: { enabled: true } }, { key: org.apiKey });
    const second = handedKeys()[1];
    assert.ok(second && second.apiKey !== handedKeys()[0].apiKey);
    assert.equal((await orgOf(second.apiKey)).orgUuid, org.orgUuid);
    const deleted = await server.call('/api/integrations/incidentManagement/deleteLumeoIntegration', {}, { key: org.apiKey });
    assert.equal(deleted.json.error, false);
    assert.equal((await callApi(server.rest, '/api/org/getOrgV2', {}, { key: second.apiKey })).status, 403);
    assert.equal((await server.call(GET, {}, { key: org.apiKey })).json.orgIntegrationV2 ?? null, null);
  });

  it('answers the settings with the audit map of who changed them', async () => {
    await server.call(UPDATE, { lumeoSettings: { enabled: true, integrationAuditMap: { forged: { user: 'Mallory' } } } }, { key: org.apiKey });
    await server.call(UPDATE, { lumeoSettings: { enabled: false } }, { key: org.apiKey });
    const got = (await server.call(GET, {}, { key: org.apiKey })).json.orgIntegrationV2;
    assert.equal(got.integration, 'LUMEO');
    assert.equal(got.enabled, false);
    assert.equal(got.orgUuid, org.orgUuid);
    const entries = Object.values(got.integrationAuditMap as Record<string, any>);
    assert.equal(entries.length, 2, 'the forged entry is not kept');
    assert.deepEqual(
      entries.map((e) => [e.integrationAuditEvent, e.userUuid, e.user]),
      [
        ['UPDATE', org.userUuid, 'Analytics Org Administrator'],
        ['UPDATE', org.userUuid, 'Analytics Org Administrator'],
      ],
    );
    assert.equal(typeof entries[0].enabledTimestampMs, 'number');
    assert.equal(entries[1].enabledTimestampMs, null);
  });

  it("answers another organization's ids in failedGuids", async () => {
    const r = await server.call(
      '/api/integrations/incidentManagement/updateLumeoIntegration',
      { lumeoSettings: { enabled: false, orgUuid: other.orgUuid, userUuid: other.userUuid } },
      { key: org.apiKey },
    );
    assert.deepEqual(r.json.failedGuids, [other.orgUuid, other.userUuid]);
    assert.equal((await server.call(GET, {}, { key: other.apiKey })).json.orgIntegrationV2 ?? null, null);
  });

  it('refuses a malformed body with 400', async () => {
    assert.equal((await server.call(UPDATE, { lumeoSettings: { enabled: 1 } }, { key: org.apiKey })).status, 400);
  });
});

forEachDialect(`POST ${UPDATE} with the analytics system unreachable`, (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  before(async () => {
    server = await startTestServer(dialect, { env: { GATEHOUSE_ANALYTICS_API_URL: 'http://127.0.0.1:9' } });
    org = await server.createOrg('Offline Org');
  });
  after(() => server.close());

  it('saves the integration, leaves no usable key behind, and says so', async () => {
    const r = await server.call(UPDATE, { lumeoSettings: { enabled: true } }, { key: org.apiKey });
    assert.equal(r.json.error, false);
    assert.match(r.json.warningMsg, /could not be reached to receive its key/);
    const keys = await server.gatehouse.deps.store.db.selectFrom('api_keys').selectAll().where('org_uuid', '=', org.orgUuid).execute();
    assert.deepEqual(
      keys.map((k) => k.revoked_at_ms === null),
      [true, false],
      "only the organization's own key is live",
    );
  });
});

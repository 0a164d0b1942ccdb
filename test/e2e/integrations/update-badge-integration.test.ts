import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { findIntegration, openSecret } from '../../../src/domains/integrations/settings.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startReceiver, type Receiver } from '../../helpers/receiver.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { seedIntegrationSite, type IntegrationSite } from './site.js';

const UPDATE = '/api/integrations/accessControl/updateBadgeIntegration';
const GET = '/api/integrations/accessControl/getGeneaIntegration';
const GOOD_TOKEN = 'badge-api-token-0001-GOOD';
const SIGNING_SECRET = 'whsec-0123456789abcdef-SECRET';
const PLATFORM_TOKEN = 'AAAAAAAAAAAAAAAAAAAAAQ';

forEachDialect(`POST ${UPDATE}`, (dialect) => {
  let server: TestServer;
  let badgeSystem: Receiver;
  let org: TestOrg;
  let other: TestOrg;
  let site: IntegrationSite;
  let otherSite: IntegrationSite;
  before(async () => {
    // The badge system's API: it knows one token.
    badgeSystem = await startReceiver((req) =>
      req.path === '/v1/me' && req.headers.authorization === `Bearer ${GOOD_TOKEN}` ? { status: 200, body: { id: 'acct-1' } } : { status: 401 },
    );
    server = await startTestServer(dialect, { env: { GATEHOUSE_BADGE_API_URL: `${badgeSystem.url}/` } });
    org = await server.createOrg('Badge Org');
    other = await server.createOrg('Other Org');
    site = await seedIntegrationSite(server, org.orgUuid);
    otherSite = await seedIntegrationSite(server, other.orgUuid);
  });
  after(async () => {
    await server.close();
    await badgeSystem.close();
  });

  const settings = (extra: Record<string, unknown> = {}) => ({
    enabled: true,
    apiToken: GOOD_TOKEN,
    webhookSignatureSecret: SIGNING_SECRET,
    platformToken: PLATFORM_TOKEN,
    createSeekPoints: true,
    doorInfoMap: { 'door-1': { doorName: 'Front Door', locationUuid: site.locations.HQ, assignedCameraList: [site.cameras.Lobby] } },
    ...extra,
  });
  const get = async (key = org.apiKey) => (await server.call(GET, {}, { key })).json.orgIntegrationV2;

  it('requires authentication', async () => {
    assert.equal((await server.call(UPDATE, { geneaSettings: {} }, { key: '' })).status, 401);
  });

  it('enables with a token the badge system accepts, and never answers the secrets', async () => {
    const r = await server.call(UPDATE, { geneaSettings: settings() }, { key: org.apiKey });
    assert.deepEqual(r.json, { error: false, authError: false, failedGuids: [], misconfiguredDoors: [], warningMsg: null });
    assert.equal(badgeSystem.requests.at(-1)?.headers.authorization, `Bearer ${GOOD_TOKEN}`);
    const got = await get();
    assert.equal(got.integration, 'GENEA');
    assert.equal(got.enabled, true);
    assert.equal(got.tokenValid, true);
    assert.equal(got.apiToken, '****GOOD');
    assert.equal(got.webhookSignatureSecret, '****CRET');
    assert.equal(got.platformToken, '****AAAQ');
    assert.match(got.webhookUuid, /^[A-Za-z0-9_-]{22}$/);
    assert.equal(got.orgUuid, org.orgUuid);
    assert.deepEqual(got.doorInfoMap['door-1'].assignedCameraList, [site.cameras.Lobby]);
    assert.equal(Object.values(got.integrationAuditMap as Record<string, any>).at(-1).userUuid, org.userUuid);
    assert.ok(!JSON.stringify(got).includes(GOOD_TOKEN) && !JSON.stringify(got).includes(SIGNING_SECRET));
  });

  it('keeps the secrets at rest sealed, not as text', async () => {
    const row = await server.gatehouse.deps.store.db.selectFrom('integrations').selectAll().where('org_uuid', '=', org.orgUuid).executeTakeFirstOrThrow();
    for (const secret of [GOOD_TOKEN, SIGNING_SECRET, PLATFORM_TOKEN]) assert.ok(!JSON.stringify(row).includes(secret), 'no secret in the row');
  });

  it('keeps the stored secrets when the update sends their masked values back', async () => {
    const before = await get();
    const r = await server.call(
      UPDATE,
      {
        geneaSettings: settings({
          apiToken: before.apiToken,
          webhookSignatureSecret: before.webhookSignatureSecret,
          platformToken: before.platformToken,
          saveClips: true,
        }),
      },
      { key: org.apiKey },
    );
    assert.equal(r.json.error, false, r.json.errorMsg);
    assert.equal(badgeSystem.requests.at(-1)?.headers.authorization, `Bearer ${GOOD_TOKEN}`, 'the kept token is the one checked');
    const integration = await findIntegration(server.gatehouse.deps, org.orgUuid, 'BADGE');
    assert.equal(openSecret(server.gatehouse.deps, integration!, 'webhookSignatureSecret'), SIGNING_SECRET);
    assert.equal((await get()).saveClips, true);
    assert.equal((await get()).webhookUuid, before.webhookUuid, 'the webhook id stays');
  });

  it('refuses a masked value that is not the stored secret', async () => {
    const r = await server.call(UPDATE, { geneaSettings: settings({ apiToken: '****XXXX' }) }, { key: org.apiKey });
    assert.equal(r.json.error, true);
    assert.match(r.json.errorMsg, /^apiToken: a masked value that is not the stored secret's/);
  });

  it('answers authError and saves the integration disabled when the badge system refuses the token', async () => {
    const r = await server.call(UPDATE, { geneaSettings: settings({ apiToken: 'revoked-token-9999' }) }, { key: org.apiKey });
    assert.equal(r.status, 200);
    assert.equal(r.json.authError, true);
    assert.equal(r.json.error, true);
    assert.match(r.json.errorMsg, /refused the credentials/);
    const got = await get();
    assert.equal(got.enabled, false);
    assert.equal(got.tokenValid, false);
    assert.equal(got.apiToken, '****9999');
  });

  it('answers door names under several locations in misconfiguredDoors, and foreign ids in failedGuids', async () => {
    const r = await server.call(
      UPDATE,
      {
        geneaSettings: settings({
          doorInfoMap: {
            'door-1': { doorName: 'Front Door', locationUuid: site.locations.HQ, assignedCameraList: [site.cameras.Lobby, otherSite.cameras.Lobby] },
            'door-2': { doorName: 'Front Door', locationUuid: site.locations.Annex, assignedCameraList: [site.cameras.Hall] },
            'door-3': { doorName: 'Back Door', locationUuid: otherSite.locations.HQ },
            'door-4': { doorName: 'Back Door', locationUuid: otherSite.locations.HQ },
          },
        }),
      },
      { key: org.apiKey },
    );
    assert.equal(r.json.error, false, r.json.errorMsg);
    assert.deepEqual(r.json.misconfiguredDoors, ['Front Door']);
    assert.deepEqual(r.json.failedGuids, [otherSite.cameras.Lobby, otherSite.locations.HQ]);
    assert.match(r.json.warningMsg, /door names assigned to more than one location: Front Door/);
    const got = await get();
    assert.equal(got.enabled, true);
    assert.deepEqual(got.doorInfoMap['door-1'].assignedCameraList, [site.cameras.Lobby]);
    assert.equal(got.doorInfoMap['door-3'].locationUuid, null);
    assert.deepEqual(got.misconfiguredDoors, ['Front Door']);
  });

  it('refuses to enable without apiToken and webhookSignatureSecret', async () => {
    const r = await server.call(UPDATE, { geneaSettings: settings({ webhookSignatureSecret: null }) }, { key: org.apiKey });
    assert.deepEqual([r.json.error, r.json.errorMsg], [true, 'apiToken and webhookSignatureSecret: both required to enable the badge integration']);
  });

  it('refuses a platformToken that is not a RUUID, and takes rhombusToken as its other name', async () => {
    const bad = await server.call(UPDATE, { geneaSettings: settings({ platformToken: 'not-a-ruuid' }) }, { key: org.apiKey });
    assert.equal(bad.json.errorMsg, 'platformToken: must be a RUUID (22 URL-safe base-64 characters)');
    const alias = await server.call(
      '/api/integrations/accessControl/updateGeneaIntegration',
      { geneaSettings: settings({ platformToken: undefined, rhombusToken: 'BBBBBBBBBBBBBBBBBBBBBQ' }) },
      { key: org.apiKey },
    );
    assert.equal(alias.json.error, false, alias.json.errorMsg);
    assert.equal((await get()).platformToken, '****BBBQ');
  });

  it("refuses another organization's webhookUuid", async () => {
    const mine = (await get()).webhookUuid;
    await server.call(UPDATE, { geneaSettings: { enabled: false } }, { key: other.apiKey });
    const r = await server.call(UPDATE, { geneaSettings: { enabled: false, webhookUuid: mine } }, { key: other.apiKey });
    assert.deepEqual([r.json.error, r.json.errorMsg], [true, 'webhookUuid: already in use; choose another or leave it out to have one generated']);
    assert.notEqual((await get(other.apiKey)).webhookUuid, mine);
  });

  it('refuses a malformed body with 400', async () => {
    for (const body of [
      { geneaSettings: { doorInfoMap: { d: { clipDuration: 'long' } } } },
      { geneaSettings: { webhookUuid: 'short' } },
      { geneaSettings: [] },
    ]) {
      assert.equal((await server.call(UPDATE, body, { key: org.apiKey })).status, 400, JSON.stringify(body));
    }
  });

  it('answers the same under getBadgeIntegration, and nothing to another organization', async () => {
    const r = await server.call('/api/integrations/accessControl/getBadgeIntegration', {}, { key: org.apiKey });
    assert.equal(r.json.orgIntegrationV2.webhookUuid, (await get()).webhookUuid);
    await server.call('/api/integrations/accessControl/deleteGeneaIntegration', {}, { key: other.apiKey });
    assert.equal((await get(other.apiKey)) ?? null, null);
  });
});

import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

const LIST = '/api/integrations/org/getOrgIntegrations';
const LIST_V2 = '/api/integrations/org/getOrgIntegrationsV2';

forEachDialect(`POST ${LIST}`, (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('List Org');
    other = await server.createOrg('Other Org');
    const setups: Array<[string, unknown]> = [
      ['/api/integrations/IoT/updateSmartSensorIntegration', { haloSettings: { enabled: true, alertVape: true } }],
      ['/api/integrations/updateChatIntegration', { mattermostSettings: { enabled: true, channel: 'sec', webhookUrl: 'http://127.0.0.1:9/h' } }],
      [
        '/api/integrations/accessControl/updateBadgeIntegration',
        { geneaSettings: { enabled: true, apiToken: 'tok-123456789', webhookSignatureSecret: 'sig-123456789' } },
      ],
      ['/api/integrations/incidentManagement/updateVideoAnalyticsIntegration', { lumeoSettings: { enabled: false } }],
    ];
    for (const [path, body] of setups) assert.equal((await server.call(path, body, { key: org.apiKey })).json.error, false, path);
  });
  after(() => server.close());

  it('requires authentication', async () => {
    assert.equal((await server.call(LIST, {}, { key: '' })).status, 401);
    assert.equal((await server.call(LIST_V2, {}, { key: '' })).status, 401);
  });

  it("answers every integration of the caller's organization under the reference's settings names", async () => {
    const r = await server.call(LIST, {}, { key: org.apiKey });
    const all = r.json.orgIntegrations;
    assert.equal(all.orgUuid, org.orgUuid);
    assert.equal(all.haloSettings.alertVape, true);
    assert.equal(all.mattermostSettings.channel, 'sec');
    assert.equal(all.geneaSettings.apiToken, '****6789');
    assert.equal(all.lumeoSettings.enabled, false);
    assert.equal(all.serviceNowSettings, undefined);
  });

  it('answers the badge and video-analytics integrations by name in the V2 listing', async () => {
    const r = await server.call(LIST_V2, {}, { key: org.apiKey });
    assert.deepEqual(Object.keys(r.json.orgIntegrationsV2).sort(), ['GENEA', 'LUMEO']);
    assert.equal(r.json.orgIntegrationsV2.GENEA.webhookSignatureSecret, '****6789');
    assert.equal(r.json.orgIntegrationsV2.LUMEO.integration, 'LUMEO');
  });

  it('answers another organization only its own (none)', async () => {
    assert.deepEqual((await server.call(LIST, {}, { key: other.apiKey })).json.orgIntegrations, { orgUuid: other.orgUuid });
    assert.deepEqual((await server.call(LIST_V2, {}, { key: other.apiKey })).json.orgIntegrationsV2, {});
  });

  it('answers under the deprecated names too, with a Deprecation header', async () => {
    for (const path of ['/api/org/getOrgIntegrations', '/api/integrations/getOrgIntegrations']) {
      const r = await server.call(path, {}, { key: org.apiKey });
      assert.equal(r.json.orgIntegrations.mattermostSettings.channel, 'sec', path);
      assert.equal(r.headers.get('deprecation'), 'true');
    }
  });

  it('refuses a body that is not JSON with 400', async () => {
    assert.equal((await server.call(LIST, 'nope', { key: org.apiKey })).status, 400);
  });
});

import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { seedIntegrationSite, type IntegrationSite } from './site.js';

const UPDATE = '/api/integrations/IoT/updateSmartSensorIntegration';
const GET = '/api/integrations/IoT/getSmartSensorIntegration';

forEachDialect(`POST ${UPDATE}`, (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: IntegrationSite;
  let otherSite: IntegrationSite;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Sensor Org');
    other = await server.createOrg('Other Org');
    site = await seedIntegrationSite(server, org.orgUuid);
    otherSite = await seedIntegrationSite(server, other.orgUuid);
  });
  after(() => server.close());

  it('requires authentication', async () => {
    const r = await server.call(UPDATE, { haloSettings: { enabled: true } }, { key: '' });
    assert.equal(r.status, 401);
    assert.equal(r.json.errorMsg, 'Unauthenticated');
  });

  it('saves the settings and reads them back, stamping who enabled it from the caller', async () => {
    const before = Date.now();
    const r = await server.call(
      UPDATE,
      {
        haloSettings: {
          enabled: true,
          alertVape: true,
          alertGunshot: true,
          saveClips: true,
          savedClipDurationMs: 20_000,
          triggerNotification: true,
          sensorName: 'Restroom 2',
          sensorToCamerasMap: { 'halo-1': [site.cameras.Lobby, site.cameras.Hall] },
        },
      },
      { key: org.apiKey },
    );
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { error: false, authError: false, failedGuids: [], misconfiguredDoors: [], warningMsg: null });
    const got = (await server.call(GET, {}, { key: org.apiKey })).json.haloSettings;
    assert.equal(got.enabled, true);
    assert.equal(got.alertVape, true);
    assert.equal(got.alertTHC, false);
    assert.equal(got.savedClipDurationMs, 20_000);
    assert.deepEqual(got.sensorToCamerasMap, { 'halo-1': [site.cameras.Lobby, site.cameras.Hall] });
    assert.equal(got.enablingUserUuid, org.userUuid);
    assert.equal(got.enablingUser, 'Sensor Org Administrator');
    assert.ok(got.enabledTimestampMs >= before && got.enabledTimestampMs <= Date.now());
  });

  it('keeps the enabling fields that are given, and those of an integration that was enabled already', async () => {
    await server.call(UPDATE, { haloSettings: { enabled: true, enabledTimestampMs: 1234, enablingUser: 'Installer' } }, { key: org.apiKey });
    let got = (await server.call(GET, {}, { key: org.apiKey })).json.haloSettings;
    assert.equal(got.enabledTimestampMs, 1234);
    assert.equal(got.enablingUser, 'Installer');
    await server.call(UPDATE, { haloSettings: { enabled: true, alertCO: true } }, { key: org.apiKey });
    got = (await server.call(GET, {}, { key: org.apiKey })).json.haloSettings;
    assert.equal(got.enabledTimestampMs, 1234, 'still the same enabling');
    assert.equal(got.enablingUser, 'Installer');
  });

  it('replaces the whole settings: a field left out is reset', async () => {
    await server.call(UPDATE, { haloSettings: { enabled: true, alertVape: true, sensorName: 'A' } }, { key: org.apiKey });
    await server.call(UPDATE, { haloSettings: { enabled: false } }, { key: org.apiKey });
    const got = (await server.call(GET, {}, { key: org.apiKey })).json.haloSettings;
    assert.equal(got.enabled, false);
    assert.equal(got.alertVape, false);
    assert.equal(got.sensorName, null);
    assert.deepEqual(got.sensorToCamerasMap, {});
  });

  it("answers cameras that are not the caller's in failedGuids and applies the rest", async () => {
    const r = await server.call(
      UPDATE,
      {
        haloSettings: {
          enabled: true,
          alertVape: true,
          sensorToCamerasMap: { s1: [site.cameras.Lobby, otherSite.cameras.Lobby, 'not-a-camera'], s2: [site.sensors['Front Button']] },
        },
      },
      { key: org.apiKey },
    );
    assert.equal(r.json.error, false);
    assert.deepEqual(r.json.failedGuids, [otherSite.cameras.Lobby, 'not-a-camera', site.sensors['Front Button']]);
    assert.match(r.json.warningMsg, /3 identifier\(s\) are not records of this organization/);
    const got = (await server.call(GET, {}, { key: org.apiKey })).json.haloSettings;
    assert.deepEqual(got.sensorToCamerasMap, { s1: [site.cameras.Lobby], s2: [] });
    assert.equal(got.alertVape, true);
  });

  it("answers an enablingUserUuid that is not the organization's user in failedGuids", async () => {
    const r = await server.call(UPDATE, { haloSettings: { enabled: true, enablingUserUuid: other.userUuid } }, { key: org.apiKey });
    assert.deepEqual(r.json.failedGuids, [other.userUuid]);
    const got = (await server.call(GET, {}, { key: org.apiKey })).json.haloSettings;
    assert.equal(got.enablingUserUuid, org.userUuid);
  });

  it("answers under the reference catalogue's name updateHaloIntegration", async () => {
    const r = await server.call('/api/integrations/IoT/updateHaloIntegration', { haloSettings: { enabled: false, sensorName: 'Alias' } }, { key: org.apiKey });
    assert.equal(r.json.error, false);
    assert.equal((await server.call(GET, {}, { key: org.apiKey })).json.haloSettings.sensorName, 'Alias');
  });

  it("keeps each organization's integration to itself", async () => {
    const r = await server.call(GET, {}, { key: other.apiKey });
    assert.equal(r.json.error, false);
    assert.equal(r.json.haloSettings, null);
  });

  it('refuses a malformed body with 400', async () => {
    for (const body of [
      { haloSettings: { enabled: 'yes' } },
      { haloSettings: { savedClipDurationMs: 5 } },
      { haloSettings: { sensorToCamerasMap: { s: 'cam' } } },
      '{',
    ]) {
      const r = await server.call(UPDATE, body, { key: org.apiKey });
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.json.error, true);
    }
  });

  it('deletes the integration, and answers NOT_FOUND when there is none', async () => {
    const path = '/api/integrations/IoT/deleteHaloIntegration';
    assert.equal((await server.call(path, {}, { key: org.apiKey })).json.error, false);
    assert.equal((await server.call(GET, {}, { key: org.apiKey })).json.haloSettings, null);
    const again = await server.call(path, {}, { key: org.apiKey });
    assert.deepEqual([again.status, again.json.error, again.json.errorMsg], [200, true, 'Smart-sensor integration not found']);
  });
});

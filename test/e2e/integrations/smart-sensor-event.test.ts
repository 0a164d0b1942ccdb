import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { findPolicyAlert } from '../../../src/domains/events/alerts/service.js';
import { findSavedClip } from '../../../src/domains/events/clips/service.js';
import { runCli } from '../../helpers/cli.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { seedIntegrationSite, type IntegrationSite } from './site.js';

const EVENT = '/api/integrations/IoT/smartSensorEvent';

forEachDialect(`POST ${EVENT}`, (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: IntegrationSite;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Sensor Org');
    other = await server.createOrg('Other Org');
    site = await seedIntegrationSite(server, org.orgUuid);
    const r = await server.call(
      '/api/integrations/IoT/updateSmartSensorIntegration',
      {
        haloSettings: {
          enabled: true,
          alertVape: true,
          alertGunshot: true,
          alertTHC: false,
          saveClips: true,
          savedClipDurationMs: 45_000,
          triggerNotification: true,
          sensorName: 'Restroom 2',
          sensorToCamerasMap: { 'halo-1': [site.cameras.Lobby, site.cameras.Hall], 'halo-2': [] },
        },
      },
      { key: org.apiKey },
    );
    assert.equal(r.json.error, false, r.json.errorMsg);
  });
  after(() => server.close());

  const deps = () => server.gatehouse.deps;

  it('requires authentication', async () => {
    assert.equal((await server.call(EVENT, { sensorId: 'halo-1', eventType: 'VAPE' }, { key: '' })).status, 401);
  });

  it('raises a policy alert with the matching trigger on each mapped camera, saves their clips and notifies', async () => {
    const changes: ChangeEvent[] = [];
    const unsubscribe = deps().bus.subscribe('change', (e) => changes.push(e));
    const at = Date.now() - 1000;
    const r = await server.call(EVENT, { sensorId: 'halo-1', eventType: 'VAPE', timestampMs: at, value: 87 }, { key: org.apiKey });
    assert.equal(r.json.error, false, r.json.errorMsg);
    assert.equal(r.json.ignored, false);
    assert.equal(r.json.policyAlertUuids.length, 2);
    assert.equal(r.json.savedClipUuids.length, 2);
    const alerts = await Promise.all(r.json.policyAlertUuids.map((u: string) => findPolicyAlert(deps(), org.orgUuid, u)));
    assert.deepEqual(alerts.map((a) => a?.deviceUuid).sort(), [site.cameras.Lobby, site.cameras.Hall].sort());
    for (const alert of alerts) {
      assert.deepEqual(alert?.policyAlertTriggers, ['IOT_AIR_VAPE']);
      assert.equal(alert?.timestampMs, at);
      assert.equal(alert?.notificationSent, true);
      assert.match(alert?.textDescription ?? '', /VAPE reported by smart sensor Restroom 2 \(87\)/);
      assert.equal(Object.keys(alert?.clipLocationMapV2 ?? {}).length, 1, 'the alert links its clip');
    }
    const clips = await Promise.all(r.json.savedClipUuids.map((u: string) => findSavedClip(deps(), org.orgUuid, u)));
    for (const clip of clips) {
      assert.equal(clip?.durationSec, 45);
      assert.equal(clip?.timestampMs, at);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    unsubscribe();
    const notifications = changes.filter((c) => c.entity === 'NOTIFICATION' && c.orgUuid === org.orgUuid);
    assert.deepEqual(notifications.map((n) => (n.update as any).policyAlertUuid).sort(), [...r.json.policyAlertUuids].sort());
  });

  it('ignores an event of a disabled alert type: no alert, no clip', async () => {
    const r = await server.call(EVENT, { sensorId: 'halo-1', eventType: 'THC' }, { key: org.apiKey });
    assert.deepEqual([r.json.error, r.json.ignored, r.json.policyAlertUuids], [false, true, []]);
    assert.equal(r.json.warningMsg, 'event ignored: THC alerts are disabled (alertTHC)');
  });

  it('ignores an event of a sensor mapped to no camera, or not mapped', async () => {
    for (const sensorId of ['halo-2', 'halo-9']) {
      const r = await server.call(EVENT, { sensorId, eventType: 'GUNSHOT' }, { key: org.apiKey });
      assert.equal(r.json.ignored, true, sensorId);
      assert.match(r.json.warningMsg, /is not mapped to any camera/);
    }
  });

  it("ignores an event sent with another organization's key: its own integration is not on", async () => {
    const r = await server.call(EVENT, { sensorId: 'halo-1', eventType: 'VAPE' }, { key: other.apiKey });
    assert.deepEqual([r.json.ignored, r.json.warningMsg], [true, 'event ignored: the smart-sensor integration is not enabled']);
  });

  it('refuses an unknown event type or a missing sensor with 400', async () => {
    assert.equal((await server.call(EVENT, { sensorId: 'halo-1', eventType: 'SMOKE' }, { key: org.apiKey })).status, 400);
    assert.equal((await server.call(EVENT, { eventType: 'VAPE' }, { key: org.apiKey })).status, 400);
  });

  it('gatehouse simulate smart-sensor raises the same alerts through the control API', async () => {
    const cli = await runCli(
      [
        'simulate',
        'smart-sensor',
        '--org',
        org.orgUuid,
        '--sensor',
        'halo-1',
        '--type',
        'GUNSHOT',
        '--at',
        '1700000000000',
        '--server',
        server.rest,
        '--data-dir',
        server.config.dataDir,
      ],
      { GATEHOUSE_ADMIN_TOKEN: '' },
    );
    assert.equal(cli.code, 0, cli.stderr);
    const out = JSON.parse(cli.stdout);
    assert.equal(out.ignored, false);
    assert.equal(out.policyAlertUuids.length, 2);
    const alert = await findPolicyAlert(deps(), org.orgUuid, out.policyAlertUuids[0]);
    assert.deepEqual([alert?.policyAlertTriggers, alert?.timestampMs], [['IOT_GUNSHOT'], 1_700_000_000_000]);
  });

  it('turns the integration off: events are then ignored', async () => {
    await server.call(
      '/api/integrations/IoT/updateSmartSensorIntegration',
      { haloSettings: { enabled: false, alertVape: true, sensorToCamerasMap: { 'halo-1': [site.cameras.Lobby] } } },
      { key: org.apiKey },
    );
    const r = await server.call(EVENT, { sensorId: 'halo-1', eventType: 'VAPE' }, { key: org.apiKey });
    assert.equal(r.json.ignored, true);
  });
});

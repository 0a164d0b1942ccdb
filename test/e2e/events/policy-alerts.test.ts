import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { changesDuring, raiseAlerts, seedEventsSite, simulate, type EventsSite } from './fixtures.js';

const T0 = Date.UTC(2024, 5, 1, 9);

forEachDialect('policy alerts', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server);
  });
  after(() => server.close());
  const call = (path: string, body: unknown, key = site.org.apiKey) => server.call(path, body, { key });

  describe('POST /_gatehouse/simulate/alert', () => {
    it('raises a POLICY_ALERT_V2 with the trigger, people count and time, and announces it on the bus', async () => {
      let answer: any;
      const changes = await changesDuring(server, async () => {
        answer = await simulate(server, 'alert', { device: site.lobby, trigger: 'PEOPLECOUNT_HIGH', people: '12', at: String(T0) });
      });
      const alert = answer.policyAlert;
      assert.equal(answer.error, false);
      assert.equal(alert.type, 'POLICY_ALERT_V2');
      assert.deepEqual(alert.policyAlertTriggers, ['PEOPLECOUNT_HIGH']);
      assert.equal(alert.numHumans, 12);
      assert.equal(alert.timestampMs, T0);
      assert.equal(alert.deviceUuid, site.lobby);
      assert.equal(alert.orgUuid, site.org.orgUuid);
      assert.equal(alert.textDescription, 'PEOPLECOUNT_HIGH on Lobby');
      const change = changes.find((c) => c.entity === 'POLICY_ALERT');
      assert.ok(change, 'a POLICY_ALERT change');
      assert.equal(change.type, 'CREATE');
      assert.equal(change.entityUuid, alert.uuid);
      assert.equal(change.deviceUuid, site.lobby);
      assert.equal(change.orgUuid, site.org.orgUuid);
      const update = change.update as Record<string, unknown>;
      assert.deepEqual(
        {
          deviceUuid: update.deviceUuid,
          timestampMs: update.timestampMs,
          durationSec: update.durationSec,
          policyAlertTriggers: update.policyAlertTriggers,
          textDescription: update.textDescription,
        },
        { deviceUuid: site.lobby, timestampMs: T0, durationSec: 0, policyAlertTriggers: ['PEOPLECOUNT_HIGH'], textDescription: 'PEOPLECOUNT_HIGH on Lobby' },
      );
    });

    it('refuses an unknown trigger (400) and an unknown device', async () => {
      const bad = await control(server, '/simulate/alert', { device: site.lobby, trigger: 'NOT_A_TRIGGER' });
      assert.equal(bad.status, 400);
      const missing = await control(server, '/simulate/alert', { device: 'AAAAAAAAAAAAAAAAAAAAAA', trigger: 'MOTION' });
      assert.equal(missing.json.errorMsg, 'Device not found');
    });
  });

  describe('POST /_gatehouse/simulate/reading', () => {
    it('raises an alert carrying each reading above its threshold beside that threshold', async () => {
      const r = await simulate(server, 'reading', { sensor: site.air, co2Ppm: '1800', tempC: '31.5', pm25: '10', at: String(T0) });
      assert.deepEqual(r.crossings, [
        { reading: 'co2Ppm', value: 1800, threshold: 1500 },
        { reading: 'tempC', value: 31.5, threshold: 30 },
      ]);
      const alert = r.policyAlert;
      assert.deepEqual(alert.policyAlertTriggers, ['CO2_EXCEEDED_HIGH', 'TEMPERATURE_EXCEEDED_HIGH']);
      assert.deepEqual([alert.co2Ppm, alert.co2PpmThreshold, alert.tempC, alert.tempCThreshold], [1800, 1500, 31.5, 30]);
      assert.equal(alert.pm25, undefined, 'a reading under its threshold is not part of the alert');
      assert.equal(alert.deviceType, 'ENVIRONMENTAL_SENSOR');
      assert.match(alert.textDescription, /co2Ppm 1800 above its threshold 1500/);
    });

    it("uses the platform's threshold names where they differ from the reading's", async () => {
      const r = await simulate(server, 'reading', { sensor: site.air, humidityPermyriad: '7000' });
      assert.equal(r.policyAlert.humidityPermyriad, 7000);
      assert.equal(r.policyAlert.humidityThresholdPermyriad, 6000);
    });

    it('raises nothing for readings at or under their thresholds, or without a threshold', async () => {
      const r = await simulate(server, 'reading', { sensor: site.air, co2Ppm: '1500', tvoc: '9999' });
      assert.equal(r.policyAlert, null);
      assert.deepEqual(r.crossings, []);
    });

    it('refuses an unknown reading (400), no reading at all, and a sensor that is not environmental', async () => {
      assert.equal((await control(server, '/simulate/reading', { sensor: site.air, co2ppm: '1800' })).status, 400);
      assert.match((await control(server, '/simulate/reading', { sensor: site.air })).json.errorMsg, /at least one reading/);
      assert.equal((await control(server, '/simulate/reading', { sensor: site.button, co2Ppm: '1800' })).json.errorMsg, 'Environmental sensor not found');
    });
  });

  describe('POST /api/event/getPolicyAlertsV2', () => {
    let other: EventsSite;
    before(async () => {
      other = await seedEventsSite(server, 'Alerts V2 Org');
      await raiseAlerts(server, other.org.orgUuid, other.lobby, [T0, T0 - 1000, T0 - 2000]);
      await raiseAlerts(server, other.org.orgUuid, other.dock, [T0 - 500, T0 - 1000]);
    });

    it('requires authentication', async () => {
      assert.equal((await call('/api/event/getPolicyAlertsV2', {}, '')).status, 401);
    });

    it("answers the organization's alerts newest first, with the oldest of the page", async () => {
      const r = await call('/api/event/getPolicyAlertsV2', {}, other.org.apiKey);
      assert.deepEqual(
        r.json.policyAlerts.map((a: any) => a.timestampMs),
        [T0, T0 - 500, T0 - 1000, T0 - 1000, T0 - 2000],
      );
      assert.equal(r.json.oldestPolicyAlert.timestampMs, T0 - 2000);
    });

    it('filters by device and by time range (after inclusive, before exclusive)', async () => {
      const byDevice = await call('/api/event/getPolicyAlertsV2', { deviceFilter: [other.dock] }, other.org.apiKey);
      assert.ok(byDevice.json.policyAlerts.every((a: any) => a.deviceUuid === other.dock));
      assert.equal(byDevice.json.policyAlerts.length, 2);
      const byTime = await call('/api/event/getPolicyAlertsV2', { afterTimestampMs: T0 - 1000, beforeTimestampMs: T0 }, other.org.apiKey);
      assert.deepEqual(
        byTime.json.policyAlerts.map((a: any) => a.timestampMs),
        [T0 - 500, T0 - 1000, T0 - 1000],
      );
    });

    it('pages with the cursor of the last alert', async () => {
      const first = await call('/api/event/getPolicyAlertsV2', { maxResults: 3 }, other.org.apiKey);
      const last = first.json.oldestPolicyAlert;
      const second = await call('/api/event/getPolicyAlertsV2', { maxResults: 3, lastTimestampMs: last.timestampMs, lastUuid: last.uuid }, other.org.apiKey);
      const all = [...first.json.policyAlerts, ...second.json.policyAlerts].map((a: any) => a.uuid);
      assert.equal(new Set(all).size, 5);
    });

    it('refuses a reversed time range and a half cursor', async () => {
      assert.match(
        (await call('/api/event/getPolicyAlertsV2', { afterTimestampMs: T0, beforeTimestampMs: T0 })).json.errorMsg,
        /afterTimestampMs must be before/,
      );
      assert.match((await call('/api/event/getPolicyAlertsV2', { lastUuid: site.lobby })).json.errorMsg, /give both/);
    });

    it('refuses a malformed body with 400', async () => {
      assert.equal((await call('/api/event/getPolicyAlertsV2', { deviceFilter: 'x' })).status, 400);
    });

    it("never answers another organization's alerts", async () => {
      const r = await call('/api/event/getPolicyAlertsV2', { deviceFilter: [other.lobby] });
      assert.deepEqual(r.json.policyAlerts, []);
    });
  });

  describe('POST /api/event/getPolicyAlertDetails', () => {
    it("answers the alert, and another organization's as a missing one", async () => {
      const [alert] = await raiseAlerts(server, site.org.orgUuid, site.dock, [T0]);
      const r = await call('/api/event/getPolicyAlertDetails', { policyAlertUuid: alert.uuid });
      assert.equal(r.json.policyAlert.uuid, alert.uuid);
      assert.equal((await call('/api/event/getPolicyAlertDetails', { policyAlertUuid: alert.uuid }, '')).status, 401);
      const outsider = await server.createOrg('Outsider');
      const foreign = await call('/api/event/getPolicyAlertDetails', { policyAlertUuid: alert.uuid }, outsider.apiKey);
      assert.deepEqual({ error: foreign.json.error, errorMsg: foreign.json.errorMsg }, { error: true, errorMsg: 'Policy alert not found' });
      assert.equal((await call('/api/event/getPolicyAlertDetails', {})).status, 400);
    });
  });

  describe('POST /api/event/deletePolicyAlerts', () => {
    it('deletes the alerts and announces each deletion', async () => {
      const alerts = await raiseAlerts(server, site.org.orgUuid, site.dock, [T0 + 1, T0 + 2]);
      let r: any;
      const changes = await changesDuring(server, async () => {
        r = await call('/api/event/deletePolicyAlerts', { policyAlertUuids: alerts.map((a) => a.uuid) });
      });
      assert.equal(r.json.deletedCount, 2);
      const deletions = changes.filter((c) => c.entity === 'POLICY_ALERT' && c.type === 'DELETE');
      assert.deepEqual(deletions.map((c) => c.entityUuid).sort(), alerts.map((a) => a.uuid).sort());
      assert.ok(deletions.every((c) => (c.update as { deleted: boolean }).deleted === true));
      assert.equal((await call('/api/event/getPolicyAlertDetails', { policyAlertUuid: alerts[0].uuid })).json.errorMsg, 'Policy alert not found');
    });

    it("deletes nothing when one uuid is unknown or another organization's", async () => {
      const [mine] = await raiseAlerts(server, site.org.orgUuid, site.dock, [T0 + 3]);
      const outsider = await seedEventsSite(server, 'Delete Outsider');
      const [theirs] = await raiseAlerts(server, outsider.org.orgUuid, outsider.dock, [T0]);
      const r = await call('/api/event/deletePolicyAlerts', { policyAlertUuids: [mine.uuid, theirs.uuid] });
      assert.deepEqual({ error: r.json.error, errorMsg: r.json.errorMsg }, { error: true, errorMsg: `Policy alert ${theirs.uuid} not found` });
      assert.equal((await call('/api/event/getPolicyAlertDetails', { policyAlertUuid: mine.uuid })).json.policyAlert.uuid, mine.uuid);
    });

    it('requires authentication and refuses a malformed body with 400', async () => {
      assert.equal((await call('/api/event/deletePolicyAlerts', { policyAlertUuids: [site.lobby] }, '')).status, 401);
      assert.equal((await call('/api/event/deletePolicyAlerts', { policyAlertUuids: [] })).status, 400);
    });
  });
});

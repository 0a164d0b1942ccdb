import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { apiAs, assertOk, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { readResult } from '../../helpers/server.js';
import { raiseAlerts, seedEventsSite, type EventsSite } from '../events/fixtures.js';

/**
 * The platform parses bodies with Jackson, and its own clients rely on what that parser forgives (client-calls.md,
 * sections 1 and 4). Each rule of src/edge/lenient-body.ts, over real HTTP: what is read, and what is still a 400.
 */
const T0 = Date.UTC(2024, 5, 1, 9);

forEachDialect('the body leniency of the platform parser', (dialect) => {
  const server = useTestServer(dialect);
  let site: EventsSite;
  const api = apiAs(server, () => site.org.apiKey);
  before(async () => {
    site = await seedEventsSite(server());
  });

  /** A 400 whose message names the field. */
  async function refusedNaming(path: string, body: unknown, field: string) {
    const r = await api.call(path, body);
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.error, true);
    assert.match(r.json.errorMsg, new RegExp(field), r.text);
  }

  describe('booleans', () => {
    it('reads "true" and "false" as booleans (the CLI sends includeAnyMotion: "true")', async () => {
      for (const includeAnyMotion of ['true', 'false', 'TRUE']) {
        const r = await api.ok('/api/camera/getFootageSeekpointsV2', { cameraUuid: site.lobby, startTime: T0 / 1000, duration: 60, includeAnyMotion });
        assert.ok(Array.isArray(r.footageSeekPoints), JSON.stringify(r));
      }
    });
    it('still refuses what is not a boolean, naming the field', async () => {
      await refusedNaming(
        '/api/camera/getFootageSeekpointsV2',
        { cameraUuid: site.lobby, startTime: T0 / 1000, duration: 60, includeAnyMotion: 'yes' },
        'includeAnyMotion',
      );
      await refusedNaming(
        '/api/camera/getFootageSeekpointsV2',
        { cameraUuid: site.lobby, startTime: T0 / 1000, duration: 60, includeAnyMotion: {} },
        'includeAnyMotion',
      );
    });
  });

  describe('integers', () => {
    it('reads a float (truncated) and a numeric string as an integer', async () => {
      const [alert] = await raiseAlerts(server(), site.org.orgUuid, site.lobby, [T0 + 500]);
      // T0 + 500.9 truncates to T0 + 500: the alert is at the bound, which afterTimestampMs includes.
      const floats = await api.ok('/api/event/getPolicyAlertsV2', { afterTimestampMs: T0 + 500.9, beforeTimestampMs: `${T0 + 501}` });
      assert.deepEqual(
        floats.policyAlerts.map((a: any) => a.uuid),
        [alert!.uuid],
      );
      const strings = await api.ok('/api/event/getPolicyAlertsV2', { afterTimestampMs: `${T0 + 501}`, maxResults: '5.7' });
      assert.deepEqual(strings.policyAlerts, []);
    });
    it('reads the py examples float endTime of getUptimeWindows', async () => {
      const r = await api.ok('/api/camera/getUptimeWindows', { cameraUuid: site.lobby, startTime: T0, endTime: T0 + 3_600_000.5 });
      assert.ok(Array.isArray(r.uptimeWindows));
    });
    it('still refuses a non-numeric string, an object and a list where an integer is expected, naming the field', async () => {
      await refusedNaming('/api/event/getPolicyAlertsV2', { afterTimestampMs: 'yesterday' }, 'afterTimestampMs');
      await refusedNaming('/api/event/getPolicyAlertsV2', { afterTimestampMs: { ms: 1 } }, 'afterTimestampMs');
      await refusedNaming('/api/event/getPolicyAlertsV2', { maxResults: [5] }, 'maxResults');
      await refusedNaming('/api/event/getPolicyAlertsV2', { maxResults: '' }, 'maxResults');
    });
  });

  describe('unknown fields and empty bodies', () => {
    it('ignores fields the operation does not know', async () => {
      const r = await api.ok('/api/camera/getMinimalCameraStateList', { somethingNew: { nested: [1, 2] }, filterTypes: ['X'] });
      assert.ok(r.cameraStates.some((c: any) => c.uuid === site.lobby));
    });
    it('reads a POST with no body and no content type as {} (the py examples send such)', async () => {
      for (const path of ['/api/camera/getMinimalCameraStateList', '/api/user/getUsersInOrg', '/api/location/getLocations']) {
        const r = await readResult(await fetch(server().rest + path, { method: 'POST', headers: { 'x-auth-apikey': site.org.apiKey } }));
        assertOk(r);
      }
    });
    it('reads an empty JSON body as {}', async () => {
      const r = await readResult(
        await fetch(server().rest + '/api/camera/getMinimalCameraStateList', {
          method: 'POST',
          headers: { 'x-auth-apikey': site.org.apiKey, 'content-type': 'application/json' },
          body: '',
        }),
      );
      assertOk(r);
    });
  });

  describe('alternate field names the clients send', () => {
    it('dismissPolicyAlertV2 takes policyAlertUuid (the MCP) for alertUuid', async () => {
      const [alert] = await raiseAlerts(server(), site.org.orgUuid, site.dock, [T0 + 10_000]);
      await api.ok('/api/event/dismissPolicyAlertV2', { policyAlertUuid: alert!.uuid });
      const after = await api.ok('/api/event/getPolicyAlertsV2', { deviceFilter: [site.dock] });
      assert.ok(!after.policyAlerts.some((a: any) => a.uuid === alert!.uuid));
      await refusedNaming('/api/event/dismissPolicyAlertV2', {}, 'alertUuid');
    });
    it('getCameraAIThresholds takes deviceUuid (the MCP) for cameraUuid', async () => {
      const byCamera = await api.ok('/api/camera/getCameraAIThresholds', { cameraUuid: site.lobby });
      const byDevice = await api.ok('/api/camera/getCameraAIThresholds', { deviceUuid: site.lobby });
      assert.deepEqual(byDevice, byCamera);
    });
    it('the audit and diagnostic feeds take startTimeMs / endTimeMs (the MCP) for timestampMsAfter / timestampMsBefore', async () => {
      const before = Date.now();
      const made = await api.ok('/api/location/createLocation', { location: { name: 'Audit Probe' } });
      const all = await api.ok('/api/report/getAuditFeed', { startTimeMs: before - 1000, endTimeMs: Date.now() + 1000 });
      assert.ok(
        all.auditEvents.some((e: any) => e.targetUuid === made.uuid),
        JSON.stringify(all.auditEvents.slice(0, 3)),
      );
      const none = await api.ok('/api/report/getAuditFeed', { startTimeMs: Date.now() + 60_000 });
      assert.deepEqual(none.auditEvents, []);
      const diag = await api.ok('/api/report/getDiagnosticFeed', { startTimeMs: Date.now() + 60_000, endTimeMs: Date.now() + 120_000 });
      assert.deepEqual(diag.diagnosticEvents ?? [], []);
    });
    it('createLocation takes the flat name and address (the MCP) for location {name, address}', async () => {
      const r = await api.ok('/api/location/createLocation', { name: 'Flat Street', address1: '1 Flat Street' });
      const locations = await api.ok('/api/location/getLocations', {});
      const made = locations.locations.find((l: any) => l.uuid === r.uuid);
      assert.equal(made?.name, 'Flat Street');
      await refusedNaming('/api/location/createLocation', { address1: '' }, 'name');
    });
    it('updateDetailsBulkV2 takes the catalogue cameraBulkDetails, and the older updates', async () => {
      await api.ok('/api/camera/updateDetailsBulkV2', { cameraBulkDetails: [{ uuid: site.lobby, name: 'Lobby A', nameUpdated: true }] });
      await api.ok('/api/camera/updateDetailsBulkV2', { updates: [{ uuid: site.dock, name: 'Dock A', nameUpdated: true }] });
      const states = await api.ok('/api/camera/getMinimalCameraStateList', {});
      const names = Object.fromEntries(states.cameraStates.map((c: any) => [c.uuid, c.name]));
      assert.equal(names[site.lobby], 'Lobby A');
      assert.equal(names[site.dock], 'Dock A');
    });
    it('getRulesEventRecords takes ruleUuid (the MCP) for associatedUuids; getThresholdCrossingEvents deviceUuid for devices', async () => {
      await api.ok('/api/rulesRecords/getRulesEventRecords', { ruleUuid: site.lobby });
      const r = await api.ok('/api/report/getThresholdCrossingEvents', { deviceUuid: site.lobby, startTimeMs: T0, endTimeMs: T0 + 3_600_000 });
      assert.deepEqual(Object.keys(r.deviceToThresholdCrossingEventMap), [site.lobby]);
    });
    it('getMostRecentPeopleCountEvents takes a list of one deviceUuids (the MCP) for deviceUuid', async () => {
      await api.ok('/api/report/getMostRecentPeopleCountEvents', { deviceUuids: [site.lobby] });
    });
    it('the count reports take the deprecated startDate / endDate strings (the py examples) for startTimeMs / endTimeMs', async () => {
      const body = { scope: 'DEVICE', types: ['PEOPLE'], interval: 'HOURLY', uuid: site.lobby };
      const byMs = await api.ok('/api/report/getCountReportV2', { ...body, startTimeMs: T0, endTimeMs: T0 + 3 * 3_600_000 });
      const byDate = await api.ok('/api/report/getCountReportV2', { ...body, startDate: '2024-06-01T09:00:00Z', endDate: '2024-06-01T12:00:00Z' });
      assert.deepEqual(byDate, byMs);
      await refusedNaming('/api/report/getCountReportV2', { ...body, startDate: 'the first of June', endDate: '2024-06-01T12:00:00Z' }, 'startTimeMs');
    });
    it('an alert page takes lastTimestampMs alone as its older bound (the py examples)', async () => {
      await raiseAlerts(server(), site.org.orgUuid, site.lobby, [T0 + 20_000, T0 + 30_000]);
      const page = await api.ok('/api/event/getPolicyAlertsV2', { lastTimestampMs: T0 + 30_000 });
      assert.ok(page.policyAlerts.length > 0);
      assert.ok(page.policyAlerts.every((a: any) => a.timestampMs < T0 + 30_000));
      assert.match(await api.refused('/api/event/getPolicyAlertsV2', { lastUuid: site.lobby }), /give both/);
    });
  });
});

import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { changesDuring } from '../access/grants-fixtures.js';
import { control } from '../control/admin.js';

const SITE = `
locations: [{name: HQ, monitoringPin: "2468"}, {name: Annex}]
cameras: [{name: Lobby, location: HQ}, {name: Shed, location: Annex}]
`;

forEachDialect('alert monitoring threat cases, and orgStatus', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: Record<string, Record<string, string>>;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Monitored Org');
    other = await server.createOrg('Other Org');
    site = (await control(server, `/orgs/${org.orgUuid}/seed`, SITE, { contentType: 'application/yaml' })).json;
    const on = await server.call('/api/alertmonitoring/enableMonitoringForLocation', { locationUuid: site.locations!.HQ, pin: '2468' }, { key: org.apiKey });
    assert.equal(on.json.error, false, on.text);
  });
  after(() => server.close());

  const call = async (path: string, body: unknown, who = org) => (await server.call(path, body, { key: who.apiKey })).json;
  const motion = async (camera: string) => {
    const r = await control(server, '/simulate/alert', { device: camera, trigger: 'MOTION' });
    assert.equal(r.json.error, false, r.text);
    return r.json.policyAlert.uuid as string;
  };
  const cases = async (body: object = {}, who = org) => (await call('/api/event/getAlertMonitoringThreatCases', body, who)).threatCases as any[];

  it('answers the monitoring status of every location', async () => {
    const statuses = (await call('/api/alertmonitoring/orgStatus', {})).locationStatuses;
    assert.deepEqual(Object.keys(statuses).sort(), [site.locations!.HQ, site.locations!.Annex].sort());
    assert.equal(statuses[site.locations!.HQ!].enabled, true);
    assert.equal(statuses[site.locations!.Annex!].enabled, false);
    assert.deepEqual((await call('/api/alertmonitoring/orgStatus', {}, other)).locationStatuses, {});
  });

  it('opens a case for an alert at a monitored location, announced on the stream, and none elsewhere', async () => {
    let alertUuid = '';
    const changes = await changesDuring(server, async () => {
      alertUuid = await motion(site.cameras!.Lobby!);
      await motion(site.cameras!.Shed!);
    });
    const [threatCase, ...rest] = await cases();
    assert.deepEqual(rest, []);
    assert.deepEqual(
      [threatCase.status, threatCase.policyAlertUuid, threatCase.locationUuid, threatCase.locationName, threatCase.deviceUuid],
      ['INITIATED', alertUuid, site.locations!.HQ, 'HQ', site.cameras!.Lobby],
    );
    assert.deepEqual(
      threatCase.timelineEventList.map((e: any) => [e.type, e.alertUuid]),
      [['ALERT', alertUuid]],
    );
    assert.deepEqual(
      changes.filter((c) => c.entity === 'THREAT_CASE').map((c) => [c.entityUuid, c.type]),
      [[threatCase.uuid, 'CREATE']],
    );
    assert.deepEqual((await call('/api/event/getAlertMonitoringThreatCase', { uuid: threatCase.uuid })).threatCase, threatCase);
  });

  it("settles a case with the location's pin: cancel, dismiss, escalate; a settled case stays settled", async () => {
    const [open] = await cases();
    const wrong = await call('/api/alertmonitoring/cancelThreatCase', { uuid: open.uuid, pin: '0000' });
    assert.deepEqual([wrong.error, wrong.errorMsg], [true, "pin: does not match the location's monitoring pin"]);
    assert.equal((await call('/api/alertmonitoring/cancelThreatCase', { uuid: open.uuid, pin: '2468' })).success, true);
    const cancelled = (await call('/api/event/getAlertMonitoringThreatCase', { uuid: open.uuid })).threatCase;
    assert.equal(cancelled.status, 'CANCELLED');
    assert.deepEqual(
      cancelled.timelineEventList.map((e: any) => e.type),
      ['ALERT', 'USER'],
    );
    assert.match((await call('/api/alertmonitoring/dismissThreatCase', { uuid: open.uuid, pin: '2468' })).errorMsg, /is CANCELLED/);

    await motion(site.cameras!.Lobby!);
    const [second] = await cases({ statusFilter: ['INITIATED'] });
    assert.equal((await call('/api/alertmonitoring/escalateThreatCaseToAlarm', { uuid: second.uuid })).error, false);
    assert.match((await call('/api/alertmonitoring/escalateThreatCaseToAlarm', { uuid: second.uuid })).errorMsg, /is ESCALATED/);
    assert.equal((await call('/api/alertmonitoring/dismissThreatCase', { uuid: second.uuid, pin: '2468' })).success, true);
    assert.deepEqual(
      (await cases()).map((c) => c.status),
      ['DISMISSED', 'CANCELLED'],
    );
  });

  it('pages newest first without gaps or repeats, and filters by status, location and device', async () => {
    await motion(site.cameras!.Lobby!);
    const all = await cases();
    assert.equal(all.length, 3);
    const seen: string[] = [];
    let key: string | undefined;
    for (let page = 0; page < 5; page++) {
      const r = await call('/api/event/getAlertMonitoringThreatCases', { maxPageSize: 1, ...(key ? { lastEvaluatedKey: key } : {}) });
      seen.push(...r.threatCases.map((c: any) => c.uuid));
      key = r.lastEvaluatedKey ?? undefined;
      if (!key) break;
    }
    assert.deepEqual(
      seen,
      all.map((c) => c.uuid),
    );
    assert.deepEqual(
      (await cases({ statusFilter: ['CANCELLED', 'DISMISSED'] })).map((c) => c.status),
      ['DISMISSED', 'CANCELLED'],
    );
    assert.equal((await cases({ locationFilter: [site.locations!.Annex] })).length, 0);
    assert.equal((await cases({ deviceFilter: [site.cameras!.Lobby] })).length, 3);
    assert.match((await call('/api/event/getAlertMonitoringThreatCases', { lastEvaluatedKey: 'nonsense' })).errorMsg, /lastEvaluatedKey/);
  });

  it("answers another organization's cases as unknown ones, and changes nothing", async () => {
    const [one] = await cases();
    assert.deepEqual(await cases({}, other), []);
    for (const [path, body] of [
      ['/api/event/getAlertMonitoringThreatCase', { uuid: one.uuid }],
      ['/api/alertmonitoring/escalateThreatCaseToAlarm', { uuid: one.uuid }],
      ['/api/alertmonitoring/cancelThreatCase', { uuid: one.uuid, pin: '2468' }],
      ['/api/event/deleteAlertMonitoringThreatCase', { threatCaseUuids: [one.uuid] }],
    ] as const) {
      const r = await call(path, body, other);
      assert.equal(r.error, true, path);
      assert.match(r.errorMsg, /Threat case .* not found/, path);
    }
    assert.deepEqual((await cases())[0], one);
  });

  it('deletes cases by uuid (all or none) and by status', async () => {
    const [newest, ...older] = await cases();
    const refused = await call('/api/event/deleteAlertMonitoringThreatCase', { threatCaseUuids: [newest.uuid, 'AAAAAAAAAAAAAAAAAAAAAA'] });
    assert.equal(refused.error, true);
    assert.equal((await cases()).length, 3);
    assert.equal((await call('/api/event/deleteAlertMonitoringThreatCase', { threatCaseUuids: [newest.uuid] })).error, false);
    assert.deepEqual(
      (await cases()).map((c) => c.uuid),
      older.map((c) => c.uuid),
    );
    assert.equal((await call('/api/event/deleteAlertMonitoringThreatCaseByStatus', { status: 'DISMISSED' })).error, false);
    assert.deepEqual(
      (await cases()).map((c) => c.status),
      ['CANCELLED'],
    );
  });
});

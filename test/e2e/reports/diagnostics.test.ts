import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiAs } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { simulate } from '../events/fixtures.js';
import { csvRecords } from './csv-parse.js';

const SITE = {
  locations: [{ name: 'HQ', timeZone: 'Europe/Paris' }],
  cameras: [{ name: 'Gate', location: 'HQ' }],
  doorControllers: [{ name: 'Panel', location: 'HQ' }],
  sensors: [
    { name: 'Air', kind: 'climate', location: 'HQ' },
    { name: 'Back Door', kind: 'door', location: 'HQ' },
    { name: 'Forklift', kind: 'tag', location: 'HQ' },
  ],
};

interface Site {
  org: TestOrg;
  camera: string;
  panel: string;
  air: string;
  door: string;
  tag: string;
}

const T = (minute: number) => Date.parse('2024-06-01T12:00:00Z') + minute * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

forEachDialect('device diagnostics: getDiagnosticFeed and export/diagnostic', (dialect) => {
  let server: TestServer;
  let site: Site;
  let other: Site;

  const seed = async (name: string): Promise<Site> => {
    const org = await server.createOrg(name);
    const seeded = await control(server, `/orgs/${org.orgUuid}/seed`, SITE);
    assert.equal(seeded.status, 200, seeded.text);
    const s = seeded.json.sensors;
    return { org, camera: seeded.json.cameras.Gate, panel: seeded.json.doorControllers.Panel, air: s.Air, door: s['Back Door'], tag: s.Forklift };
  };

  before(async () => {
    server = await startTestServer(dialect);
    site = await seed('Diagnostics Org');
    other = await seed('Other Diagnostics Org');
    await simulate(server, 'connection', { device: site.camera, offline: true, at: T(1) });
    await simulate(server, 'connection', { device: site.camera, online: true, at: T(2) });
    await simulate(server, 'door-sensor', { sensor: site.door, state: 'OPEN', battery: 80, at: T(3) }); // not low
    await simulate(server, 'door-sensor', { sensor: site.door, state: 'CLOSED', battery: 12, at: T(4) });
    await simulate(server, 'climate', { sensor: site.air, temp: 20, battery: 15, at: T(5) });
    await simulate(server, 'tag', { tag: site.tag, status: 'ACTIVE', battery: 5, at: T(6) });
    await simulate(server, 'connection', { device: site.panel, offline: true, at: T(7) });
    await simulate(server, 'connection', { device: site.door, offline: true, at: T(90) }); // after the range
    await simulate(server, 'connection', { device: other.camera, offline: true, at: T(1) });
  });
  after(() => server.close());

  const { ok } = apiAs(
    () => server,
    () => site.org.apiKey,
  );
  const RANGE = { timestampMsAfter: T(0), timestampMsBefore: T(60) };
  const EXPECTED = () => [
    [iso(T(7)), site.panel, 'DOOR_CONTROLLER_DISCONNECTED'],
    [iso(T(6)), site.tag, 'PROXIMITY_LOW_BATTERY'],
    [iso(T(5)), site.air, 'CLIMATE_LOW_BATTERY'],
    [iso(T(4)), site.door, 'DOOR_LOW_BATTERY'],
    [iso(T(2)), site.camera, 'CAMERA_CONNECTED'],
    [iso(T(1)), site.camera, 'CAMERA_DISCONNECTED'],
  ];

  describe('POST /api/report/getDiagnosticFeed', () => {
    it('answers devices going offline and online and low batteries, newest first, in the range', async () => {
      const { diagnosticEvents } = await ok('/api/report/getDiagnosticFeed', RANGE);
      assert.deepEqual(
        diagnosticEvents.map((e: Record<string, string>) => [e.timestamp, e.deviceUuid, e.activity]),
        EXPECTED(),
      );
      const gate = diagnosticEvents.at(-1);
      assert.equal(gate.deviceName, 'Gate');
      assert.equal(gate.deviceType, 'CAMERA');
      assert.equal(gate.orgUuid, site.org.orgUuid);
      assert.equal(new Set(diagnosticEvents.map((e: { uuid: string }) => e.uuid)).size, diagnosticEvents.length);
      const all = await ok('/api/report/getDiagnosticFeed', {});
      assert.deepEqual(all.diagnosticEvents[0].activity, 'DOOR_OFFLINE');
    });

    it("answers only the organization's own devices, and refuses an inverted range", async () => {
      const theirs = await ok('/api/report/getDiagnosticFeed', RANGE, { key: other.org.apiKey });
      assert.deepEqual(
        theirs.diagnosticEvents.map((e: Record<string, string>) => [e.deviceUuid, e.activity]),
        [[other.camera, 'CAMERA_DISCONNECTED']],
      );
      const r = await server.call('/api/report/getDiagnosticFeed', { timestampMsAfter: T(60), timestampMsBefore: T(0) }, { key: site.org.apiKey });
      assert.equal(r.json.error, true);
      assert.match(r.json.errorMsg, /must not be after/);
    });
  });

  describe('POST /api/export/diagnostic', () => {
    it('answers the same events as CSV', async () => {
      const r = await server.call('/api/export/diagnostic', { startInterval: T(0), endInterval: T(60) }, { key: site.org.apiKey });
      assert.equal(r.status, 200, r.text);
      assert.match(r.headers.get('content-type') ?? '', /^text\/csv/);
      assert.deepEqual(
        csvRecords(r.text).map((e) => [e.timestamp, e.deviceUuid, e.activity]),
        EXPECTED(),
      );
      // The uptime example reads the first four columns by position: date, time with offset, device, event.
      assert.deepEqual(r.text.split('\r\n')[0]!.split(',').slice(0, 4), ['Date', 'Time', 'Device', 'Event']);
      assert.deepEqual(
        csvRecords(r.text).map((e) => [e.Date, e.Time, e.Device, e.Event]),
        csvRecords(r.text).map((e) => [e.timestamp!.slice(0, 10), `${e.timestamp!.slice(11, 19)}+00:00`, e.deviceName, e.activity]),
      );
    });
  });
});

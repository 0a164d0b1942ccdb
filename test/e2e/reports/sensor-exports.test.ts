import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiAs } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { simulate } from '../events/fixtures.js';
import { csvRecords, parseCsv } from './csv-parse.js';

const SITE = {
  locations: [{ name: 'HQ', timeZone: 'America/New_York' }],
  sensors: [
    { name: 'Air', kind: 'climate', location: 'HQ' },
    { name: 'E50', kind: 'environmentalGateway', location: 'HQ' },
    { name: 'Back Door', kind: 'door', location: 'HQ' },
    { name: 'Forklift', kind: 'tag', location: 'HQ' },
  ],
};

interface SensorSite {
  org: TestOrg;
  hq: string;
  air: string;
  gateway: string;
  door: string;
  tag: string;
}

const T = (minute: number) => Date.parse('2024-06-01T12:00:00Z') + minute * 60_000;

forEachDialect('CSV exports of sensor events', (dialect) => {
  let server: TestServer;
  let site: SensorSite;
  let other: SensorSite;

  const seed = async (name: string): Promise<SensorSite> => {
    const org = await server.createOrg(name);
    const seeded = await control(server, `/orgs/${org.orgUuid}/seed`, SITE);
    assert.equal(seeded.status, 200, seeded.text);
    const s = seeded.json.sensors;
    return { org, hq: seeded.json.locations.HQ, air: s.Air, gateway: s.E50, door: s['Back Door'], tag: s.Forklift };
  };

  before(async () => {
    server = await startTestServer(dialect);
    site = await seed('Sensor Export Org');
    other = await seed('Other Sensor Export Org');
    await simulate(server, 'door-sensor', { sensor: site.door, state: 'OPEN', at: T(1) });
    await simulate(server, 'door-sensor', { sensor: site.door, state: 'CLOSED', at: T(2), battery: 80 });
    await simulate(server, 'door-sensor', { sensor: site.door, state: 'OPEN', at: T(90) });
    await simulate(server, 'climate', { sensor: site.air, temp: 21.5, co2: 800, at: T(3) });
    await simulate(server, 'gateway', { device: site.gateway, tempC: 22, co2Ppm: 640, pm2p5: 4, at: T(4) });
    await simulate(server, 'tag', { tag: site.tag, status: 'ACTIVE', lat: 40.5, lon: -73.25, at: T(5) });
    await simulate(server, 'door-sensor', { sensor: other.door, state: 'AJAR', at: T(1) });
    // New York: Jun 1, 23:00 and Jun 2, 01:00 EDT.
    await simulate(server, 'tag', { tag: site.tag, status: 'STATIONARY', at: Date.parse('2024-06-02T03:00:00Z') });
    await simulate(server, 'tag', { tag: site.tag, status: 'ACTIVE', at: Date.parse('2024-06-02T05:00:00Z') });
    await simulate(server, 'tag', { tag: site.tag, movement: 'ARRIVAL', lat: 1.5, lon: 2.5, at: T(7) });
  });
  after(() => server.close());

  const csv = async (path: string, body: unknown, key = site.org.apiKey) => {
    const r = await server.call(path, body, { key });
    assert.equal(r.status, 200, r.text);
    assert.match(r.headers.get('content-type') ?? '', /^text\/csv/, r.text);
    return r.text;
  };
  const { refused } = apiAs(
    () => server,
    () => site.org.apiKey,
  );
  const HOUR = { createdAfterMs: T(0), createdBeforeMs: T(60) };

  describe('POST /api/export/doorEvents', () => {
    it("answers a door sensor's events in the range, newest first", async () => {
      const text = await csv('/api/export/doorEvents', { sensorUuid: site.door, ...HOUR });
      // The platform's columns first, as its door anomaly example reads them (Date + "T" + Time, State).
      assert.deepEqual(parseCsv(text)[0], ['Date', 'Time', 'State', 'stateChanged', 'batteryPercentage', 'timestampMs']);
      assert.deepEqual(
        csvRecords(text).map((r) => [r.Date, r.Time, r.State, r.batteryPercentage, r.timestampMs]),
        [
          ['2024-06-01', '12:02:00', 'CLOSED', '80', String(T(2))],
          ['2024-06-01', '12:01:00', 'OPEN', '', String(T(1))],
        ],
      );
      assert.equal(csvRecords(await csv('/api/export/doorEvents', { sensorUuid: site.door })).length, 3);
    });

    it("refuses another organization's sensor and an inverted range", async () => {
      assert.equal(await refused('/api/export/doorEvents', { sensorUuid: other.door }), 'Door sensor not found');
      assert.match(await refused('/api/export/doorEvents', { sensorUuid: site.door, createdAfterMs: T(60), createdBeforeMs: T(0) }), /must not be after/);
    });
  });

  describe('POST /api/export/climateEvents, environmentalGatewayEvents and proximityEvents', () => {
    it('answers the readings of each sensor', async () => {
      const climateCsv = await csv('/api/export/climateEvents', { sensorUuid: site.air, ...HOUR });
      // The climate anomaly example reads Date, Time, Temperature (°C), Humidity and drops Tampered.
      assert.deepEqual(parseCsv(climateCsv)[0]!.slice(0, 5), ['Date', 'Time', 'Temperature', 'Humidity', 'Tampered']);
      const [climate] = csvRecords(climateCsv);
      assert.deepEqual(
        [climate.Date, climate.Time, climate.Temperature, climate.Humidity, climate.Tampered, climate.co2, climate.timestampMs],
        ['2024-06-01', '12:03:00', '21.5', '', 'false', '800', String(T(3))],
      );
      const gateway = csvRecords(await csv('/api/export/environmentalGatewayEvents', { deviceUuid: site.gateway, ...HOUR }));
      assert.equal(gateway.length, 1);
      assert.deepEqual([gateway[0].tempC, gateway[0].co2Ppm, gateway[0].pm2p5, gateway[0].pressure], ['22', '640', '4', '']);
      const tag = csvRecords(await csv('/api/export/proximityEvents', { tagUuid: site.tag, createdAfterMs: T(0), createBeforeMs: T(60) }));
      // (the later tag events are outside the hour)
      assert.deepEqual(
        tag.map((r) => [r.timestampMs, r.status, r.lat, r.lon]),
        [[String(T(5)), 'ACTIVE', '40.5', '-73.25']],
      );
    });

    it("answers a tag's movements (export/proximityLocomotionEvents)", async () => {
      const moves = csvRecords(await csv('/api/export/proximityLocomotionEvents', { tagUuid: site.tag, ...HOUR }));
      assert.deepEqual(
        moves.map((r) => [r.timestampMs, r.movement, r.lat, r.lon]),
        [[String(T(7)), 'ARRIVAL', '1.5', '2.5']],
      );
      assert.equal(await refused('/api/export/proximityLocomotionEvents', { tagUuid: other.tag }), 'Proximity tag not found');
    });

    it("refuses another organization's sensors", async () => {
      assert.equal(await refused('/api/export/climateEvents', { sensorUuid: other.air }), 'Climate sensor not found');
      assert.equal(await refused('/api/export/environmentalGatewayEvents', { deviceUuid: other.gateway }), 'Environmental gateway not found');
      assert.equal(await refused('/api/export/proximityEvents', { tagUuid: other.tag }), 'Proximity tag not found');
    });
  });
  describe('POST /api/report/getProximityTagLocationsByDate', () => {
    it("answers each local day's location of the tag", async () => {
      const r = await server.call(
        '/api/report/getProximityTagLocationsByDate',
        { tagUuid: site.tag, startTimeMs: Date.parse('2024-06-01T00:00:00Z'), endTimeMs: Date.parse('2024-06-03T00:00:00Z') },
        { key: site.org.apiKey },
      );
      assert.equal(r.json.error, false, r.text);
      assert.deepEqual(r.json.dataPoints, [
        { dateLocal: '2024-06-01', tagUuid: site.tag, uuid: site.hq },
        { dateLocal: '2024-06-02', tagUuid: site.tag, uuid: site.hq },
      ]);
    });

    it("refuses another organization's tag and an inverted range", async () => {
      const range = { startTimeMs: Date.parse('2024-06-01T00:00:00Z'), endTimeMs: Date.parse('2024-06-03T00:00:00Z') };
      assert.equal(await refused('/api/report/getProximityTagLocationsByDate', { tagUuid: other.tag, ...range }), 'Proximity tag not found');
      assert.equal(
        await refused('/api/report/getProximityTagLocationsByDate', { tagUuid: site.tag, startTimeMs: range.endTimeMs, endTimeMs: range.startTimeMs }),
        'startTimeMs must not be after endTimeMs',
      );
    });
  });
});

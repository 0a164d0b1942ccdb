import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiAs } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { raiseAlerts, seedEventsSite, simulate, type EventsSite } from '../events/fixtures.js';
import { csvRecords, parseCsv } from './csv-parse.js';

const utc = (iso: string) => Date.parse(iso);
const facet = (uuid: string) => `${uuid}.v0`;

forEachDialect('CSV exports', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  let other: EventsSite;
  const crossing = (camera: string, at: string, inCount: number, outCount: number) =>
    simulate(server, 'crossing', { camera, in: String(inCount), out: String(outCount), object: 'HUMAN', at: String(utc(at)) });
  const plate = (camera: string, licence: string, at: string) => simulate(server, 'plate', { camera, plate: licence, at: String(utc(at)) });

  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server, 'Export Org');
    other = await seedEventsSite(server, 'Other Export Org');
    await crossing(site.lobby, '2024-03-10T04:30:00Z', 3, 1);
    await crossing(site.dock, '2024-03-10T05:00:00Z', 2, 0);
    await crossing(site.lobby, '2024-03-12T00:00:00Z', 9, 9); // after the range
    await crossing(other.lobby, '2024-03-10T04:45:00Z', 100, 0);
    await plate(site.lobby, 'ABC123', '2024-03-10T06:00:00Z');
    await plate(site.dock, 'XYZ789', '2024-03-10T07:00:00Z');
    await plate(other.lobby, 'ABC123', '2024-03-10T06:30:00Z');
    await raiseAlerts(server, site.org.orgUuid, site.lobby, [utc('2024-03-10T08:00:00Z'), utc('2024-03-10T09:00:00Z')]);
    await raiseAlerts(server, other.org.orgUuid, other.lobby, [utc('2024-03-10T08:00:00Z')]);
    await simulate(server, 'face', { camera: site.lobby, at: String(utc('2024-03-10T10:00:00Z')) });
    await simulate(server, 'face', { camera: site.dock, at: String(utc('2024-03-11T00:00:00Z')) }); // at the range's (exclusive) end
    await simulate(server, 'face', { camera: other.lobby, at: String(utc('2024-03-10T10:00:00Z')) });
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
  const MARCH = { startInterval: utc('2024-03-10T00:00:00Z'), endInterval: utc('2024-03-11T00:00:00Z') };

  describe('POST /api/export/peopleCountEvents', () => {
    it("answers the organization's people counts in the range, oldest first", async () => {
      const text = await csv('/api/export/peopleCountEvents', MARCH);
      assert.deepEqual(parseCsv(text)[0], ['timestampMs', 'dateUtc', 'deviceUuid', 'ingress', 'egress']);
      assert.deepEqual(csvRecords(text), [
        { timestampMs: String(utc('2024-03-10T04:30:00Z')), dateUtc: '2024-03-10T04:30:00.000Z', deviceUuid: facet(site.lobby), ingress: '3', egress: '1' },
        { timestampMs: String(utc('2024-03-10T05:00:00Z')), dateUtc: '2024-03-10T05:00:00.000Z', deviceUuid: facet(site.dock), ingress: '2', egress: '0' },
      ]);
      // No range: every crossing of the organization, never the other organization's.
      assert.deepEqual(
        csvRecords(await csv('/api/export/peopleCountEvents', {})).map((r) => r.ingress),
        ['3', '2', '9'],
      );
      assert.deepEqual(
        csvRecords(await csv('/api/export/peopleCountEvents', MARCH, other.org.apiKey)).map((r) => r.ingress),
        ['100'],
      );
    });

    it('refuses an inverted range', async () => {
      assert.equal(
        await refused('/api/export/peopleCountEvents', { startInterval: MARCH.endInterval, endInterval: MARCH.startInterval }),
        'the start of the range must not be after its end',
      );
    });
  });

  describe('POST /api/export/vehicleEventsV2 and vehicleEvents', () => {
    it('answers the plate reads newest first, with the saved name quoted when it holds a comma and quotes', async () => {
      const saved = await server.call('/api/vehicle/saveVehicle', { vehicleLicensePlate: 'ABC123', name: 'Van, "blue"' }, { key: site.org.apiKey });
      assert.equal(saved.json.error, false, saved.text);
      const text = await csv('/api/export/vehicleEventsV2', { startTimeMs: MARCH.startInterval, endTimeMs: MARCH.endInterval });
      assert.ok(text.includes('"Van, ""blue"""'), text);
      const rows = csvRecords(text);
      assert.deepEqual(
        rows.map((r) => [r.eventTimestamp, r.deviceUuid, r.vehicleLicensePlate, r.name]),
        [
          [String(utc('2024-03-10T07:00:00Z')), facet(site.dock), 'XYZ789', ''],
          [String(utc('2024-03-10T06:00:00Z')), facet(site.lobby), 'ABC123', 'Van, "blue"'],
        ],
      );
      const v1 = csvRecords(await csv('/api/export/vehicleEvents', { plateNumbers: ['abc-123'], interval: { startMs: MARCH.startInterval } }));
      assert.deepEqual(
        v1.map((r) => r.vehicleLicensePlate),
        ['ABC123'],
      );
      const fuzzy = csvRecords(await csv('/api/export/vehicleEvents', { plateNumbers: ['XYZ780'], fuzzy: true }));
      assert.deepEqual(
        fuzzy.map((r) => r.vehicleLicensePlate),
        ['XYZ789'],
      );
    });

    it("refuses another organization's camera", async () => {
      assert.equal(await refused('/api/export/vehicleEventsV2', { deviceUuidFilter: [other.lobby] }), `Device ${other.lobby} not found`);
    });
  });

  describe('POST /api/export/motionEvents', () => {
    it("answers a camera's motion alerts in the range, newest first", async () => {
      const rows = csvRecords(
        await csv('/api/export/motionEvents', { deviceUuid: site.lobby, createdAfterMs: MARCH.startInterval, createdBeforeMs: MARCH.endInterval }),
      );
      assert.deepEqual(
        rows.map((r) => [r.timestampMs, r.deviceUuid, r.triggers]),
        [
          [String(utc('2024-03-10T09:00:00Z')), site.lobby, 'MOTION'],
          [String(utc('2024-03-10T08:00:00Z')), site.lobby, 'MOTION'],
        ],
      );
      assert.deepEqual(csvRecords(await csv('/api/export/motionEvents', { deviceUuid: site.dock })), []);
    });

    it("refuses another organization's camera", async () => {
      assert.equal(await refused('/api/export/motionEvents', { deviceUuid: other.lobby }), `Device ${other.lobby} not found`);
    });
  });

  describe('POST /api/export/inventory and users', () => {
    it("answers the organization's devices and users", async () => {
      const devices = csvRecords(await csv('/api/export/inventory', {}));
      assert.deepEqual(devices.map((d) => d.uuid).sort(), [site.lobby, site.dock, site.air, site.button].sort());
      const lobby = devices.find((d) => d.uuid === site.lobby)!;
      assert.equal(lobby.name, 'Lobby');
      assert.equal(lobby.deviceType, 'CAMERA');
      const one = csvRecords(await csv('/api/export/inventory', { deviceUuids: [site.dock] }));
      assert.deepEqual(
        one.map((d) => d.name),
        ['Dock'],
      );
      const users = csvRecords(await csv('/api/export/users', {}));
      assert.deepEqual(
        users.map((u) => u.uuid),
        [site.org.userUuid],
      );
      assert.deepEqual(
        csvRecords(await csv('/api/export/users', { userUuids: [site.org.userUuid] })).map((u) => u.uuid),
        [site.org.userUuid],
      );
    });

    it("refuses another organization's device or user", async () => {
      assert.equal(await refused('/api/export/inventory', { deviceUuids: [other.lobby] }), `Device ${other.lobby} not found`);
      assert.equal(await refused('/api/export/users', { userUuids: [other.org.userUuid] }), `User ${other.org.userUuid} not found`);
    });
  });

  describe('POST /api/export/audit', () => {
    it("answers the organization's audit trail in the range, newest first", async () => {
      const from = Date.now() - 1;
      const reset = await server.call('/api/report/resetRunningAverage', { scope: 'ORG' }, { key: site.org.apiKey });
      assert.equal(reset.json.error, false, reset.text);
      const rows = csvRecords(await csv('/api/export/audit', { startInterval: from }));
      const resets = rows.filter((r) => r.operation === 'resetRunningAverage');
      assert.equal(resets.length, 1, JSON.stringify(rows));
      assert.equal(resets[0].targetUuid, site.org.orgUuid);
      // The catalogue has no name for it: the trail's is in displayText.
      assert.deepEqual([resets[0].action, resets[0].displayText.split(' ').slice(1, 3).join(' ')], ['UNKNOWN', 'UPDATE RUNNING_AVERAGE']);
      const theirs = csvRecords(await csv('/api/export/audit', { startInterval: from }, other.org.apiKey));
      assert.deepEqual(
        theirs.filter((r) => r.operation === 'resetRunningAverage'),
        [],
      );
      assert.match(await refused('/api/export/audit', { startInterval: 10, endInterval: 5 }), /must not be after/);
    });
  });
  describe('POST /api/export/peopleEvents', () => {
    it('answers the faces the cameras saw in the range, newest first', async () => {
      const rows = csvRecords(await csv('/api/export/peopleEvents', MARCH));
      assert.deepEqual(
        rows.map((r) => [r.eventTimestamp, r.deviceUuid, r.personUuid]),
        [[String(utc('2024-03-10T10:00:00Z')), facet(site.lobby), '']],
      );
      assert.equal(csvRecords(await csv('/api/export/peopleEvents', {})).length, 2);
      assert.match(await refused('/api/export/peopleEvents', { startInterval: MARCH.endInterval, endInterval: MARCH.startInterval }), /must not be after/);
    });
  });
});

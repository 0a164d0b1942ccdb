import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { seedEventsSite, simulate, type EventsSite } from './fixtures.js';

const ORG_REPORT = '/api/report/getThresholdCrossingCountReportForOrg';
const BATCH_REPORT = '/api/report/getBatchThresholdCrossingCountReport';
const OCCUPANCY = '/api/report/getOccupancyCountsV2';
const NY = 'America/New_York';
const utc = (iso: string) => Date.parse(iso);

forEachDialect('people-counting reports', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server);
    const crossing = (camera: string, at: string, inCount: number, outCount: number, object = 'HUMAN') =>
      simulate(server, 'crossing', { camera, in: String(inCount), out: String(outCount), object, at: String(utc(at)) });
    // Around the spring change in New York (2024-03-10, 02:00 EST -> 03:00 EDT).
    await crossing(site.lobby, '2024-03-09T15:00:00Z', 5, 1); // Mar 9, 10:00 EST
    await crossing(site.lobby, '2024-03-11T03:30:00Z', 2, 0); // Mar 10, 23:30 EDT
    await crossing(site.lobby, '2024-03-11T04:30:00Z', 1, 3); // Mar 11, 00:30 EDT (a fixed 24 h day would miss it)
    await crossing(site.dock, '2024-03-11T04:30:00Z', 4, 4);
    await crossing(site.dock, '2024-03-11T04:30:00Z', 4, 4); // the same report again: a duplicate
    await crossing(site.dock, '2024-03-10T12:00:00Z', 7, 0, 'VEHICLE');
    // Around the autumn change (2024-11-03, 02:00 EDT -> 01:00 EST): 01:30 happens twice.
    await crossing(site.lobby, '2024-11-03T05:30:00Z', 1, 0); // 01:30 EDT
    await crossing(site.lobby, '2024-11-03T06:30:00Z', 0, 1); // 01:30 EST
  });
  after(() => server.close());
  const call = (path: string, body: unknown, key = site.org.apiKey) => server.call(path, body, { key });

  describe(`POST ${ORG_REPORT}`, () => {
    it('requires authentication', async () => {
      assert.equal((await call(ORG_REPORT, { startTimeMs: 0, endTimeMs: 1 }, '')).status, 401);
    });

    it('cuts days at local midnight across the spring change: a 23-hour day, and every bucket present', async () => {
      const r = await call(ORG_REPORT, { startTimeMs: utc('2024-03-09T05:00:00Z'), endTimeMs: utc('2024-03-12T04:00:00Z'), bucketSize: 'DAY', timeZone: NY });
      assert.deepEqual(r.json.crossingCounts, [
        { timestampMs: utc('2024-03-09T05:00:00Z'), ingressCount: 5, egressCount: 1 },
        { timestampMs: utc('2024-03-10T05:00:00Z'), ingressCount: 2, egressCount: 0 },
        { timestampMs: utc('2024-03-11T04:00:00Z'), ingressCount: 9, egressCount: 11 },
      ]);
    });

    it("honours dedupe: a camera's repeated report of one timestamp counts once", async () => {
      const r = await call(ORG_REPORT, {
        startTimeMs: utc('2024-03-11T04:00:00Z'),
        endTimeMs: utc('2024-03-12T04:00:00Z'),
        bucketSize: 'DAY',
        timeZone: NY,
        dedupe: true,
      });
      assert.deepEqual(r.json.crossingCounts, [{ timestampMs: utc('2024-03-11T04:00:00Z'), ingressCount: 5, egressCount: 7 }]);
    });

    it('gives the repeated autumn hour two hour buckets, and a 25-hour day', async () => {
      const hours = await call(ORG_REPORT, {
        startTimeMs: utc('2024-11-03T04:00:00Z'),
        endTimeMs: utc('2024-11-03T08:00:00Z'),
        bucketSize: 'HOUR',
        timeZone: NY,
      });
      assert.deepEqual(hours.json.crossingCounts, [
        { timestampMs: utc('2024-11-03T04:00:00Z'), ingressCount: 0, egressCount: 0 },
        { timestampMs: utc('2024-11-03T05:00:00Z'), ingressCount: 1, egressCount: 0 },
        { timestampMs: utc('2024-11-03T06:00:00Z'), ingressCount: 0, egressCount: 1 },
        { timestampMs: utc('2024-11-03T07:00:00Z'), ingressCount: 0, egressCount: 0 },
      ]);
      const days = await call(ORG_REPORT, {
        startTimeMs: utc('2024-11-03T04:00:00Z'),
        endTimeMs: utc('2024-11-05T05:00:00Z'),
        bucketSize: 'DAY',
        timeZone: NY,
      });
      assert.deepEqual(
        days.json.crossingCounts.map((c: any) => c.timestampMs),
        [utc('2024-11-03T04:00:00Z'), utc('2024-11-04T05:00:00Z')],
      );
    });

    it('cuts weeks from Sunday and months from the first, at local midnight', async () => {
      const weeks = await call(ORG_REPORT, {
        startTimeMs: utc('2024-03-09T05:00:00Z'),
        endTimeMs: utc('2024-03-12T04:00:00Z'),
        bucketSize: 'WEEK',
        timeZone: NY,
      });
      assert.deepEqual(weeks.json.crossingCounts, [
        { timestampMs: utc('2024-03-03T05:00:00Z'), ingressCount: 5, egressCount: 1 },
        { timestampMs: utc('2024-03-10T05:00:00Z'), ingressCount: 11, egressCount: 11 },
      ]);
      const months = await call(ORG_REPORT, {
        startTimeMs: utc('2024-03-01T05:00:00Z'),
        endTimeMs: utc('2024-04-15T04:00:00Z'),
        bucketSize: 'MONTH',
        timeZone: NY,
      });
      assert.deepEqual(
        months.json.crossingCounts.map((c: any) => c.timestampMs),
        [utc('2024-03-01T05:00:00Z'), utc('2024-04-01T04:00:00Z')],
      );
    });

    it('counts only the requested object', async () => {
      const r = await call(ORG_REPORT, {
        startTimeMs: utc('2024-03-10T05:00:00Z'),
        endTimeMs: utc('2024-03-11T04:00:00Z'),
        bucketSize: 'DAY',
        timeZone: NY,
        crossingObject: 'VEHICLE',
      });
      assert.deepEqual(r.json.crossingCounts, [{ timestampMs: utc('2024-03-10T05:00:00Z'), ingressCount: 7, egressCount: 0 }]);
    });

    it("accepts the catalogue's objects that cameras here never count (LPR, POSE, ...) and answers empty buckets", async () => {
      for (const crossingObject of ['LPR', 'POSE', 'CLIP_EMBED', 'UNKNOWN']) {
        const r = await call(ORG_REPORT, {
          startTimeMs: utc('2024-03-10T05:00:00Z'),
          endTimeMs: utc('2024-03-11T04:00:00Z'),
          bucketSize: 'DAY',
          timeZone: NY,
          crossingObject,
        });
        assert.equal(r.status, 200, r.text);
        assert.deepEqual([r.json.error, r.json.crossingCounts], [false, [{ timestampMs: utc('2024-03-10T05:00:00Z'), ingressCount: 0, egressCount: 0 }]]);
      }
      assert.equal((await call(ORG_REPORT, { startTimeMs: 0, endTimeMs: 1, crossingObject: 'UFO' })).status, 400);
    });

    it('answers an empty range with no buckets and a range without crossings with zero buckets, not an error', async () => {
      const empty = await call(ORG_REPORT, { startTimeMs: utc('2024-01-01T00:00:00Z'), endTimeMs: utc('2024-01-01T00:00:00Z') });
      assert.deepEqual([empty.json.error, empty.json.crossingCounts], [false, []]);
      const quiet = await call(ORG_REPORT, { startTimeMs: utc('2024-01-01T00:00:00Z'), endTimeMs: utc('2024-01-01T01:00:00Z'), bucketSize: 'QUARTER_HOUR' });
      assert.deepEqual(
        quiet.json.crossingCounts.map((c: any) => [c.ingressCount, c.egressCount]),
        [
          [0, 0],
          [0, 0],
          [0, 0],
          [0, 0],
        ],
      );
    });

    it('refuses an unknown time zone, a reversed range, too many buckets, and a malformed body (400)', async () => {
      assert.match((await call(ORG_REPORT, { startTimeMs: 0, endTimeMs: 1, timeZone: 'Mars/Olympus' })).json.errorMsg, /not a known IANA time zone/);
      assert.match((await call(ORG_REPORT, { startTimeMs: 2, endTimeMs: 1 })).json.errorMsg, /must not be after/);
      assert.match(
        (await call(ORG_REPORT, { startTimeMs: 0, endTimeMs: utc('2024-01-01T00:00:00Z'), bucketSize: 'QUARTER_HOUR' })).json.errorMsg,
        /more than 10000 buckets/,
      );
      assert.equal((await call(ORG_REPORT, { startTimeMs: 0, endTimeMs: 1, bucketSize: 'FORTNIGHT' })).status, 400);
      assert.equal((await call(ORG_REPORT, { endTimeMs: 1 })).status, 400);
    });

    it("never counts another organization's crossings", async () => {
      const other = await server.createOrg('Quiet Org');
      const r = await call(
        ORG_REPORT,
        { startTimeMs: utc('2024-03-09T05:00:00Z'), endTimeMs: utc('2024-03-12T04:00:00Z'), bucketSize: 'DAY', timeZone: NY },
        other.apiKey,
      );
      assert.ok(r.json.crossingCounts.every((c: any) => c.ingressCount === 0 && c.egressCount === 0));
    });
  });

  describe(`POST ${BATCH_REPORT}`, () => {
    const range = { startTimeMs: utc('2024-03-11T04:00:00Z'), endTimeMs: utc('2024-03-12T04:00:00Z'), bucketSize: 'DAY', timeZone: NY };

    it('adds up the given cameras only, named by facet id or RUUID', async () => {
      const lobby = await call(BATCH_REPORT, { ...range, deviceUuids: [`${site.lobby}.v0`] });
      assert.deepEqual(lobby.json.crossingCounts, [{ timestampMs: range.startTimeMs, ingressCount: 1, egressCount: 3 }]);
      const both = await call(BATCH_REPORT, { ...range, deviceUuids: [`${site.lobby}.v0`, site.dock], dedupe: true });
      assert.deepEqual(both.json.crossingCounts, [{ timestampMs: range.startTimeMs, ingressCount: 5, egressCount: 7 }]);
    });

    it("answers another organization's camera as a missing one, and requires authentication", async () => {
      const other = await seedEventsSite(server, 'Batch Other');
      const r = await call(BATCH_REPORT, { ...range, deviceUuids: [other.lobby] });
      assert.deepEqual([r.json.error, r.json.errorMsg], [true, `Camera ${other.lobby} not found`]);
      assert.equal((await call(BATCH_REPORT, { ...range, deviceUuids: [site.lobby] }, '')).status, 401);
      assert.equal((await call(BATCH_REPORT, { ...range, deviceUuids: [] })).status, 400);
    });
  });

  describe(`POST ${OCCUPANCY}`, () => {
    it("reports the highest occupancy per interval in the camera's time zone, starting from zero at local midnight", async () => {
      const r = await call(OCCUPANCY, {
        deviceUuid: `${site.lobby}.v0`,
        startTimeMs: utc('2024-03-10T05:00:00Z'),
        endTimeMs: utc('2024-03-11T05:00:00Z'),
        interval: 'DAILY',
      });
      assert.equal(r.json.error, false, r.text);
      assert.deepEqual(
        r.json.timeSeriesDataPoints.map((p: any) => [p.timestampMs, p.dateLocal, p.eventCountMap.OCCUPANCY, p.eventCountMap.INGRESS, p.eventCountMap.EGRESS]),
        [
          [utc('2024-03-10T05:00:00Z'), '2024-03-10T00:00:00', 2, 2, 0],
          [utc('2024-03-11T04:00:00Z'), '2024-03-11T00:00:00', 0, 1, 3], // one report of 1 in and 3 out: never above 0
        ],
      );
      assert.equal(r.json.timeSeriesDataPoints[0].approximateTimestampMsMap.OCCUPANCY, utc('2024-03-11T03:30:00Z'));
      assert.deepEqual(r.json.timeSeriesDataPoints[0].reportingDevicesMap.OCCUPANCY, [`${site.lobby}.v0`]);
    });

    it('answers one data point for the whole range without an interval', async () => {
      const r = await call(OCCUPANCY, { deviceUuid: site.lobby, startTimeMs: utc('2024-03-09T05:00:00Z'), endTimeMs: utc('2024-03-12T05:00:00Z') });
      assert.equal(r.json.timeSeriesDataPoints.length, 1);
      assert.deepEqual(r.json.timeSeriesDataPoints[0].eventCountMap, { OCCUPANCY: 4, INGRESS: 8, EGRESS: 4 });
    });

    it("refuses another organization's camera and a malformed body", async () => {
      const outsider = await server.createOrg('Occupancy Outsider');
      assert.match((await call(OCCUPANCY, { deviceUuid: site.lobby, startTimeMs: 0, endTimeMs: 1 }, outsider.apiKey)).json.errorMsg, /^Camera .* not found$/);
      assert.equal((await call(OCCUPANCY, { deviceUuid: site.lobby, startTimeMs: 0, endTimeMs: 1, interval: 'YEARLY' })).status, 400);
      assert.equal((await call(OCCUPANCY, { deviceUuid: site.lobby, startTimeMs: 0, endTimeMs: 1 }, '')).status, 401);
    });
  });

  it('refuses a crossing of an unknown object or a device that is not a camera', async () => {
    assert.equal((await control(server, '/simulate/crossing', { camera: site.lobby, in: '1', out: '0', object: 'BICYCLE' })).status, 400);
    assert.equal((await control(server, '/simulate/crossing', { camera: site.air, in: '1', out: '0', object: 'HUMAN' })).json.errorMsg, 'Camera not found');
  });
});

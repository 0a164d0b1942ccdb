import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { apiAs } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { expectDenied, readOnlyKey } from '../../helpers/org-structure.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { changesDuring, seedEventsSite, simulate, type EventsSite } from '../events/fixtures.js';

const NY = 'America/New_York';
const utc = (iso: string) => Date.parse(iso);
const facet = (uuid: string) => `${uuid}.v0`;

forEachDialect('summary reports, running counts and running averages', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  let other: EventsSite;
  const crossing = (camera: string, at: number, inCount: number, outCount: number, object = 'HUMAN') =>
    simulate(server, 'crossing', { camera, in: String(inCount), out: String(outCount), object, at: String(at) });

  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server, 'Summary Org');
    other = await seedEventsSite(server, 'Other Summary Org');
    // 2024-03-10 is a 23-hour day in New York.
    await crossing(site.lobby, utc('2024-03-10T04:30:00Z'), 3, 1); // Mar 9, 23:30 EST
    await crossing(site.lobby, utc('2024-03-11T03:30:00Z'), 2, 0); // Mar 10, 23:30 EDT
    await crossing(site.dock, utc('2024-03-11T03:45:00Z'), 4, 4); // Mar 10, 23:45 EDT
    await crossing(site.lobby, utc('2024-03-11T04:30:00Z'), 1, 3); // Mar 11, 00:30 EDT
    await crossing(site.dock, utc('2024-03-10T12:00:00Z'), 7, 0, 'VEHICLE');
    await crossing(site.lobby, utc('2024-11-04T04:30:00Z'), 6, 2);
    await crossing(site.lobby, utc('2024-11-04T05:30:00Z'), 1, 0);
    await crossing(other.lobby, utc('2024-03-10T15:00:00Z'), 100, 90);
    // 2024-11-03 is a 25-hour day in New York.
    const plate = (camera: string, licence: string, at: string) => simulate(server, 'plate', { camera, plate: licence, at: String(utc(at)) });
    await plate(site.lobby, 'EARLY1', '2024-11-03T04:30:00Z'); // Nov 3, 00:30 EDT
    await plate(site.lobby, 'LATE2', '2024-11-04T04:30:00Z'); // Nov 3, 23:30 EST
    await plate(site.lobby, 'NEXT3', '2024-11-04T05:30:00Z'); // Nov 4, 00:30 EST
    await plate(site.dock, 'DOCK4', '2024-11-03T12:00:00Z');
    await plate(other.lobby, 'OTHER5', '2024-11-03T12:00:00Z');
  });
  after(() => server.close());

  const { call, ok, refused } = apiAs(
    () => server,
    () => site.org.apiKey,
  );
  const MARCH = { startTimeMs: utc('2024-03-09T05:00:00Z'), endTimeMs: utc('2024-03-12T04:00:00Z') };
  const DAYS = [
    { dateUtc: '2024-03-09T05:00:00.000Z', dateLocal: '2024-03-09T00:00:00' },
    { dateUtc: '2024-03-10T05:00:00.000Z', dateLocal: '2024-03-10T00:00:00' },
    { dateUtc: '2024-03-11T04:00:00.000Z', dateLocal: '2024-03-11T00:00:00' },
  ];
  const series = (counts: number[], reporting: string[][]) =>
    DAYS.map((day, i) => ({ ...day, eventCountMap: { PEOPLE: counts[i] }, reportingDevicesMap: { PEOPLE: reporting[i].map(facet).sort() } }));

  describe('POST /api/report/getCountReports', () => {
    it('answers one series per camera, location or organization, cut on local days across the spring change', async () => {
      const request = { ...MARCH, type: 'PEOPLE', interval: 'DAILY', timeZone: NY };
      const byDevice = (await ok('/api/report/getCountReports', { ...request, scope: 'DEVICE' })).timeSeriesDataPointsMap;
      assert.deepEqual(byDevice, {
        [facet(site.lobby)]: series([3, 2, 1], [[site.lobby], [site.lobby], [site.lobby]]),
        [facet(site.dock)]: series([0, 4, 0], [[], [site.dock], []]),
      });
      const hq = (await ok('/api/report/getCountReports', { ...request, scope: 'LOCATION' })).timeSeriesDataPointsMap;
      assert.deepEqual(Object.values(hq), [series([3, 6, 1], [[site.lobby], [site.lobby, site.dock], [site.lobby]])]);
      const org = (await ok('/api/report/getCountReports', { ...request, scope: 'ORG' })).timeSeriesDataPointsMap;
      assert.deepEqual(org, { [site.org.orgUuid]: series([3, 6, 1], [[site.lobby], [site.lobby, site.dock], [site.lobby]]) });
      // The other organization sees only its own camera's crossings.
      const theirs = (await ok('/api/report/getCountReports', { ...request, scope: 'ORG' }, { key: other.org.apiKey })).timeSeriesDataPointsMap;
      assert.deepEqual(
        theirs[other.org.orgUuid].map((p: { eventCountMap: { PEOPLE: number } }) => p.eventCountMap.PEOPLE),
        [0, 100, 0],
      );
    });

    it('refuses an inverted or missing range, an unknown time zone and an uncounted type', async () => {
      const request = { type: 'PEOPLE', interval: 'DAILY', scope: 'ORG' };
      assert.equal(
        await refused('/api/report/getCountReports', { ...request, startTimeMs: MARCH.endTimeMs, endTimeMs: MARCH.startTimeMs }),
        'startTimeMs must not be after endTimeMs',
      );
      assert.equal(await refused('/api/report/getCountReports', request), 'startTimeMs and endTimeMs are required');
      assert.match(await refused('/api/report/getCountReports', { ...request, ...MARCH, timeZone: 'Mars/Olympus' }), /not a known IANA time zone/);
      assert.match(await refused('/api/report/getCountReports', { ...request, ...MARCH, type: 'BANDWIDTH' }), /type BANDWIDTH/);
    });
  });

  describe('POST /api/report/getSummaryCountReport', () => {
    it('answers the lowest, highest and mean camera count per local day', async () => {
      const points = (await ok('/api/report/getSummaryCountReport', { ...MARCH, type: 'PEOPLE', interval: 'DAILY', timeZone: NY, scope: 'DEVICE' }))
        .timeSeriesDataPoints;
      const lobby = site.lobby;
      const dock = site.dock;
      assert.deepEqual(points, [
        {
          ...DAYS[0],
          avgEventCountMap: { PEOPLE: { count: 1.5, uuid: null } },
          maxEventCountMap: { PEOPLE: { count: 3, uuid: lobby } },
          minEventCountMap: { PEOPLE: { count: 0, uuid: dock } },
          reportingDevicesMap: { PEOPLE: [facet(lobby)] },
        },
        {
          ...DAYS[1],
          avgEventCountMap: { PEOPLE: { count: 3, uuid: null } },
          maxEventCountMap: { PEOPLE: { count: 4, uuid: dock } },
          minEventCountMap: { PEOPLE: { count: 2, uuid: lobby } },
          reportingDevicesMap: { PEOPLE: [facet(lobby), facet(dock)].sort() },
        },
        {
          ...DAYS[2],
          avgEventCountMap: { PEOPLE: { count: 0.5, uuid: null } },
          maxEventCountMap: { PEOPLE: { count: 1, uuid: lobby } },
          minEventCountMap: { PEOPLE: { count: 0, uuid: dock } },
          reportingDevicesMap: { PEOPLE: [facet(lobby)] },
        },
      ]);
    });
  });

  describe('POST /api/report/getCountReport', () => {
    it("reports one device over ISO dates in its location's time zone", async () => {
      const json = await ok('/api/report/getCountReport', {
        scope: 'DEVICE',
        uuid: site.lobby,
        type: 'PEOPLE',
        interval: 'DAILY',
        startDate: '2024-03-09T05:00:00Z',
        endDate: '2024-03-12T04:00:00Z',
      });
      assert.deepEqual(json.timeSeriesDataPoints, series([3, 2, 1], [[site.lobby], [site.lobby], [site.lobby]]));
    });

    it("refuses another organization's device, a bad date and an inverted range", async () => {
      const request = { scope: 'DEVICE', uuid: site.lobby, type: 'PEOPLE', interval: 'DAILY', startDate: '2024-03-09', endDate: '2024-03-12' };
      assert.equal(await refused('/api/report/getCountReport', { ...request, uuid: other.lobby }), `Device ${other.lobby} not found`);
      assert.match(await refused('/api/report/getCountReport', { ...request, startDate: 'last week' }), /startDate/);
      assert.equal(await refused('/api/report/getCountReport', { ...request, startDate: '2024-03-13' }), 'startTimeMs must not be after endTimeMs');
    });
  });

  describe('POST /api/report/getThresholdCrossingCounts', () => {
    it('answers the running count at each crossing, from zero at the daily reset', async () => {
      const range = { startTimeMs: utc('2024-03-10T00:00:00Z'), endTimeMs: utc('2024-03-12T00:00:00Z') };
      const lobby = await ok('/api/report/getThresholdCrossingCounts', { ...range, devices: [site.lobby] });
      assert.deepEqual(lobby.counts, [
        { timestampMs: utc('2024-03-10T04:30:00Z'), count: 2 },
        { timestampMs: utc('2024-03-11T03:30:00Z'), count: 2 },
        { timestampMs: utc('2024-03-11T04:30:00Z'), count: 0 },
      ]);
      // Every camera of the organization (not the other organization's), and the crossings since the reset
      // before the range set the count it starts with.
      const all = await ok('/api/report/getThresholdCrossingCounts', { startTimeMs: utc('2024-03-11T03:40:00Z'), endTimeMs: range.endTimeMs });
      assert.deepEqual(all.counts, [
        { timestampMs: utc('2024-03-11T03:45:00Z'), count: 2 },
        { timestampMs: utc('2024-03-11T04:30:00Z'), count: 0 },
      ]);
      const lateReset = await ok('/api/report/getThresholdCrossingCounts', { ...range, dailyResetTimeMinute: 4 * 60, devices: [site.lobby] });
      assert.deepEqual(
        lateReset.counts.map((c: { count: number }) => c.count),
        [2, 4, 0], // no reset at midnight: the second crossing adds to the first
      );
      const vehicles = await ok('/api/report/getThresholdCrossingCounts', { ...range, crossingObject: 'VEHICLE' });
      assert.deepEqual(vehicles.counts, [{ timestampMs: utc('2024-03-10T12:00:00Z'), count: 7 }]);
    });

    it("refuses another organization's camera and an inverted range", async () => {
      const range = { startTimeMs: utc('2024-03-10T00:00:00Z'), endTimeMs: utc('2024-03-12T00:00:00Z') };
      assert.equal(await refused('/api/report/getThresholdCrossingCounts', { ...range, devices: [other.lobby] }), `Camera ${other.lobby} not found`);
      assert.equal(
        await refused('/api/report/getThresholdCrossingCounts', { startTimeMs: range.endTimeMs, endTimeMs: range.startTimeMs }),
        'startTimeMs must not be after endTimeMs',
      );
    });
  });

  describe('POST /api/report/getMostRecentPeopleCountEvents', () => {
    it("answers a camera's latest people counts, newest first", async () => {
      const { events } = await ok('/api/report/getMostRecentPeopleCountEvents', { deviceUuid: facet(site.lobby), numMostRecent: 2 });
      assert.equal(events.length, 2);
      assert.deepEqual(
        events.map((e: Record<string, unknown>) => [e.eventTimestamp, e.peopleCount, e.deviceUuid, e.orgUuid]),
        [
          [utc('2024-11-04T05:30:00Z'), 1, facet(site.lobby), site.org.orgUuid],
          [utc('2024-11-04T04:30:00Z'), 8, facet(site.lobby), site.org.orgUuid],
        ],
      );
      assert.notEqual(events[0].uuid, events[1].uuid);
      const all = await ok('/api/report/getMostRecentPeopleCountEvents', { deviceUuid: site.lobby });
      assert.equal(all.events.length, 5);
    });

    it("refuses another organization's camera", async () => {
      assert.equal(await refused('/api/report/getMostRecentPeopleCountEvents', { deviceUuid: other.lobby }), `Camera ${other.lobby} not found`);
    });
  });

  describe('POST /api/report/getRunningAverage and resetRunningAverage', () => {
    it('averages the people counted per interval, and starts again from a reset announced on the stream', async () => {
      const march = await ok('/api/report/getRunningAverage', { ...MARCH, scope: 'DEVICE', uuid: site.lobby, interval: 'DAILY', timeZone: NY });
      assert.deepEqual(
        march.statsDataPoints.map((p: { date: string; stats: { PEOPLE: { avg: number; stddev: number } } }) => [
          p.date,
          p.stats.PEOPLE.avg,
          Math.round(p.stats.PEOPLE.stddev * 1000) / 1000,
        ]),
        [
          ['2024-03-09T00:00:00', 3, 0],
          ['2024-03-10T00:00:00', 2.5, 0.5],
          ['2024-03-11T00:00:00', 2, 0.816],
        ],
      );

      const now = Date.now();
      const range = { startTimeMs: now - 3 * 3_600_000, endTimeMs: now + 3 * 3_600_000, scope: 'DEVICE', uuid: site.dock, interval: 'HOURLY', timeZone: 'UTC' };
      await crossing(site.dock, now - 2 * 3_600_000, 5, 0);
      const before = await ok('/api/report/getRunningAverage', range);
      assert.equal(before.statsDataPoints.length, 7);
      assert.equal(before.statsDataPoints[1].stats.PEOPLE.avg, 5 / 2);

      const changes = await changesDuring(server, () => ok('/api/report/resetRunningAverage', { scope: 'DEVICE', uuid: site.dock }));
      const reset = changes.find((c) => c.entity === 'RUNNING_AVERAGE');
      assert.ok(reset, 'the reset is announced');
      assert.equal(reset.entityUuid, site.dock);
      const resetAtMs = (reset.update as { resetAtMs: number }).resetAtMs;
      assert.deepEqual(reset.update, { scope: 'DEVICE', uuid: site.dock, resetAtMs });
      assert.ok(resetAtMs >= now);

      await crossing(site.dock, resetAtMs, 2, 0);
      const afterReset = await ok('/api/report/getRunningAverage', range);
      const hourStart = new Date(Math.floor(resetAtMs / 3_600_000) * 3_600_000).toISOString().slice(0, 19);
      assert.equal(afterReset.statsDataPoints[0].date, hourStart);
      assert.deepEqual(afterReset.statsDataPoints[0].stats, { PEOPLE: { avg: 2, stddev: 0 } });
      assert.deepEqual(afterReset.statsDataPoints[1].stats, { PEOPLE: { avg: 1, stddev: 1 } });
      // The lobby's running average was not reset.
      const lobby = await ok('/api/report/getRunningAverage', { ...range, uuid: site.lobby });
      assert.equal(lobby.statsDataPoints.length, 7);
    });

    it('a read-only key reads the running average but may not reset it', async () => {
      const reader = await readOnlyKey(server, site.org);
      await ok('/api/report/getRunningAverage', { ...MARCH, scope: 'ORG', interval: 'DAILY' }, { key: reader });
      const changes = await changesDuring(server, async () => expectDenied(await call('/api/report/resetRunningAverage', { scope: 'ORG' }, { key: reader })));
      assert.deepEqual(
        changes.filter((c) => c.entity === 'RUNNING_AVERAGE'),
        [],
      );
    });

    it("refuses another organization's device and changes nothing", async () => {
      const changes = await changesDuring(server, async () => {
        assert.equal(await refused('/api/report/resetRunningAverage', { scope: 'DEVICE', uuid: other.lobby }), `Device ${other.lobby} not found`);
      });
      assert.deepEqual(
        changes.filter((c) => c.entity === 'RUNNING_AVERAGE'),
        [],
      );
      const theirs = await ok(
        '/api/report/getRunningAverage',
        { ...MARCH, scope: 'DEVICE', uuid: other.lobby, interval: 'DAILY', timeZone: NY },
        { key: other.org.apiKey },
      );
      assert.equal(theirs.statsDataPoints.length, 3);
      assert.equal(await refused('/api/report/resetRunningAverage', { scope: 'LOCATION' }), "uuid: scope LOCATION needs the location's uuid");
    });
  });
  describe('POST /api/report/getLicensePlatesByDevice', () => {
    it("answers a camera's plate reads in the local day that holds the instant, a 25-hour day in autumn", async () => {
      const json = await ok('/api/report/getLicensePlatesByDevice', {
        deviceUuid: facet(site.lobby),
        interval: 'DAILY',
        timestampMs: utc('2024-11-03T16:00:00Z'),
      });
      assert.deepEqual(
        json.licensePlateEvents.map((e: { vehicleLicensePlate: string; eventTimestamp: number; deviceUuid: string }) => [
          e.vehicleLicensePlate,
          e.eventTimestamp,
          e.deviceUuid,
        ]),
        [
          ['LATE2', utc('2024-11-04T04:30:00Z'), facet(site.lobby)],
          ['EARLY1', utc('2024-11-03T04:30:00Z'), facet(site.lobby)],
        ],
      );
      const hour = await ok('/api/report/getLicensePlatesByDevice', { deviceUuid: site.lobby, interval: 'HOURLY', timestampMs: utc('2024-11-04T05:59:00Z') });
      assert.deepEqual(
        hour.licensePlateEvents.map((e: { vehicleLicensePlate: string }) => e.vehicleLicensePlate),
        ['NEXT3'],
      );
    });

    it("refuses another organization's camera and a missing instant", async () => {
      assert.equal(
        await refused('/api/report/getLicensePlatesByDevice', { deviceUuid: other.lobby, interval: 'DAILY', timestampMs: utc('2024-11-03T16:00:00Z') }),
        `Camera ${other.lobby} not found`,
      );
      assert.equal(await refused('/api/report/getLicensePlatesByDevice', { deviceUuid: site.lobby, interval: 'DAILY' }), 'timestampMs is required');
    });
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findDevice } from '../../../src/domains/devices/service.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { apiAs } from '../../helpers/api.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { newRuuid } from '../../../src/ids.js';
import { assertSameAsMissing } from '../config/config-site.js';
import { changesDuring, raiseAlerts, seedEventsSite, simulate, type EventsSite } from './fixtures.js';

const NY = 'America/New_York';
const utc = (iso: string) => Date.parse(iso);
const facet = (uuid: string) => `${uuid}.v0`;

forEachDialect('count reports and crossing events', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  let other: EventsSite;
  const crossing = (s: EventsSite, camera: string, at: string, inCount: number, outCount: number, object = 'HUMAN') =>
    simulate(server, 'crossing', { camera, in: String(inCount), out: String(outCount), object, at: String(utc(at)) });

  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server, 'Counts Org');
    other = await seedEventsSite(server, 'Other Counts Org');
    // Spring change in New York: 2024-03-10 is a 23-hour day; autumn: 2024-11-03 is a 25-hour day.
    await crossing(site, site.lobby, '2024-03-10T04:30:00Z', 3, 1); // Mar 9, 23:30 EST
    await crossing(site, site.lobby, '2024-03-11T03:30:00Z', 2, 0); // Mar 10, 23:30 EDT
    await crossing(site, site.dock, '2024-03-11T03:45:00Z', 4, 4); // Mar 10, 23:45 EDT
    await crossing(site, site.lobby, '2024-03-11T04:30:00Z', 1, 3); // Mar 11, 00:30 EDT
    await crossing(site, site.dock, '2024-03-10T12:00:00Z', 7, 0, 'VEHICLE');
    await crossing(site, site.lobby, '2024-11-04T04:30:00Z', 6, 2); // Nov 3, 23:30 EST (25 hours after midnight)
    await crossing(site, site.lobby, '2024-11-04T05:30:00Z', 1, 0); // Nov 4, 00:30 EST
    await crossing(other, other.lobby, '2024-03-10T15:00:00Z', 100, 100);
    await raiseAlerts(server, site.org.orgUuid, site.lobby, [utc('2024-03-10T15:00:00Z'), utc('2024-03-10T16:00:00Z')]);
    await raiseAlerts(server, site.org.orgUuid, site.air, [utc('2024-03-11T03:00:00Z')]);
    await raiseAlerts(server, other.org.orgUuid, other.lobby, [utc('2024-03-10T15:00:00Z')]);
    // June: two crowd alerts and a motion alert, which CROWD does not count.
    await raiseAlerts(server, site.org.orgUuid, site.lobby, [utc('2024-06-01T15:00:00Z'), utc('2024-06-01T16:00:00Z')], ['PEOPLECOUNT_HIGH']);
    await raiseAlerts(server, site.org.orgUuid, site.lobby, [utc('2024-06-01T17:00:00Z')]);
  });
  after(() => server.close());

  const { call, ok, refused } = apiAs(
    () => server,
    () => site.org.apiKey,
  );
  const MARCH = { startTimeMs: utc('2024-03-09T05:00:00Z'), endTimeMs: utc('2024-03-12T04:00:00Z') };

  it('every operation requires authentication and refuses a malformed body', async () => {
    for (const path of [
      '/api/report/getOccupancyCounts',
      '/api/report/getThresholdCrossingCountReport',
      '/api/report/getThresholdCrossingEvents',
      '/api/report/getThresholdCrossingEventsForDevice',
      '/api/report/getCountReportV2',
      '/api/report/getCountReportsForDevicesAtLocation',
      '/api/export/countReports',
    ]) {
      assert.equal((await call(path, {}, { key: '' })).status, 401, path);
      const bad = await call(path, { startTimeMs: 'yesterday' });
      assert.equal(bad.status, 400, path);
      assert.equal(bad.json.error, true);
    }
  });

  describe('POST /api/report/getThresholdCrossingCountReport', () => {
    it("reports one camera per local day: a 23-hour day in spring, and no other camera's crossings", async () => {
      const json = await ok('/api/report/getThresholdCrossingCountReport', { deviceUuid: facet(site.lobby), ...MARCH, bucketSize: 'DAY', timeZone: NY });
      assert.deepEqual(json.crossingCounts, [
        { timestampMs: utc('2024-03-09T05:00:00Z'), ingressCount: 3, egressCount: 1 },
        { timestampMs: utc('2024-03-10T05:00:00Z'), ingressCount: 2, egressCount: 0 },
        { timestampMs: utc('2024-03-11T04:00:00Z'), ingressCount: 1, egressCount: 3 },
      ]);
    });

    it('counts only the crossings inside a range that starts inside a quarter hour', async () => {
      const json = await ok('/api/report/getThresholdCrossingCountReport', {
        deviceUuid: site.dock,
        startTimeMs: utc('2024-03-11T03:40:00Z'),
        endTimeMs: utc('2024-03-11T03:50:00Z'),
        bucketSize: 'HOUR',
        timeZone: NY,
      });
      assert.deepEqual(json.crossingCounts, [{ timestampMs: utc('2024-03-11T03:00:00Z'), ingressCount: 4, egressCount: 4 }]);
      const none = await ok('/api/report/getThresholdCrossingCountReport', {
        deviceUuid: site.dock,
        startTimeMs: utc('2024-03-11T03:46:00Z'),
        endTimeMs: utc('2024-03-11T03:50:00Z'),
        bucketSize: 'HOUR',
        timeZone: NY,
      });
      assert.deepEqual(none.crossingCounts, [{ timestampMs: utc('2024-03-11T03:00:00Z'), ingressCount: 0, egressCount: 0 }]);
    });

    it("answers another organization's camera as a missing one", async () => {
      assert.equal(await refused('/api/report/getThresholdCrossingCountReport', { deviceUuid: other.lobby, ...MARCH }), `Camera ${other.lobby} not found`);
    });
  });

  describe('POST /api/report/getOccupancyCounts', () => {
    it('answers what getOccupancyCountsV2 answers', async () => {
      const body = { deviceUuid: facet(site.lobby), ...MARCH, interval: 'DAILY' };
      const v1 = await ok('/api/report/getOccupancyCounts', body);
      const v2 = await ok('/api/report/getOccupancyCountsV2', body);
      assert.deepEqual(v1.timeSeriesDataPoints, v2.timeSeriesDataPoints);
      assert.equal(v1.timeSeriesDataPoints.length, 3);
    });
  });

  describe('threshold crossing events', () => {
    it('getThresholdCrossingEvents answers one event per object that crossed, by camera, oldest first', async () => {
      const json = await ok('/api/report/getThresholdCrossingEvents', { devices: [site.lobby, site.dock], ...MARCH });
      const map = json.deviceToThresholdCrossingEventMap;
      assert.deepEqual(Object.keys(map).sort(), [site.dock, site.lobby].sort());
      const summary = (events: Array<{ direction: string; timestampMs: number; crossingObject: string }>) =>
        events.map((e) => `${e.direction}@${new Date(e.timestampMs).toISOString()}`);
      assert.deepEqual(summary(map[site.lobby]), [
        'INGRESS@2024-03-10T04:30:00.000Z',
        'INGRESS@2024-03-10T04:30:00.000Z',
        'INGRESS@2024-03-10T04:30:00.000Z',
        'EGRESS@2024-03-10T04:30:00.000Z',
        'INGRESS@2024-03-11T03:30:00.000Z',
        'INGRESS@2024-03-11T03:30:00.000Z',
        'INGRESS@2024-03-11T04:30:00.000Z',
        'EGRESS@2024-03-11T04:30:00.000Z',
        'EGRESS@2024-03-11T04:30:00.000Z',
        'EGRESS@2024-03-11T04:30:00.000Z',
      ]);
      assert.equal(map[site.dock].length, 8, 'the VEHICLE crossing is not a HUMAN event');
      assert.ok(map[site.lobby].every((e: { crossingObject: string }) => e.crossingObject === 'HUMAN'));
      const vehicles = await ok('/api/report/getThresholdCrossingEvents', { devices: [site.dock], crossingObject: 'VEHICLE', ...MARCH });
      assert.equal(vehicles.deviceToThresholdCrossingEventMap[site.dock].length, 7);
    });

    it("getThresholdCrossingEvents answers another organization's camera as a missing one", async () => {
      assert.equal(
        await refused('/api/report/getThresholdCrossingEvents', { devices: [site.lobby, other.lobby], ...MARCH }),
        `Camera ${other.lobby} not found`,
      );
    });

    it("getThresholdCrossingEventsForDevice pages through a camera's events with no gaps or repeats, splitting crossings", async () => {
      const whole = (await ok('/api/report/getThresholdCrossingEventsForDevice', { deviceUuid: site.lobby, ...MARCH, maxPageSize: 1000 }))
        .thresholdCrossingEvents;
      assert.equal(whole.length, 10);
      for (const size of [1, 3, 4]) {
        const paged = [];
        let key: string | null = null;
        for (let page = 0; page < 50; page++) {
          const json: any = await ok('/api/report/getThresholdCrossingEventsForDevice', {
            deviceUuid: facet(site.lobby),
            ...MARCH,
            maxPageSize: size,
            ...(key ? { lastEvaluatedKey: key } : {}),
          });
          assert.ok(json.thresholdCrossingEvents.length <= size);
          paged.push(...json.thresholdCrossingEvents);
          key = json.lastEvaluatedKey ?? null;
          if (!key) break;
        }
        assert.deepEqual(paged, whole, `page size ${size}`);
      }
      assert.equal(
        await refused('/api/report/getThresholdCrossingEventsForDevice', { deviceUuid: site.lobby, ...MARCH, lastEvaluatedKey: 'x' }),
        'lastEvaluatedKey: not a key this operation answered',
      );
      assert.equal(await refused('/api/report/getThresholdCrossingEventsForDevice', { deviceUuid: other.lobby, ...MARCH }), `Camera ${other.lobby} not found`);
    });
  });

  describe('POST /api/report/getCountReportV2', () => {
    it('counts PEOPLE (crossings in) and ALERTS per local day of the location, with the devices that reported', async () => {
      const json = await ok('/api/report/getCountReportV2', {
        scope: 'LOCATION',
        uuid: await locationOf(site),
        types: ['PEOPLE', 'ALERTS'],
        interval: 'DAILY',
        ...MARCH,
      });
      assert.deepEqual(json.timeSeriesDataPoints, [
        {
          dateUtc: '2024-03-09T05:00:00.000Z',
          dateLocal: '2024-03-09T00:00:00',
          eventCountMap: { PEOPLE: 3, ALERTS: 0 },
          reportingDevicesMap: { PEOPLE: [facet(site.lobby)], ALERTS: [] },
        },
        {
          dateUtc: '2024-03-10T05:00:00.000Z',
          dateLocal: '2024-03-10T00:00:00',
          eventCountMap: { PEOPLE: 6, ALERTS: 3 },
          reportingDevicesMap: { PEOPLE: [facet(site.dock), facet(site.lobby)].sort(), ALERTS: [facet(site.air), facet(site.lobby)].sort() },
        },
        {
          dateUtc: '2024-03-11T04:00:00.000Z',
          dateLocal: '2024-03-11T00:00:00',
          eventCountMap: { PEOPLE: 1, ALERTS: 0 },
          reportingDevicesMap: { PEOPLE: [facet(site.lobby)], ALERTS: [] },
        },
      ]);
    });

    it('cuts a 25-hour day in autumn, in the time zone asked for', async () => {
      const json = await ok('/api/report/getCountReportV2', {
        scope: 'DEVICE',
        uuid: site.lobby,
        types: ['PEOPLE'],
        interval: 'DAILY',
        timeZone: NY,
        startTimeMs: utc('2024-11-03T04:00:00Z'),
        endTimeMs: utc('2024-11-05T05:00:00Z'),
      });
      assert.deepEqual(
        json.timeSeriesDataPoints.map((p: any) => [p.dateUtc, p.eventCountMap.PEOPLE]),
        [
          ['2024-11-03T04:00:00.000Z', 6],
          ['2024-11-04T05:00:00.000Z', 1],
        ],
      );
      const utcDays = await ok('/api/report/getCountReportV2', {
        scope: 'DEVICE',
        uuid: site.lobby,
        types: ['PEOPLE'],
        interval: 'DAILY',
        timeZone: 'UTC',
        startTimeMs: utc('2024-11-03T00:00:00Z'),
        endTimeMs: utc('2024-11-05T00:00:00Z'),
      });
      assert.deepEqual(
        utcDays.timeSeriesDataPoints.map((p: any) => p.eventCountMap.PEOPLE),
        [0, 7],
      );
    });

    it('counts the whole organization for ORG, and VEHICLES apart from PEOPLE', async () => {
      const json = await ok('/api/report/getCountReportV2', { scope: 'ORG', types: ['PEOPLE', 'VEHICLES'], interval: 'MONTHLY', timeZone: NY, ...MARCH });
      assert.deepEqual(
        json.timeSeriesDataPoints.map((p: any) => p.eventCountMap),
        [{ PEOPLE: 10, VEHICLES: 7 }],
      );
      // The catalogue has the range optional: absent, the day up to now (none of the site's crossings).
      const lastDay = (await ok('/api/report/getCountReportV2', { scope: 'ORG', types: ['PEOPLE'], interval: 'HOURLY' })).timeSeriesDataPoints;
      assert.ok(lastDay.length >= 24 && lastDay.length <= 25, `${lastDay.length} hours`);
      assert.equal(
        lastDay.reduce((n: number, p: any) => n + p.eventCountMap.PEOPLE, 0),
        0,
      );
    });

    it("refuses what Gatehouse does not count, and another organization's device or location", async () => {
      assert.match(
        await refused('/api/report/getCountReportV2', { scope: 'ORG', types: ['BANDWIDTH'], interval: 'DAILY', ...MARCH }),
        /type BANDWIDTH: Gatehouse counts PEOPLE, FACES, VEHICLES, ALERTS, CROWD/,
      );
      assert.equal(
        await refused('/api/report/getCountReportV2', { scope: 'DEVICE', uuid: other.lobby, types: ['PEOPLE'], interval: 'DAILY', ...MARCH }),
        `Device ${other.lobby} not found`,
      );
      assert.equal(
        await refused('/api/report/getCountReportV2', { scope: 'LOCATION', uuid: await locationOf(other), types: ['PEOPLE'], interval: 'DAILY', ...MARCH }),
        'Location not found',
      );
      assert.match(
        await refused('/api/report/getCountReportV2', { scope: 'DEVICE', types: ['PEOPLE'], interval: 'DAILY', ...MARCH }),
        /uuid: scope DEVICE needs/,
      );
    });
  });

  describe('POST /api/report/getCountReportsForDevicesAtLocation', () => {
    it('answers a series for every camera of the location (every device for ALERTS)', async () => {
      const location = await locationOf(site);
      const people = await ok('/api/report/getCountReportsForDevicesAtLocation', { locationUuid: location, type: 'PEOPLE', interval: 'DAILY', ...MARCH });
      const map = people.timeSeriesDataPointsMap;
      assert.deepEqual(Object.keys(map).sort(), [facet(site.dock), facet(site.lobby)].sort());
      assert.deepEqual(
        map[facet(site.lobby)].map((p: any) => p.eventCountMap.PEOPLE),
        [3, 2, 1],
      );
      assert.deepEqual(
        map[facet(site.dock)].map((p: any) => p.eventCountMap.PEOPLE),
        [0, 4, 0],
      );
      const alerts = await ok('/api/report/getCountReportsForDevicesAtLocation', { locationUuid: location, type: 'ALERTS', interval: 'DAILY', ...MARCH });
      assert.deepEqual(Object.keys(alerts.timeSeriesDataPointsMap).sort(), [site.lobby, site.dock, site.air, site.button].map(facet).sort());
      assert.deepEqual(
        alerts.timeSeriesDataPointsMap[facet(site.air)].map((p: any) => p.eventCountMap.ALERTS),
        [0, 1, 0],
      );
      assert.equal(
        await refused('/api/report/getCountReportsForDevicesAtLocation', {
          locationUuid: await locationOf(other),
          type: 'PEOPLE',
          interval: 'DAILY',
          ...MARCH,
        }),
        'Location not found',
      );
    });
  });

  describe('POST /api/export/countReports', () => {
    it('counts CROWD: the crowd alerts, not the others', async () => {
      const r = await call('/api/export/countReports', {
        scope: 'DEVICE',
        uuidList: [site.lobby],
        type: 'CROWD',
        interval: 'DAILY',
        timeZone: 'UTC',
        startTimeMs: utc('2024-06-01T00:00:00Z'),
        endTimeMs: utc('2024-06-02T00:00:00Z'),
      });
      assert.deepEqual(r.text.trimEnd().split('\r\n').slice(1), [`2024-06-01T00:00:00 UTC,2024-06-01T00:00:00,DEVICE,${site.lobby},CROWD,2`]);
    });

    it('answers CSV, one row per bucket and camera', async () => {
      const r = await call('/api/export/countReports', {
        scope: 'DEVICE',
        uuidList: [facet(site.lobby), site.dock],
        type: 'PEOPLE',
        interval: 'DAILY',
        timeZone: NY,
        ...MARCH,
      });
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /^text\/csv/);
      assert.deepEqual(r.text.trimEnd().split('\r\n'), [
        // Date as the platform's bandwidth example parses it (%Y-%m-%dT%H:%M:%S %Z), in UTC.
        'Date,dateLocal,scope,uuid,type,count',
        `2024-03-09T05:00:00 UTC,2024-03-09T00:00:00,DEVICE,${facet(site.lobby)},PEOPLE,3`,
        `2024-03-10T05:00:00 UTC,2024-03-10T00:00:00,DEVICE,${facet(site.lobby)},PEOPLE,2`,
        `2024-03-11T04:00:00 UTC,2024-03-11T00:00:00,DEVICE,${facet(site.lobby)},PEOPLE,1`,
        `2024-03-09T05:00:00 UTC,2024-03-09T00:00:00,DEVICE,${site.dock},PEOPLE,0`,
        `2024-03-10T05:00:00 UTC,2024-03-10T00:00:00,DEVICE,${site.dock},PEOPLE,4`,
        `2024-03-11T04:00:00 UTC,2024-03-11T00:00:00,DEVICE,${site.dock},PEOPLE,0`,
      ]);
    });

    it("answers a failure as the JSON envelope, and another organization's camera as a missing one", async () => {
      const r = await call('/api/export/countReports', { scope: 'DEVICE', uuidList: [other.lobby], type: 'PEOPLE', interval: 'DAILY', ...MARCH });
      assert.equal(r.status, 200);
      assert.deepEqual({ error: r.json.error, errorMsg: r.json.errorMsg }, { error: true, errorMsg: `Device ${other.lobby} not found` });
    });
  });

  describe('scope REGION: regions of interest of a camera, and the crossings seen inside them', () => {
    const JULY = { startTimeMs: utc('2024-07-01T00:00:00Z'), endTimeMs: utc('2024-07-03T00:00:00Z'), interval: 'DAILY', timeZone: 'UTC' };
    const square = [
      { x: 0.1, y: 0.1 },
      { x: 0.4, y: 0.1 },
      { x: 0.4, y: 0.4 },
      { x: 0.1, y: 0.4 },
    ];
    // The lower right triangle: its corner (0.5, 0.5) is where a crossing without a position is put.
    const triangle = [
      { x: 0.5, y: 0.5 },
      { x: 0.9, y: 0.5 },
      { x: 0.9, y: 0.9 },
    ];
    const BAY = 'BayBayBayBayBayBayBay0';
    let door: string;
    let till: string;
    const seen = (camera: string, at: string, inCount: number, position: { x?: number; y?: number }, object = 'HUMAN') =>
      simulate(server, 'crossing', { camera, in: String(inCount), out: '0', object, at: String(utc(at)), ...position });
    const groupsOf = async (camera: string) => (await ok('/api/camera/getConfig', { cameraUuid: camera })).config.region_of_interest_groups;

    before(async () => {
      const changes = await changesDuring(server, () =>
        ok('/api/camera/updateConfig', {
          config: {
            deviceUuid: site.lobby,
            region_of_interest_groups: [
              { regionsOfInterest: [{ name: 'Door', polygon: { coordinates: square } }] },
              { type: 'REPORTING', inclusive: false, regionsOfInterest: [{ name: 'Till', activities: ['MOTION_HUMAN'], polygon: { coordinates: triangle } }] },
            ],
          },
        }),
      );
      const groups = await groupsOf(site.lobby);
      [door, till] = [groups[0].regionsOfInterest[0].uuid, groups[1].regionsOfInterest[0].uuid];
      assert.deepEqual(
        changes.map((c) => [c.entity, c.entityUuid, (c.update as { region_of_interest_groups: unknown }).region_of_interest_groups]),
        [['CAMERA_USER_CONFIG', site.lobby, groups]],
      );
      // The dock's region, through the faceted view: the same square, over another camera's image.
      const faceted = await ok('/api/deviceconfig/updateFacetedConfig', {
        configUpdate: {
          deviceUuid: site.dock,
          videoFacetSettings: { v0: { region_of_interest_groups: [{ regionsOfInterest: [{ uuid: BAY, name: 'Bay', polygon: { coordinates: square } }] }] } },
        },
      });
      assert.equal(faceted.config.videoFacetSettings.v0.region_of_interest_groups[0].regionsOfInterest[0].uuid, BAY);
      await seen(site.lobby, '2024-07-01T10:00:00Z', 3, { x: 0.2, y: 0.2 }); // Door
      await seen(site.lobby, '2024-07-01T11:00:00Z', 3, { x: 0.4, y: 0.25 }); // Door, on its edge
      await seen(site.lobby, '2024-07-01T12:00:00Z', 4, { x: 0.8, y: 0.6 }); // Till
      await seen(site.lobby, '2024-07-01T13:00:00Z', 1, {}); // the centre: Till's corner
      await seen(site.lobby, '2024-07-01T14:00:00Z', 5, { x: 0.6, y: 0.8 }); // in neither
      await seen(site.dock, '2024-07-01T10:00:00Z', 7, { x: 0.2, y: 0.2 }); // Bay, not Door
      await seen(site.lobby, '2024-07-01T10:00:00Z', 6, { x: 0.2, y: 0.2 }, 'VEHICLE'); // Door's vehicles
      await seen(site.lobby, '2024-07-02T10:00:00Z', 1, { x: 0.15, y: 0.35 }); // Door, the next day
    });

    it('keeps the groups as given, with a uuid for each region and the defaults, in camera/getConfig and the faceted view', async () => {
      const groups = await groupsOf(site.lobby);
      assert.deepEqual(groups, [
        { inclusive: true, type: 'ACTIVITY', regionsOfInterest: [{ uuid: door, name: 'Door', activities: [], polygon: { coordinates: square } }] },
        {
          inclusive: false,
          type: 'REPORTING',
          regionsOfInterest: [{ uuid: till, name: 'Till', activities: ['MOTION_HUMAN'], polygon: { coordinates: triangle } }],
        },
      ]);
      assert.match(door, /^[A-Za-z0-9_-]{22}$/);
      const faceted = await ok('/api/deviceconfig/getFacetedConfig', { deviceUuid: site.lobby });
      assert.deepEqual(faceted.config.videoFacetSettings.v0.region_of_interest_groups, groups);
    });

    it('getCountReportV2 counts the crossings inside the region, edges included, per type; other scopes count them all', async () => {
      const json = await ok('/api/report/getCountReportV2', { scope: 'REGION', uuid: door, types: ['PEOPLE', 'VEHICLES'], ...JULY });
      assert.deepEqual(json.timeSeriesDataPoints, [
        {
          dateUtc: '2024-07-01T00:00:00.000Z',
          dateLocal: '2024-07-01T00:00:00',
          eventCountMap: { PEOPLE: 6, VEHICLES: 6 },
          reportingDevicesMap: { PEOPLE: [facet(site.lobby)], VEHICLES: [facet(site.lobby)] },
        },
        {
          dateUtc: '2024-07-02T00:00:00.000Z',
          dateLocal: '2024-07-02T00:00:00',
          eventCountMap: { PEOPLE: 1, VEHICLES: 0 },
          reportingDevicesMap: { PEOPLE: [facet(site.lobby)], VEHICLES: [] },
        },
      ]);
      const people = async (scope: string, uuid?: string, extra = {}) =>
        (await ok('/api/report/getCountReportV2', { scope, uuid, types: ['PEOPLE'], ...JULY, ...extra })).timeSeriesDataPoints.map(
          (p: any) => p.eventCountMap.PEOPLE,
        );
      assert.deepEqual(await people('REGION', till), [5, 0]);
      assert.deepEqual(await people('REGION', BAY), [7, 0]);
      assert.deepEqual(await people('DEVICE', site.lobby), [16, 1]);
      assert.deepEqual(await people('ORG'), [23, 1]);
      // Without a time zone, the days of the region's camera's location.
      const local = await ok('/api/report/getCountReportV2', { scope: 'REGION', uuid: door, types: ['PEOPLE'], ...JULY, timeZone: undefined });
      assert.equal(local.timeSeriesDataPoints[0].dateUtc, '2024-06-30T04:00:00.000Z');
    });

    it('getCountReports and getSummaryCountReport have one member per region, by region uuid; export/countReports a row per region', async () => {
      const request = { ...JULY, scope: 'REGION', type: 'PEOPLE' };
      const map = (await ok('/api/report/getCountReports', request)).timeSeriesDataPointsMap;
      assert.deepEqual(Object.fromEntries(Object.entries(map).map(([k, points]) => [k, (points as any[]).map((p) => p.eventCountMap.PEOPLE)])), {
        [door]: [6, 1],
        [till]: [5, 0],
        [BAY]: [7, 0],
      });
      const summary = (await ok('/api/report/getSummaryCountReport', request)).timeSeriesDataPoints;
      assert.deepEqual(
        summary.map((p: any) => [p.minEventCountMap.PEOPLE, p.maxEventCountMap.PEOPLE, p.avgEventCountMap.PEOPLE.count]),
        [
          [{ count: 5, uuid: till }, { count: 7, uuid: BAY }, 6],
          [{ count: 0, uuid: [till, BAY].sort()[0] }, { count: 1, uuid: door }, 1 / 3],
        ],
      );
      const v1 = await ok('/api/report/getCountReport', {
        scope: 'REGION',
        uuid: till,
        type: 'PEOPLE',
        interval: 'DAILY',
        startDate: '2024-07-01',
        endDate: '2024-07-03',
      });
      assert.deepEqual(
        v1.timeSeriesDataPoints.map((p: any) => p.eventCountMap.PEOPLE),
        [0, 5, 0],
        "V1 cuts the camera location's days",
      );
      const csv = await call('/api/export/countReports', { ...JULY, scope: 'REGION', type: 'PEOPLE', uuidList: [door, till] });
      assert.deepEqual(csv.text.trimEnd().split('\r\n').slice(1), [
        `2024-07-01T00:00:00 UTC,2024-07-01T00:00:00,REGION,${door},PEOPLE,6`,
        `2024-07-02T00:00:00 UTC,2024-07-02T00:00:00,REGION,${door},PEOPLE,1`,
        `2024-07-01T00:00:00 UTC,2024-07-01T00:00:00,REGION,${till},PEOPLE,5`,
        `2024-07-02T00:00:00 UTC,2024-07-02T00:00:00,REGION,${till},PEOPLE,0`,
      ]);
    });

    it("answers another organization's region as a missing one, and refuses alerts, which have no place", async () => {
      const request = { scope: 'REGION', types: ['PEOPLE'], ...JULY };
      const theirs = await call('/api/camera/updateConfig', {
        config: { deviceUuid: other.lobby, region_of_interest_groups: [{ regionsOfInterest: [{ polygon: { coordinates: square } }] }] },
      });
      assertSameAsMissing(
        theirs,
        await call('/api/camera/updateConfig', {
          config: { deviceUuid: newRuuid(), region_of_interest_groups: [{ regionsOfInterest: [{ polygon: { coordinates: square } }] }] },
        }),
      );
      const otherGroups = (await ok('/api/camera/getConfig', { cameraUuid: other.lobby }, { key: other.org.apiKey })).config.region_of_interest_groups;
      assert.deepEqual(otherGroups, [], 'left unchanged');
      // Their own region, counted for them and unknown to this organization.
      await ok(
        '/api/camera/updateConfig',
        { config: { deviceUuid: other.lobby, region_of_interest_groups: [{ regionsOfInterest: [{ name: 'Theirs', polygon: { coordinates: square } }] }] } },
        { key: other.org.apiKey },
      );
      const theirRegion = (await ok('/api/camera/getConfig', { cameraUuid: other.lobby }, { key: other.org.apiKey })).config.region_of_interest_groups[0]
        .regionsOfInterest[0].uuid;
      const nobody = newRuuid();
      assert.equal(await refused('/api/report/getCountReportV2', { ...request, uuid: theirRegion }), `Region ${theirRegion} not found`);
      assert.equal(await refused('/api/report/getCountReportV2', { ...request, uuid: nobody }), `Region ${nobody} not found`);
      assert.equal(await refused('/api/report/getCountReportV2', request), "uuid: scope REGION needs the region's uuid");
      assert.match(
        await refused('/api/report/getCountReportV2', { ...request, uuid: door, types: ['ALERTS'] }),
        /^type ALERTS: scope REGION counts PEOPLE, FACES and VEHICLES/,
      );
      assert.match(await refused('/api/report/getCountReports', { ...JULY, scope: 'REGION', type: 'CROWD' }), /^type CROWD: scope REGION/);
      assert.equal(
        await refused('/api/camera/updateConfig', {
          config: { deviceUuid: site.lobby, region_of_interest_groups: [{ regionsOfInterest: [{ uuid: BAY, polygon: { coordinates: square } }] }] },
        }),
        `region_of_interest_groups: region ${BAY} is a region of another camera`,
      );
    });

    it('refuses a malformed polygon with a 400 naming it, changing nothing', async () => {
      const before = await groupsOf(site.lobby);
      const region = (coordinates: unknown, extra = {}) => ({ regionsOfInterest: [{ name: 'Bad', polygon: { coordinates }, ...extra }] });
      for (const [groups, message] of [
        [
          [
            region([
              { x: 0.1, y: 0.1 },
              { x: 1.2, y: 0.1 },
              { x: 0.5, y: 0.5 },
            ]),
          ],
          /x/,
        ],
        [
          [
            region([
              { x: 0.1, y: 0.1 },
              { x: 0.5, y: 0.5 },
            ]),
          ],
          /coordinates/,
        ],
        [[region([{ x: 0.1, y: 0.1 }, { x: 0.5 }, { x: 0.5, y: 0.5 }])], /y/],
        [[{ regionsOfInterest: [] }], /regionsOfInterest/],
        [
          [
            region([
              { x: 0.1, y: 0.1 },
              { x: 0.5, y: 0.5 },
              { x: 0.5, y: 0.1 },
              { x: 0.1, y: 0.5 },
            ]),
          ],
          /^region_of_interest_groups\[0\]\.regionsOfInterest\[0\]\.polygon: edges 0 and 2 cross$/,
        ],
        [
          [
            region([
              { x: 0.1, y: 0.1 },
              { x: 0.2, y: 0.2 },
              { x: 0.3, y: 0.3 },
            ]),
          ],
          /polygon: edges 0 and 2 fold back over each other$/,
        ],
        [
          [
            region([
              { x: 0.1, y: 0.1 },
              { x: 0.1, y: 0.1 },
              { x: 0.3, y: 0.3 },
            ]),
          ],
          /polygon: corners 0 and 1 are the same point$/,
        ],
        [
          [region(square, { uuid: door }), region(triangle, { uuid: door })],
          new RegExp(`^region_of_interest_groups\\[1\\]\\.regionsOfInterest\\[0\\]\\.uuid: ${door} names two regions$`),
        ],
      ] as const) {
        const r = await call('/api/camera/updateConfig', { config: { deviceUuid: site.lobby, img_brightness: 10, region_of_interest_groups: groups } });
        assert.equal(r.status, 400, r.text);
        assert.equal(r.json.error, true);
        assert.match(r.json.errorMsg, message, r.text);
      }
      const after = (await ok('/api/camera/getConfig', { cameraUuid: site.lobby })).config;
      assert.deepEqual([after.region_of_interest_groups, after.img_brightness], [before, 50]);
    });
  });

  /** The uuid of a site's (only) location: its lobby camera's. */
  async function locationOf(s: EventsSite): Promise<string> {
    return (await findDevice(server.gatehouse.deps, s.org.orgUuid, s.lobby))!.locationUuid!;
  }
});

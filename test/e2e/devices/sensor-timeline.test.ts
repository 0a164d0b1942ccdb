import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, createSiteOrg, nobodysUuid, type SiteOrg } from '../config/config-site.js';
import { control } from '../control/admin.js';
import { assertFails, assertOk } from '../../helpers/api.js';

/** Sensors at HQ beside a camera, and one door sensor at the Annex (another location). */
const SITE = {
  locations: [{ name: 'HQ', timeZone: 'America/New_York' }, { name: 'Annex' }],
  cameras: [{ name: 'Lobby', location: 'HQ' }],
  sensors: [
    { name: 'Back Door', kind: 'door', location: 'HQ' },
    { name: 'Room 1', kind: 'occupancy', location: 'HQ' },
    { name: 'Air', kind: 'climate', location: 'HQ', thresholds: { tempC: 30 } },
    { name: 'Forklift', kind: 'tag', location: 'HQ' },
    { name: 'Panic', kind: 'button', location: 'HQ' },
    { name: 'Shed Door', kind: 'door', location: 'Annex' },
  ],
};

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const START = T0 / 1000;
const HOUR = 3600;
const s = (seconds: number) => T0 + seconds * 1000;

forEachDialect('sensor timeline: seekpoints and presence windows', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Sensor Timeline Org', SITE);
    other = await createSiteOrg(server, 'Other Org', SITE);
    const sensor = (name: string) => org.site.sensors[name];
    const simulate = async (event: string, flags: object) => assert.equal((await control(server, `/simulate/${event}`, flags)).json?.error, false, event);
    // Before the span: the back door opened (so it is open when the span begins), then the span's reports.
    await simulate('door-sensor', { sensor: sensor('Back Door'), state: 'OPEN', at: s(-30) });
    await simulate('door-sensor', { sensor: sensor('Back Door'), state: 'CLOSED', at: s(20) });
    await simulate('door-sensor', { sensor: sensor('Back Door'), state: 'CLOSED', at: s(40) }); // no change: no seekpoint
    await simulate('door-sensor', { sensor: sensor('Back Door'), state: 'AJAR', at: s(300) });
    await simulate('occupancy', { sensor: sensor('Room 1'), state: 'OCCUPIED', at: s(100) });
    await simulate('occupancy', { sensor: sensor('Room 1'), state: 'VACANT', at: s(160) });
    await simulate('climate', { sensor: sensor('Air'), temp: 22, at: s(5) }); // below the threshold: no seekpoint
    await simulate('climate', { sensor: sensor('Air'), temp: 31, humidity: 40, at: s(50) });
    await simulate('climate', { sensor: sensor('Air'), temp: 21, at: s(110) });
    await simulate('tag', { tag: sensor('Forklift'), movement: 'ARRIVAL', at: s(70) });
    await simulate('press', { button: sensor('Panic'), press: 'DOUBLE', at: s(80) });
    await simulate('door-sensor', { sensor: sensor('Shed Door'), state: 'OPEN', at: s(90) });
    // Outside the span (it ends at START + HOUR, exclusive).
    await simulate('door-sensor', { sensor: sensor('Back Door'), state: 'CLOSED', at: s(HOUR) });
    // The other organization's sensors report in the same span.
    await simulate('door-sensor', { sensor: other.site.sensors['Back Door'], state: 'OPEN', at: s(10) });
  });
  after(() => server.close());
  const call = (path: string, body: object, key = org.apiKey) => server.call(path, body, { key });
  const span = { startTimeSec: START, durationSec: HOUR };
  const points = (r: { json: { seekPoints: Array<{ ts: number; a: string; sn: string }> } }) => r.json.seekPoints.map((p) => [p.ts, p.a, p.sn]);

  const HQ_POINTS = [
    [s(20), 'DOOR_CLOSED', 'Back Door'],
    [s(50), 'TEMPERATURE_EXCEEDED_HIGH', 'Air'],
    [s(70), 'TAG_ARRIVED', 'Forklift'],
    [s(80), 'BUTTON_DOUBLE_PRESSED', 'Panic'],
    [s(100), 'PIR_OCCUPIED', 'Room 1'],
    [s(160), 'PIR_VACANT', 'Room 1'],
    [s(300), 'DOOR_AJAR', 'Back Door'],
  ];

  it("answers a sensor's seekpoints in the span, oldest first, in both shapes", async () => {
    const r = await call('/api/sensors/getFootageSensorSeekpointsForSensor', { sensorUuid: org.site.sensors['Back Door'], ...span });
    assertOk(r);
    assert.deepEqual(points(r), [
      [s(20), 'DOOR_CLOSED', 'Back Door'],
      [s(300), 'DOOR_AJAR', 'Back Door'],
    ]);
    assert.deepEqual(
      r.json.footageSeekPoints.map((p: { ts: number; a: string }) => [p.ts, p.a]),
      [
        [s(20), 'DOOR_CLOSED'],
        [s(300), 'DOOR_AJAR'],
      ],
    );
    const first = r.json.seekPoints[0];
    assert.equal(first.su, org.site.sensors['Back Door']);
    assert.equal(first.lu, org.site.locations.HQ);
    assert.equal(first.al, false);

    const air = await call('/api/sensors/getFootageSensorSeekpointsForSensor', { sensorUuid: org.site.sensors.Air, ...span });
    assertOk(air);
    assert.equal(air.json.seekPoints.length, 1, 'only the reading that raised an alert');
    const hot = air.json.seekPoints[0];
    assert.deepEqual([hot.a, hot.al, hot.tc, hot.t, hot.h], ['TEMPERATURE_EXCEEDED_HIGH', true, 31, 88, 40]);
  });

  it('answers the seekpoints of every sensor at a location, and at a camera (its location), in time order', async () => {
    const location = await call('/api/sensors/getFootageSensorSeekpointsForLocation', { locationUuid: org.site.locations.HQ, ...span });
    assertOk(location);
    assert.deepEqual(points(location), HQ_POINTS);
    const camera = await call('/api/sensors/getFootageSensorSeekpointsForCamera', { cameraUuid: `${org.site.cameras.Lobby}.v0`, ...span });
    assertOk(camera);
    assert.deepEqual(points(camera), HQ_POINTS);
    const annex = await call('/api/sensors/getFootageSensorSeekpointsForLocation', { locationUuid: org.site.locations.Annex, ...span });
    assert.deepEqual(points(annex), [[s(90), 'DOOR_OPENED', 'Shed Door']]);
  });

  it('keeps to the span: its start inclusive, its end exclusive', async () => {
    const from20 = await call('/api/sensors/getFootageSensorSeekpointsForLocation', {
      locationUuid: org.site.locations.HQ,
      startTimeSec: START + 20,
      durationSec: 60,
    });
    assert.deepEqual(points(from20), HQ_POINTS.slice(0, 3));
    const later = await call('/api/sensors/getFootageSensorSeekpointsForSensor', {
      sensorUuid: org.site.sensors['Back Door'],
      startTimeSec: START + HOUR,
      durationSec: 60,
    });
    assert.deepEqual(points(later), [[s(HOUR), 'DOOR_CLOSED', 'Back Door']]);
  });

  it('answers presence windows of the active states: open doors, occupied rooms, climate alerts', async () => {
    const door = await call('/api/door/getDoorPresenceWindows', { deviceUuid: org.site.sensors['Back Door'], ...span });
    assertOk(door);
    // Open before the span began, closed at 20 s; ajar from 300 s to the end of the span.
    assert.deepEqual(door.json.presenceWindows, [
      { startSeconds: START, durationSeconds: 20 },
      { startSeconds: START + 300, durationSeconds: HOUR - 300 },
    ]);
    const room = await call('/api/occupancy/getOccupancyPresenceWindows', { deviceUuid: org.site.sensors['Room 1'], ...span });
    assert.deepEqual(room.json.presenceWindows, [{ startSeconds: START + 100, durationSeconds: 60 }]);
    const air = await call('/api/climate/getClimatePresenceWindows', { deviceUuid: org.site.sensors.Air, ...span });
    assert.deepEqual(air.json.presenceWindows, [{ startSeconds: START + 50, durationSeconds: 60 }]);
    const quiet = await call('/api/door/getDoorPresenceWindows', { deviceUuid: org.site.sensors['Back Door'], startTimeSec: START + 30, durationSec: 200 });
    assert.deepEqual(quiet.json.presenceWindows, [], 'closed all along');
  });

  it("answers another organization's ids exactly as unknown ones", async () => {
    const cases: Array<[string, string, string]> = [
      ['/api/sensors/getFootageSensorSeekpointsForSensor', 'sensorUuid', other.site.sensors['Back Door']],
      ['/api/sensors/getFootageSensorSeekpointsForLocation', 'locationUuid', other.site.locations.HQ],
      ['/api/sensors/getFootageSensorSeekpointsForCamera', 'cameraUuid', other.site.cameras.Lobby],
      ['/api/door/getDoorPresenceWindows', 'deviceUuid', other.site.sensors['Back Door']],
      ['/api/occupancy/getOccupancyPresenceWindows', 'deviceUuid', other.site.sensors['Room 1']],
      ['/api/climate/getClimatePresenceWindows', 'deviceUuid', other.site.sensors.Air],
    ];
    for (const [path, field, foreign] of cases) {
      const theirs = await call(path, { [field]: foreign, ...span });
      assertSameAsMissing(theirs, await call(path, { [field]: nobodysUuid(), ...span }));
      assertOk(await call(path, { [field]: foreign, ...span }, other.apiKey));
    }
    // A device of the wrong kind is not one of these sensors either.
    assertFails(await call('/api/door/getDoorPresenceWindows', { deviceUuid: org.site.sensors['Room 1'], ...span }), 'Door sensor not found');
  });

  it('refuses a span without a start, or longer than a week, with a clear message', async () => {
    const sensor = { sensorUuid: org.site.sensors['Back Door'] };
    assertFails(await call('/api/sensors/getFootageSensorSeekpointsForSensor', { ...sensor, durationSec: 60 }), 'startTimeSec is required');
    assertFails(await call('/api/sensors/getFootageSensorSeekpointsForSensor', { startTimeSec: START, durationSec: 60 }), 'sensorUuid is required');
    const long = await call('/api/sensors/getFootageSensorSeekpointsForSensor', { ...sensor, startTimeSec: START, durationSec: 8 * 86_400 });
    assert.equal(long.status, 400, long.text);
    assert.equal(long.json.error, true);
  });
});

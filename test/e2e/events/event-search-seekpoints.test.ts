import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, createSiteOrg, nobodysUuid, type SiteOrg } from '../config/config-site.js';
import { control } from '../control/admin.js';
import { assertFails, assertOk } from '../../helpers/api.js';

const SITE = {
  locations: [{ name: 'HQ', timeZone: 'America/New_York' }],
  cameras: [{ name: 'Lobby', location: 'HQ' }],
  sensors: [{ name: 'Front Bell', kind: 'doorbell', location: 'HQ' }],
  doors: [{ name: 'Front Door', location: 'HQ', cameras: ['Lobby'] }],
};

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const START = T0 / 1000;
const s = (seconds: number) => T0 + seconds * 1000;

forEachDialect('/api/eventSearch: camera, doorbell and door seekpoints', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  const call = (path: string, body: object, key = org.apiKey) => server.call(path, body, { key });
  const simulate = async (event: string, flags: object) => assert.equal((await control(server, `/simulate/${event}`, flags)).json?.error, false, event);

  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Search Org', SITE);
    other = await createSiteOrg(server, 'Other Org', SITE);
    const lobby = org.site.cameras.Lobby;
    for (const at of [0, 5, 9, 30]) await simulate('alert', { device: lobby, trigger: 'MOTION_HUMAN', at: s(at) });
    await simulate('crossing', { camera: lobby, in: 1, out: 0, object: 'HUMAN', at: s(12) });
    await simulate('doorbell', { doorbell: org.site.sensors['Front Bell'], at: s(3) });
    await simulate('doorbell', { doorbell: org.site.sensors['Front Bell'], at: s(8) });
    await simulate('door', { door: org.site.doors['Front Door'], position: 'OPEN', at: s(20) });
    await simulate('alert', { device: other.site.cameras.Lobby, trigger: 'MOTION_HUMAN', at: s(1) });
  });
  after(() => server.close());

  const search = async (body: object) => {
    const r = await call('/api/eventSearch/getCameraOrDoorbellCameraSeekpoints', { startTimeSec: START, durationSecs: 60, ...body });
    assertOk(r);
    return r.json.combinedSeekpoints as Array<Record<string, any>>;
  };
  const runs = (points: Array<Record<string, any>>) => points.map((p) => [p.activity, p.seekpointStartTimeMs - T0, p.seekpointEndTimeMs - T0]);

  it("answers a camera's activities, combining runs of one activity closer than the interval", async () => {
    const lobby = org.site.cameras.Lobby;
    assert.deepEqual(runs(await search({ deviceUuid: lobby })), [
      ['MOTION_HUMAN', 0, 0],
      ['MOTION_HUMAN', 5000, 5000],
      ['MOTION_HUMAN', 9000, 9000],
      ['HUMAN_ENTER', 12000, 12000],
      ['MOTION_HUMAN', 30000, 30000],
    ]);
    const combined = await search({ deviceUuid: lobby, seekpointDurationIntervalSecs: 10 });
    assert.deepEqual(runs(combined), [
      ['MOTION_HUMAN', 0, 9000],
      ['HUMAN_ENTER', 12000, 12000],
      ['MOTION_HUMAN', 30000, 30000],
    ]);
    assert.equal(combined[0].cameraUuid, `${lobby}.v0`);
    assert.equal(combined[0].timestampMs, s(0));
    assert.equal(combined[0].originalEvent.deviceUuid, lobby, 'the alert behind it');
    assert.deepEqual(runs(await search({ deviceUuid: lobby, activitySet: ['HUMAN_ENTER'] })), [['HUMAN_ENTER', 12000, 12000]]);
  });

  it("answers a doorbell camera's presses as AC_DB_TRIGGERED", async () => {
    const bell = org.site.sensors['Front Bell'];
    const points = await search({ deviceUuid: bell, seekpointDurationIntervalSecs: 10 });
    assert.deepEqual(runs(points), [['AC_DB_TRIGGERED', 3000, 8000]]);
    assert.equal(points[0].cameraUuid, `${bell}.v0`);
  });

  it('gathers the seekpoints of cameras and doors in time order, narrowed to the activity set', async () => {
    const r = await call('/api/eventSearch/getEventSeekpoints', {
      startTimeSec: START,
      durationSec: 60,
      seekpointsWSRequest: { deviceUuid: org.site.cameras.Lobby },
      componentSeekPointsByAccessControlledDoorWSRequest: { accessControlledDoorUuid: org.site.doors['Front Door'] },
    });
    assertOk(r);
    assert.deepEqual(
      r.json.combinedSeekpoints.map((p: { activity: string; timestampMs: number }) => [p.timestampMs - T0, p.activity]),
      [
        [0, 'MOTION_HUMAN'],
        [5000, 'MOTION_HUMAN'],
        [9000, 'MOTION_HUMAN'],
        [12000, 'HUMAN_ENTER'],
        [20000, 'AC_DPI_DOOR_OPEN'],
        [30000, 'MOTION_HUMAN'],
      ],
    );
    const narrowed = await call('/api/eventSearch/getEventSeekpoints', {
      startTimeSec: START,
      durationSec: 60,
      activitySet: ['AC_DPI_DOOR_OPEN', 'HUMAN_ENTER'],
      videoFootageWSRequest: { cameraUuids: [org.site.cameras.Lobby], useMultiCamera: true },
      componentSeekPointsByAccessControlledDoorsWSRequest: { accessControlledDoorUuidList: [org.site.doors['Front Door']] },
    });
    assertOk(narrowed);
    assert.deepEqual(
      narrowed.json.combinedSeekpoints.map((p: { activity: string; timestampMs: number }) => [p.timestampMs - T0, p.activity]),
      [
        [12000, 'HUMAN_ENTER'],
        [20000, 'AC_DPI_DOOR_OPEN'],
      ],
    );
    assertFails(await call('/api/eventSearch/getEventSeekpoints', { startTimeSec: START, durationSec: 60 }), /give at least one sub-request/);
    assertFails(
      await call('/api/eventSearch/getEventSeekpoints', { startTimeSec: START, durationSec: 60, searchColorAndVehicleByColorWSRequest: { startTimeMs: T0 } }),
      'searchColorAndVehicleByColorWSRequest: Gatehouse records no clothing or vehicle colours',
    );
  });

  it("answers another organization's cameras, doorbells and doors exactly as unknown ones", async () => {
    const bodies: Array<[string, (ref: string) => object, string]> = [
      ['/api/eventSearch/getCameraOrDoorbellCameraSeekpoints', (ref) => ({ deviceUuid: ref, startTimeSec: START, durationSecs: 60 }), other.site.cameras.Lobby],
      [
        '/api/eventSearch/getCameraOrDoorbellCameraSeekpoints',
        (ref) => ({ deviceUuid: ref, startTimeSec: START, durationSecs: 60 }),
        other.site.sensors['Front Bell'],
      ],
      [
        '/api/eventSearch/getEventSeekpoints',
        (ref) => ({ startTimeSec: START, durationSec: 60, seekpointsWSRequest: { deviceUuid: ref } }),
        other.site.cameras.Lobby,
      ],
      [
        '/api/eventSearch/getEventSeekpoints',
        (ref) => ({ startTimeSec: START, durationSec: 60, componentSeekPointsByAccessControlledDoorWSRequest: { accessControlledDoorUuid: ref } }),
        other.site.doors['Front Door'],
      ],
    ];
    for (const [path, body, foreign] of bodies) {
      assertSameAsMissing(await call(path, body(foreign)), await call(path, body(nobodysUuid())));
      assertOk(await call(path, body(foreign), other.apiKey));
    }
    const theirs = await call(
      '/api/eventSearch/getCameraOrDoorbellCameraSeekpoints',
      { deviceUuid: other.site.cameras.Lobby, startTimeSec: START, durationSecs: 60 },
      other.apiKey,
    );
    assert.deepEqual(
      theirs.json.combinedSeekpoints.map((p: { timestampMs: number }) => p.timestampMs),
      [s(1)],
    );
  });
});

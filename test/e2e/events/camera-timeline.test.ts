import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, createSiteOrg, nobodysUuid, type SiteOrg } from '../config/config-site.js';
import { control } from '../control/admin.js';
import { changesDuring } from './fixtures.js';
import { assertFails, assertOk } from '../../helpers/api.js';

const SITE = {
  locations: [{ name: 'HQ', timeZone: 'America/New_York' }],
  people: [{ name: 'Grace Hopper' }],
  cameras: [
    { name: 'Lobby', location: 'HQ' },
    { name: 'Dock', location: 'HQ' },
  ],
  audioGateways: [{ name: 'PA', location: 'HQ' }],
};

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const START = T0 / 1000;
const HOUR = 3600;
const DAY_MS = 86_400_000;
const s = (seconds: number) => T0 + seconds * 1000;

forEachDialect('camera and audio gateway timeline: seekpoints, custom seekpoints, presence windows', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  let lobby: string;
  let dock: string;
  let pa: string;
  let unidentifiedFace: string;
  const call = (path: string, body: object, key = org.apiKey) => server.call(path, body, { key });
  const simulate = async (event: string, flags: object) => {
    const r = await control(server, `/simulate/${event}`, flags);
    assert.equal(r.json?.error, false, r.text);
    return r.json;
  };

  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Timeline Org', SITE);
    other = await createSiteOrg(server, 'Other Org', SITE);
    [lobby, dock, pa] = [org.site.cameras.Lobby, org.site.cameras.Dock, org.site.audioGateways.PA];
    assertOk(await call('/api/vehicle/saveVehicle', { vehicleLicensePlate: 'ABC123', name: 'Van' }));
    assertOk(await call('/api/vehicle/saveVehicle', { vehicleLicensePlate: 'TRU111', name: 'Trusted Truck', trust: true }));
    await simulate('alert', { device: lobby, trigger: 'MOTION_HUMAN', at: s(-1) }); // before the span
    await simulate('alert', { device: lobby, trigger: 'MOTION', at: s(0) });
    await simulate('alert', { device: lobby, trigger: 'MOTION_HUMAN', at: s(10), durationSec: 20 });
    await simulate('crossing', { camera: lobby, in: 2, out: 1, object: 'HUMAN', at: s(35) });
    await simulate('crossing', { camera: lobby, in: 1, out: 0, object: 'VEHICLE', at: s(40) });
    await simulate('face', { camera: lobby, person: 'Grace Hopper', at: s(50) });
    unidentifiedFace = (await simulate('face', { camera: lobby, at: s(60) })).faceEvent.uuid;
    await simulate('plate', { camera: lobby, plate: 'ABC123', at: s(70) });
    await simulate('plate', { camera: lobby, plate: 'TRU111', at: s(80) });
    await simulate('plate', { camera: lobby, plate: 'ZZZ999', at: s(90) });
    assertOk(
      await call('/api/camera/createCustomFootageSeekpoints', {
        cameraUuid: lobby,
        footageSeekPoints: [{ name: 'Delivery', timestampMs: s(95), color: 'TEAL', displayOverlay: true }],
      }),
    );
    await simulate('alert', { device: lobby, trigger: 'MOTION_HUMAN', at: s(300) });
    await simulate('alert', { device: lobby, trigger: 'MOTION_HUMAN', at: s(HOUR) }); // the span's end is exclusive
    await simulate('alert', { device: dock, trigger: 'MOTION_CAR', at: s(20) });
    await simulate('crossing', { camera: dock, in: 0, out: 2, object: 'VEHICLE', at: s(25) });
    await simulate('alert', { device: pa, trigger: 'AUDIO_SOUND_LOUD', at: s(15) });
    await simulate('alert', { device: pa, trigger: 'AUDIO_SOUND_GUN', at: s(100), durationSec: 5 });
    await simulate('alert', { device: other.site.cameras.Lobby, trigger: 'MOTION_HUMAN', at: s(10) });
  });
  after(() => server.close());

  /** Asserts that naming another organization's id answers as naming an unknown one (the message names the id). */
  const sameAsUnknown = async (path: string, body: (ref: string) => object, foreign: string, key = org.apiKey) => {
    const unknown = nobodysUuid();
    const theirs = await call(path, body(foreign), key);
    const missing = await call(path, body(unknown), key);
    assertSameAsMissing(
      { ...theirs, json: JSON.parse(theirs.text.replaceAll(foreign, '<id>')) },
      { ...missing, json: JSON.parse(missing.text.replaceAll(unknown, '<id>')) },
    );
  };
  const seekpoints = async (body: object, key = org.apiKey) => {
    const r = await call('/api/camera/getFootageSeekpointsV2', body, key);
    assertOk(r);
    return r.json.footageSeekPoints as Array<Record<string, unknown> & { ts: number; a: string }>;
  };
  const LOBBY_HOUR = [
    [s(10), 'MOTION_HUMAN'],
    [s(35), 'HUMAN_ENTER'],
    [s(35), 'HUMAN_EXIT'],
    [s(40), 'CAR_ENTER'],
    [s(50), 'FACE_IDENTIFIED'],
    [s(60), 'FACE_UNIDENTIFIED'],
    [s(70), 'LICENSEPLATE_IDENTIFIED'],
    [s(80), 'LICENSEPLATE_TRUSTED'],
    [s(90), 'LICENSEPLATE_UNIDENTIFIED'],
    [s(95), 'CUSTOM'],
    [s(300), 'MOTION_HUMAN'],
  ];

  it("answers a camera's activities in the span oldest first: alerts, crossings, faces, plates and custom marks", async () => {
    const points = await seekpoints({ cameraUuid: `${lobby}.v0`, startTime: START, duration: HOUR });
    assert.deepEqual(
      points.map((p) => [p.ts, p.a]),
      LOBBY_HOUR,
    );
    const at = (ts: number) => points.find((p) => p.ts === ts)!;
    assert.equal(at(s(10)).al, true);
    assert.equal(at(s(10)).m, true);
    assert.deepEqual(at(s(35)).ro, ['HUMAN']);
    assert.equal(at(s(50)).fn, 'Grace Hopper');
    assert.equal(at(s(60)).uf, unidentifiedFace);
    assert.deepEqual([at(s(70)).lp, at(s(70)).vn], ['ABC123', 'Van']);
    assert.deepEqual([at(s(95)).cdn, at(s(95)).cc, at(s(95)).dcao], ['Delivery', 'TEAL', true]);

    const withMotion = await seekpoints({ cameraUuid: lobby, startTime: START, duration: HOUR, includeAnyMotion: true });
    assert.deepEqual(
      withMotion.map((p) => [p.ts, p.a]),
      [[s(0), 'MOTION'], ...LOBBY_HOUR],
    );
  });

  it('keeps to the span: its start inclusive, its end exclusive', async () => {
    const points = await seekpoints({ cameraUuid: lobby, startTime: START + 10, duration: 25 });
    assert.deepEqual(
      points.map((p) => [p.ts, p.a]),
      [[s(10), 'MOTION_HUMAN']],
    );
    const last = await seekpoints({ cameraUuid: lobby, startTime: START + HOUR, duration: 1 });
    assert.deepEqual(
      last.map((p) => p.ts),
      [s(HOUR)],
    );
  });

  it("sums up several cameras' activities per camera, per minute and activity", async () => {
    const r = await call('/api/camera/getFootageSeekpointsForMultiple', { cameraUuids: [`${lobby}.v0`, dock], startTimeSec: START, durationSec: 60 });
    assertOk(r);
    const map = r.json.footageSeekPointMap;
    assert.deepEqual(Object.keys(map).sort(), [`${lobby}.v0`, dock].sort());
    assert.deepEqual(map[`${lobby}.v0`].activityCountMap, {
      [String(START)]: { MOTION_HUMAN: 1, HUMAN_ENTER: 1, HUMAN_EXIT: 1, CAR_ENTER: 1, FACE_IDENTIFIED: 1 },
    });
    assert.equal(map[`${lobby}.v0`].alert, true);
    assert.deepEqual(map[`${lobby}.v0`].faceNames, ['Grace Hopper']);
    assert.deepEqual(map[`${lobby}.v0`].recognizedObjects, ['HUMAN', 'VEHICLE']);
    assert.deepEqual(map[dock].activityCountMap, { [String(START)]: { MOTION_CAR: 1, CAR_EXIT: 1 } });
    const plates = await call('/api/camera/getFootageSeekpointsForMultiple', { cameraUuids: [lobby], startTimeSec: START + 60, durationSec: 60 });
    assert.deepEqual(plates.json.footageSeekPointMap[lobby].vehicleLicensePlates, ['ABC123', 'TRU111', 'ZZZ999']);
    assert.deepEqual(plates.json.footageSeekPointMap[lobby].vehicleNames, ['Van', 'Trusted Truck']);
    assert.deepEqual(plates.json.footageSeekPointMap[lobby].unidentifiedFaceIds, [unidentifiedFace]);
  });

  it('answers presence windows of a camera (alerts and crossings) and of an audio gateway (alerts)', async () => {
    const camera = await call('/api/camera/getPresenceWindows', { cameraUuid: lobby, startTimeSec: START, durationSec: HOUR });
    assertOk(camera);
    // Alerts at 0 s (an instant: 10 s) and 10 s (20 s long), crossings at 35 and 40 s: one window; the alert at 300 s: another.
    assert.deepEqual(camera.json.presenceWindows, {
      [`${lobby}.v0`]: [
        { startSeconds: START, durationSeconds: 50 },
        { startSeconds: START + 300, durationSeconds: 10 },
      ],
    });
    const audio = await call('/api/audiogateway/getPresenceWindows', { deviceUuid: pa, startTimeSec: START, durationSec: HOUR });
    assert.deepEqual(audio.json.presenceWindows, {
      [`${pa}.a0`]: [
        { startSeconds: START + 15, durationSeconds: 10 },
        { startSeconds: START + 100, durationSeconds: 10 },
      ],
    });
    const audioPoints = await call('/api/audiogateway/getAudioSeekpoints', { deviceUuid: pa, startTime: START, duration: HOUR });
    assertOk(audioPoints);
    assert.deepEqual(
      audioPoints.json.footageSeekPoints.map((p: { ts: number; a: string; al: boolean }) => [p.ts, p.a, p.al]),
      [
        [s(15), 'AUDIO_SOUND_LOUD', true],
        [s(100), 'AUDIO_SOUND_GUN', true],
      ],
    );
  });

  it('creates, lists and deletes custom seekpoints, each change on the stream; another organization changes nothing', async () => {
    const day = T0 + DAY_MS;
    const span = { startTime: day / 1000, duration: 60 };
    const theirs = other.site.cameras.Lobby;
    assertOk(
      await call(
        '/api/camera/createCustomFootageSeekpoints',
        { cameraUuid: theirs, footageSeekPoints: [{ name: 'Door check', timestampMs: day + 1000 }] },
        other.apiKey,
      ),
    );
    const created = await changesDuring(server, async () => {
      assertOk(
        await call('/api/camera/createCustomFootageSeekpoints', {
          cameraUuid: `${lobby}.v0`,
          footageSeekPoints: [
            { name: 'Shift', timestampMs: day + 5000 },
            { name: 'Door check', timestampMs: day + 1000, color: 'RED' },
          ],
        }),
      );
      assertOk(
        await call('/api/camera/createCustomFootageSeekpoints', { cameraUuid: dock, footageSeekPoints: [{ name: 'Door check', timestampMs: day + 2000 }] }),
      );
    });
    const marks = created.filter((c) => c.entity === 'CUSTOM_SEEKPOINT');
    assert.deepEqual(
      marks.map((c) => [c.type, c.deviceUuid, (c.update as { name: string }).name]),
      [
        ['CREATE', lobby, 'Shift'],
        ['CREATE', lobby, 'Door check'],
        ['CREATE', dock, 'Door check'],
      ],
    );
    assert.ok(marks.every((c) => c.orgUuid === org.orgUuid));

    const list = async (body: object, key = org.apiKey) => {
      const r = await call('/api/camera/getCustomFootageSeekpointsV2', { ...span, ...body }, key);
      assertOk(r);
      return r.json.customFootageSeekPoints.map((m: { timestampMs: number; customDisplayName: string; deviceUuid: string }) => [
        m.timestampMs,
        m.customDisplayName,
        m.deviceUuid,
      ]);
    };
    assert.deepEqual(await list({ deviceUuids: [lobby] }), [
      [day + 1000, 'Door check', `${lobby}.v0`],
      [day + 5000, 'Shift', `${lobby}.v0`],
    ]);
    assert.deepEqual(await list({ locationUuids: [org.site.locations.HQ], customDisplayName: 'Door check' }), [
      [day + 1000, 'Door check', `${lobby}.v0`],
      [day + 2000, 'Door check', `${dock}.v0`],
    ]);
    const full = await call('/api/camera/getCustomFootageSeekpointsV2', { ...span, deviceUuids: [lobby] });
    assert.deepEqual([full.json.customFootageSeekPoints[0].objectType, full.json.customFootageSeekPoints[0].locationUuid], ['CUSTOM', org.site.locations.HQ]);

    // Another organization cannot put marks on this camera, nor read them.
    const mark = [{ name: 'X', timestampMs: day }];
    await sameAsUnknown('/api/camera/createCustomFootageSeekpoints', (ref) => ({ cameraUuid: ref, footageSeekPoints: mark }), lobby, other.apiKey);
    await sameAsUnknown('/api/camera/getCustomFootageSeekpointsV2', (ref) => ({ ...span, deviceUuids: [ref] }), lobby, other.apiKey);
    assert.equal((await list({ deviceUuids: [lobby] })).length, 2);

    const nobody = nobodysUuid();
    const deleted = await changesDuring(server, async () => {
      const r = await call('/api/camera/deleteCustomFootageSeekpoints', {
        cameraUuids: [lobby, theirs, nobody],
        customName: 'Door check',
        startTimestampMs: day,
        endTimestampMs: day + 60_000,
      });
      assertOk(r);
      assert.deepEqual(r.json.deleteSeekpointResponseMap, {
        [lobby]: { err: false, errMsg: null },
        [theirs]: { err: true, errMsg: 'Camera not found' },
        [nobody]: { err: true, errMsg: 'Camera not found' },
      });
    });
    assert.deepEqual(
      deleted.filter((c) => c.entity === 'CUSTOM_SEEKPOINT').map((c) => [c.type, (c.update as { timestampMs: number }).timestampMs]),
      [['DELETE', day + 1000]],
    );
    assert.deepEqual(await list({ deviceUuids: [lobby] }), [[day + 5000, 'Shift', `${lobby}.v0`]]);
    assert.deepEqual(await list({ deviceUuids: [dock] }), [[day + 2000, 'Door check', `${dock}.v0`]], 'only the cameras named');
    assert.deepEqual(await list({ deviceUuids: [theirs] }, other.apiKey), [[day + 1000, 'Door check', `${theirs}.v0`]], "the other organization's mark stays");
    assertFails(
      await call('/api/camera/deleteCustomFootageSeekpoints', { cameraUuids: [lobby], startTimestampMs: day, endTimestampMs: day + DAY_MS + 1 }),
      'endTimestampMs: from startTimestampMs to a day after it',
    );
  });

  it("answers another organization's cameras and audio gateways exactly as unknown ones", async () => {
    const span = { startTimeSec: START, durationSec: HOUR };
    const cases: Array<[string, (ref: string) => object, string]> = [
      ['/api/camera/getFootageSeekpointsV2', (ref) => ({ cameraUuid: ref, startTime: START, duration: HOUR }), other.site.cameras.Lobby],
      ['/api/camera/getFootageSeekpointsForMultiple', (ref) => ({ cameraUuids: [ref], ...span }), other.site.cameras.Lobby],
      ['/api/camera/getPresenceWindows', (ref) => ({ cameraUuid: ref, ...span }), other.site.cameras.Lobby],
      ['/api/audiogateway/getAudioSeekpoints', (ref) => ({ deviceUuid: ref, startTime: START, duration: HOUR }), other.site.audioGateways.PA],
      ['/api/audiogateway/getPresenceWindows', (ref) => ({ deviceUuid: ref, ...span }), other.site.audioGateways.PA],
    ];
    for (const [path, body, foreign] of cases) {
      await sameAsUnknown(path, body, foreign);
      assertOk(await call(path, body(foreign), other.apiKey));
    }
    const theirs = await seekpoints({ cameraUuid: other.site.cameras.Lobby, startTime: START, duration: HOUR }, other.apiKey);
    assert.deepEqual(
      theirs.map((p) => [p.ts, p.a]),
      [[s(10), 'MOTION_HUMAN']],
    );
  });

  it('refuses a span that holds more seekpoints than one answer carries, and missing fields, with a clear message', async () => {
    const day = T0 + 2 * DAY_MS;
    for (let batch = 0; batch < 11; batch++) {
      const footageSeekPoints = Array.from({ length: 1000 }, (_, i) => ({ name: 'Tick', timestampMs: day + batch * 1000 + i }));
      assertOk(await call('/api/camera/createCustomFootageSeekpoints', { cameraUuid: dock, footageSeekPoints }));
    }
    assertFails(
      await call('/api/camera/getFootageSeekpointsV2', { cameraUuid: dock, startTime: day / 1000, duration: 60 }),
      'the span holds more than 10000 seekpoints: narrow it',
    );
    const narrowed = await seekpoints({ cameraUuid: dock, startTime: day / 1000, duration: 5 });
    assert.equal(narrowed.length, 5000);
    assert.ok(narrowed.every((p, i) => i === 0 || p.ts >= narrowed[i - 1].ts));
    assertFails(await call('/api/camera/getFootageSeekpointsV2', { cameraUuid: dock, duration: 60 }), 'startTime is required');
    assertFails(await call('/api/camera/getFootageSeekpointsV2', { startTime: START, duration: 60 }), 'cameraUuid is required');
    const empty = await call('/api/camera/createCustomFootageSeekpoints', { cameraUuid: dock, footageSeekPoints: [] });
    assert.equal(empty.status, 400, empty.text);
    assert.match(empty.json.errorMsg, /footageSeekPoints/);
  });
});

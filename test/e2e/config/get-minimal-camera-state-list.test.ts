import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { toMinimalCameraState } from '../../../src/domains/devices/cameras/service.js';
import { listDevices } from '../../../src/domains/devices/service.js';
import { control, journal } from '../control/admin.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { changesDuring, createSiteOrg, type SiteOrg } from './config-site.js';
import { assertOk } from '../../helpers/api.js';

const PATH = '/api/camera/getMinimalCameraStateList';

forEachDialect('POST /api/camera/getMinimalCameraStateList', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Camera Org');
    other = await createSiteOrg(server, 'Other Org');
  });
  after(() => server.close());

  it('requires authentication', async () => {
    assert.equal((await server.call(PATH, {}, { key: '' })).status, 401);
  });

  it("answers the organization's cameras, by name, with their state", async () => {
    const r = await server.call(PATH, {}, { key: org.apiKey });
    assertOk(r);
    const states = r.json.cameraStates;
    assert.deepEqual(
      states.map((c: { name: string }) => c.name),
      ['Dock', 'Lobby'],
    );
    const lobby = states[1];
    assert.deepEqual(lobby, {
      uuid: org.site.cameras.Lobby,
      name: 'Lobby',
      locationUuid: org.site.locations.HQ,
      connectionStatus: 'GREEN',
      healthStatus: 'GREEN',
      healthStatusDetails: 'NONE',
      firmwareVersion: '4.2.1',
      serialNumber: 'CAM-1',
      hwVariation: 'CAMERA_R510',
      supportedFacets: ['v0'],
      facetNameMap: { [`${org.site.cameras.Lobby}.v0`]: 'Lobby' },
      defaultInterfaceMac: '00:1a:2b:3c:4d:5e',
      lanAddresses: [],
      latitude: null,
      longitude: null,
      directionRadians: null,
      liveStreamShared: false,
      mummified: false,
      createdAtMillis: lobby.createdAtMillis,
    });
    assert.equal(typeof lobby.createdAtMillis, 'number');
    const dock = states[0];
    assert.equal(dock.connectionStatus, 'RED');
    assert.equal(dock.healthStatusDetails, 'DISCONNECTED');
    assert.equal(dock.serialNumber, '');
  });

  it('sends the list with its length, not in chunks, and the request journal holds it', async () => {
    const r = await server.call(PATH, {}, { key: org.apiKey });
    assertOk(r);
    assert.equal(r.headers.get('content-length'), String(Buffer.byteLength(r.text)));
    assert.equal(r.headers.get('transfer-encoding'), null);
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
    const [held] = (await journal(server, `?path=${encodeURIComponent(PATH)}&limit=1`)).json.requests;
    assert.deepEqual(held.responseBody, r.json);
  });

  it('answers each organization only its own cameras', async () => {
    const mine = (await server.call(PATH, {}, { key: org.apiKey })).json.cameraStates.map((c: { uuid: string }) => c.uuid);
    const theirs = (await server.call(PATH, {}, { key: other.apiKey })).json.cameraStates.map((c: { uuid: string }) => c.uuid);
    assert.equal(theirs.length, 2);
    assert.deepEqual(
      mine.filter((u: string) => theirs.includes(u)),
      [],
    );
  });

  it('accepts includeMummified, and answers an organization without cameras an empty list', async () => {
    const empty = await server.createOrg('Empty Org');
    const r = await server.call(PATH, { includeMummified: true }, { key: empty.apiKey });
    assertOk(r);
    assert.deepEqual(r.json.cameraStates, []);
  });

  // The list is written by the database as JSON (cameras.store.ts); each camera's record, as the stream announces
  // it, is written by toMinimalCameraState: the two must agree on every field and escape every name alike.
  const recordsOf = async (orgUuid: string, shared: readonly string[] = []) =>
    JSON.parse(JSON.stringify((await listDevices(server.gatehouse.deps, orgUuid, ['CAMERA'])).map((c) => toMinimalCameraState(c, shared.includes(c.uuid)))));

  it('writes every camera as its record: names that need escaping, each status, fields left out', async () => {
    const names = ['Quote "q" and back\\slash', 'Caméra 東京 🎥', 'Tab\tline\nbreak\u0001 </script>', 'plain'];
    const statuses = [
      ['RED', 'GREEN'],
      ['GREEN', 'ORANGE'],
      ['YELLOW', 'YELLOW'],
      ['GREEN', 'GREEN'],
    ];
    const tricky = await createSiteOrg(server, 'Tricky Org', {
      locations: [{ name: 'Site' }],
      cameras: names.map((name, i) => ({
        name,
        location: 'Site',
        connectionStatus: statuses[i]![0],
        healthStatus: statuses[i]![1],
        ...(i % 2 === 0
          ? { macAddress: `00:1a:2b:3c:4d:5${i}`, serialNumber: `S-${i}`, firmwareVersion: '1.0', hwVariation: 'CAMERA_R36S', lanAddresses: [`10.0.0.${i}`] }
          : {}),
      })),
    });
    // Where one points (updateDetails), and a live stream of another shared: the list reads both.
    const [first, second] = [tricky.site.cameras[names[0]!]!, tricky.site.cameras[names[1]!]!];
    const at = { latitude: 48.8584, longitude: 2.2945, directionRadians: 1.5 };
    assertOk(await server.call('/api/camera/updateDetails', { camera: { uuid: first, ...at } }, { key: tricky.apiKey }));
    assertOk(await server.call('/api/camera/createSharedLiveVideoStream', { cameraUuid: second }, { key: tricky.apiKey }));
    const r = await server.call(PATH, {}, { key: tricky.apiKey });
    assertOk(r);
    assert.equal(r.json.cameraStates.length, names.length);
    assert.deepEqual(r.json.cameraStates, await recordsOf(tricky.orgUuid, [second]));
    const byUuid = new Map(r.json.cameraStates.map((c: { uuid: string }) => [c.uuid, c]));
    assert.deepEqual(byUuid.get(first), { ...(byUuid.get(first) as object), ...at, hwVariation: 'CAMERA_R36S', lanAddresses: ['10.0.0.0'] });
    assert.equal((byUuid.get(second) as { liveStreamShared: boolean }).liveStreamShared, true);
    assert.deepEqual(Object.keys(r.json.uptimeWindows).sort(), [...byUuid.keys()].sort());
    assert.deepEqual(
      r.json.cameraStates.map((c: { healthStatusDetails: string }) => c.healthStatusDetails),
      r.json.cameraStates.map((c: { connectionStatus: string }) => (c.connectionStatus === 'RED' ? 'DISCONNECTED' : 'NONE')),
    );
  });

  it('shows a camera changed since the last call, as its CAMERA_STATE announcement has it', async () => {
    const lobby = org.site.cameras.Lobby;
    const before = (await server.call(PATH, {}, { key: org.apiKey })).json.cameraStates;
    assert.equal(before.find((c: { uuid: string }) => c.uuid === lobby).name, 'Lobby');
    assertOk(await server.call('/api/camera/updateDetails', { camera: { uuid: lobby, name: 'Lobby "East"' } }, { key: org.apiKey }));
    const changes = await changesDuring(server, async () => {
      const r = await control(server, '/simulate/connection', { device: lobby, offline: true });
      assert.equal(r.json?.error, false, r.text);
    });
    const announced = changes.find((c) => c.entity === 'CAMERA_STATE' && c.entityUuid === lobby);
    assert.ok(announced, 'the connection change was announced');
    const after = (await server.call(PATH, {}, { key: org.apiKey })).json.cameraStates;
    const listed = after.find((c: { uuid: string }) => c.uuid === lobby);
    assert.equal(listed.name, 'Lobby "East"');
    assert.equal(listed.connectionStatus, 'RED');
    // The announcement is the camera's own record: whether a stream of it is shared is the list's to say.
    const { liveStreamShared, ...own } = listed;
    assert.equal(liveStreamShared, false);
    assert.deepEqual(own, JSON.parse(JSON.stringify(announced.update)));
    // Its uptime of the last day ends where it went offline.
    const windows = (await server.call(PATH, {}, { key: org.apiKey })).json.uptimeWindows[lobby];
    assert.deepEqual(
      windows.map((w: { startSeconds: number }) => w.startSeconds),
      [Math.floor(listed.createdAtMillis / 1000)],
    );
    assert.deepEqual(after, await recordsOf(org.orgUuid));
    // The other organization's list did not change.
    assert.deepEqual((await server.call(PATH, {}, { key: other.apiKey })).json.cameraStates, await recordsOf(other.orgUuid));
  });

  // The list is kept between calls while the organization's change position stays (camera-list-cache.ts).
  it("works out the uptime windows at each call's time, though no write came between", async () => {
    // The other organization's Lobby camera is online since its creation: one window, open until the call.
    const lobby = other.site.cameras.Lobby;
    const windowsNow = async () =>
      (await server.call(PATH, {}, { key: other.apiKey })).json.uptimeWindows[lobby] as Array<{ startSeconds: number; durationSeconds: number }>;
    const first = await windowsNow();
    await new Promise((r) => setTimeout(r, 1600));
    const later = await windowsNow();
    assert.equal(first.length, 1);
    assert.equal(later.length, 1);
    assert.equal(later[0]!.startSeconds, first[0]!.startSeconds);
    assert.ok(later[0]!.durationSeconds >= first[0]!.durationSeconds + 1, `${JSON.stringify(first)} then ${JSON.stringify(later)}`);
  });

  it('shows a camera change that came after changes of other kinds (a schedule, a door)', async () => {
    const nameOf = async () =>
      (await server.call(PATH, {}, { key: other.apiKey })).json.cameraStates.find((c: { uuid: string }) => c.uuid === other.site.cameras.Lobby).name;
    const was = await nameOf();
    assertOk(await server.call('/api/policy/createSchedule', { schedule: { name: 'Night', intervalList: [] } }, { key: other.apiKey }));
    assert.equal(await nameOf(), was);
    assertOk(await server.call('/api/policy/createSchedule', { schedule: { name: 'Weekend', intervalList: [] } }, { key: other.apiKey }));
    assertOk(await server.call('/api/camera/updateDetails', { camera: { uuid: other.site.cameras.Lobby, name: `${was} East` } }, { key: other.apiKey }));
    assertOk(await server.call('/api/policy/createSchedule', { schedule: { name: 'Holiday', intervalList: [] } }, { key: other.apiKey }));
    assert.equal(await nameOf(), `${was} East`);
  });

  it('answers a share as ended once it expires, though no write came between', async () => {
    const dock = org.site.cameras.Dock;
    const sharedNow = async () =>
      (await server.call(PATH, {}, { key: org.apiKey })).json.cameraStates.find((c: { uuid: string }) => c.uuid === dock).liveStreamShared;
    assert.equal(await sharedNow(), false);
    // The share ends 2 s after the server made it, somewhere between these two times.
    const madeAfter = Date.now();
    assertOk(await server.call('/api/camera/createSharedLiveVideoStream', { cameraUuid: dock, expirationTimeSecs: 2 }, { key: org.apiKey }));
    const madeBefore = Date.now();
    assert.equal(await sharedNow(), true);
    assert.equal(await sharedNow(), true, 'and again, from what was kept');
    assert.ok(Date.now() < madeAfter + 2000, 'both calls came before the expiry');
    await new Promise((r) => setTimeout(r, madeBefore + 2050 - Date.now()));
    assert.equal(await sharedNow(), false);
  });

  it('shows a change made by another instance on the same store', { skip: dialect === 'sqlite' && 'one instance per SQLite store' }, async () => {
    const second = await startTestServer(dialect, { databaseUrl: server.config.databaseUrl });
    try {
      const listed = async (on: TestServer) =>
        (await on.call(PATH, {}, { key: org.apiKey })).json.cameraStates.find((c: { uuid: string }) => c.uuid === org.site.cameras.Lobby).name;
      const was = await listed(server);
      assert.equal(await listed(second), was);
      assertOk(await second.call('/api/camera/updateDetails', { camera: { uuid: org.site.cameras.Lobby, name: 'Lobby West' } }, { key: org.apiKey }));
      assert.equal(await listed(server), 'Lobby West');
    } finally {
      await second.close();
    }
  });

  it('answers a malformed body with 400', async () => {
    const r = await server.call(PATH, { includeMummified: 'yes' }, { key: org.apiKey });
    assert.equal(r.status, 400);
  });
});

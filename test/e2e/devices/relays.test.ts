import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import type { TestOrg } from '../../helpers/server.js';
import { control } from '../control/admin.js';

const SITE = `
locations: [{name: HQ, timeZone: America/New_York}]
nvrs: [{name: Rack NVR, location: HQ, serialNumber: NVR-1}]
cameras: [{name: Lobby, location: HQ}]
`;
const MAC = '00:11:22:33:44:55';
const RTSP = 'rtsp://10.0.0.20:554/stream1';

forEachDialect('relays and NVRs: discovery, assignment into the camera lists, passwords, PTZ, NVR details', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let other: TestOrg;
  let site: Record<string, Record<string, string>>;
  let theirSite: Record<string, Record<string, string>>;
  const ours = apiAs(server, () => org.apiKey, '/api/relay');
  const theirs = apiAs(server, () => other.apiKey, '/api/relay');
  let cameraUuid: string;

  const changesDuring = async (fn: () => Promise<unknown>) => {
    const changes: ChangeEvent[] = [];
    const stop = server().gatehouse.deps.bus.subscribe('change', (c) => changes.push(c));
    try {
      await fn();
    } finally {
      stop();
    }
    return changes;
  };
  const simulate = async (flags: object) => {
    const r = await control(server(), '/simulate/relay-discovery', flags);
    assert.equal(r.json?.error, false, r.text);
    return r.json;
  };

  before(async () => {
    org = await server().createOrg('Relay Org');
    other = await server().createOrg('Other Relay Org');
    const seed = async (o: TestOrg) => {
      const r = await control(server(), `/orgs/${o.orgUuid}/seed`, SITE, { contentType: 'application/yaml' });
      assert.equal(r.json.error, false, r.text);
      return r.json;
    };
    [site, theirSite] = [await seed(org), await seed(other)];
  });

  it('hears a discovery from the NVR, assigns it, and the camera appears in the camera lists', async () => {
    const nvr = site.nvrs!['Rack NVR']!;
    await ours.ok('executeThirdPartyCameraDiscovery', { deviceFilter: [nvr] });
    const found = await changesDuring(() =>
      simulate({ device: nvr, mac: '00-11-22-33-44-55', ip: '10.0.0.20', manufacturer: 'Acme', model: 'X1', rtsp: RTSP }),
    );
    assert.ok(found.some((c) => c.entity === 'THIRD_PARTY_CAMERA_DISCOVERY' && c.entityUuid === MAC));
    const { discoveries } = await ours.ok('findDiscoveriesWithUnassignedRtspEndpoints', {});
    assert.deepEqual(
      discoveries.map((d: any) => [d.macAddress, d.manufacturer, d.unassignedRtspEndpoints.map((e: any) => [e.rtspUrl, e.source])]),
      [[MAC, 'Acme', [[RTSP, 'ONVIF']]]],
    );
    const auth = await ours.ok('authenticateThirdPartyCamera', { thirdPartyCameraMacAddress: MAC, username: 'admin', password: 'hunter22-secret' });
    assert.deepEqual([auth.result.username, auth.result.password, auth.rtspUrlStatus], ['admin', '****', 'UNKNOWN']);
    assert.ok(!JSON.stringify(auth).includes('hunter22'));
    assert.equal(
      await theirs.refused('assignThirdPartyCameraToNVR', {
        discoveredCameraMacAddress: MAC,
        locationUuid: theirSite.locations!.HQ,
        nvruuid: theirSite.nvrs!['Rack NVR'],
      }),
      `Third-party camera discovery ${MAC} not found`,
    );
    const changes = await changesDuring(async () => {
      cameraUuid = (
        await ours.ok('assignThirdPartyCameraToNVR', { discoveredCameraMacAddress: MAC, locationUuid: site.locations!.HQ, name: 'Dock', nvruuid: nvr })
      ).deviceUuid;
    });
    assert.ok(changes.some((c) => c.entity === 'CAMERA' && c.type === 'CREATE' && c.entityUuid === cameraUuid));
    const cameras = (await ours.ok('/api/camera/getMinimalList', {})).cameras.map((c: any) => c.name).sort();
    assert.deepEqual(cameras, ['Dock', 'Lobby']);
    assert.equal((await ours.ok('/api/camera/getMinimalCameraLocationMap', {})).cameraLocationMap[cameraUuid].cameraName, 'Dock');
    const assigned = (await ours.ok('getAssignedThirdPartyCameras', { nvruuid: nvr })).assignedCameras;
    assert.deepEqual(
      assigned.map((c: any) => [c.uuid, c.name]),
      [[cameraUuid, 'Dock']],
    );
    const states = (await ours.ok('getMinimalThirdPartyCameraStateList', {})).thirdPartyCameraStateList;
    assert.deepEqual(
      states.map((c: any) => [c.uuid, c.rtspUrl, c.assignedNVRUuid, c.manufacturer]),
      [[cameraUuid, RTSP, nvr, 'Acme']],
    );
    assert.equal((await ours.ok('getMinimalNVRStateList', {})).nvrstates[0].numThirdPartyCamerasAssigned, 1);
    assert.deepEqual((await ours.ok('findDiscoveriesWithUnassignedRtspEndpoints', {})).discoveries, []);
    assert.deepEqual((await theirs.ok('getMinimalThirdPartyCameraStateList', {})).thirdPartyCameraStateList, []);
    assert.match(await ours.refused('/api/relay/deleteThirdPartyCameraDiscovery', { thirdPartyCameraMacAddress: MAC }), /assignment/);
  });

  it('moves a third-party camera within its range, and keeps its position', async () => {
    await ours.ok('ptzMove', { thirdPartyCameraUuid: cameraUuid, xmovementPermyriad: 2500, zmovementPermyriad: 9000 });
    await ours.ok('ptzMove', { thirdPartyCameraUuid: cameraUuid, zmovementPermyriad: 9000 });
    const status = await ours.ok('ptzStatus', { thirdPartyCameraUuid: cameraUuid });
    assert.deepEqual([status.xpositionPermyriad, status.ypositionPermyriad, status.zpositionPermyriad], [2500, 0, 10000]);
    assert.equal(await theirs.refused('ptzStatus', { thirdPartyCameraUuid: cameraUuid }), 'Third-party camera not found');
    assert.equal(await ours.refused('ptzStatus', { thirdPartyCameraUuid: site.cameras!.Lobby }), 'Third-party camera not found');
  });

  it('unassigns the camera as a camera delete, freeing its endpoint; a manual discovery uses saved credentials', async () => {
    await ours.ok('unassignThirdPartyCamera', { thirdPartyCameraMacAddress: MAC });
    assert.deepEqual(
      (await ours.ok('/api/camera/getMinimalList', {})).cameras.map((c: any) => c.name),
      ['Lobby'],
    );
    assert.equal((await ours.ok('findDiscoveriesWithUnassignedRtspEndpoints', {})).discoveries.length, 1);
    const { passwordUuid } = await ours.ok('createThirdPartyCameraPassword', { username: 'ops', password: 'correct-horse-battery', notes: 'yard' });
    const listed = (await ours.ok('getThirdPartyCameraPasswords', {})).passwords;
    assert.deepEqual(
      listed.map((p: any) => [p.uuid, p.username, p.password]),
      [[passwordUuid, 'ops', '****tery']],
    );
    const sealed = await server().gatehouse.deps.store.db.selectFrom('third_party_camera_passwords').select('password_sealed').executeTakeFirstOrThrow();
    assert.ok(!sealed.password_sealed.includes('correct-horse'));
    const manual = await ours.ok('manualDiscoverCamera', { rtspUrl: 'rtsp://10.0.0.30/live', locationUuid: site.locations!.HQ, trySavedCredentials: true });
    assert.deepEqual([manual.result.username, manual.rtspUrlStatus, manual.result.rtspEndpoints[0].source], ['ops', 'UNKNOWN', 'USER']);
    const endpoints = (await ours.ok('getRtspEndpoints', { discoveredCameraMacAddress: manual.result.macAddress })).rtspEndpoints;
    assert.deepEqual([endpoints.length, endpoints[0].password], [1, '****']);
    assert.equal((await ours.ok('manualDiscoverCamera', { rtspUrl: 'http://10.0.0.30/live' })).rtspUrlStatus, 'NOT_SUPPORTED');
    const relayCamera = await ours.refused('assignThirdPartyCameraToRelayCamera', {
      discoveredCameraMacAddress: manual.result.macAddress,
      locationUuid: site.locations!.HQ,
    });
    assert.match(relayCamera, /not found by a relay camera/);
    assert.equal(await theirs.refused('deleteThirdPartyCameraPassword', { passwordUuid }), 'Third-party camera password not found');
    await ours.ok('deleteThirdPartyCameraPassword', { passwordUuid });
    assert.deepEqual((await ours.ok('getThirdPartyCameraPasswords', {})).passwords, []);
  });

  it("keeps an NVR's details, firmware and registration", async () => {
    const nvr = site.nvrs!['Rack NVR']!;
    await ours.ok('updateDetailsV2', { uuid: nvr, name: 'Rack NVR 2', nameUpdated: true, floorNumber: 2, description: 'ignored', descriptionUpdated: false });
    const [details] = (await ours.ok('getDetails', { nvruuids: [nvr] })).nvrs;
    assert.deepEqual([details.name, details.floorNumber, details.description], ['Rack NVR 2', 2, null]);
    assert.equal((await ours.ok('getFullNVRState', { nvruuid: nvr })).fullNVRState.name, 'Rack NVR 2');
    assert.equal((await ours.ok('updateFirmware', { nvruuid: nvr })).status, 'UPDATE_STARTED');
    assert.equal((await ours.ok('updateFirmware', { nvruuid: nvr })).status, 'ALREADY_ON_THE_LATEST_FIRMWARE');
    const now = Date.now();
    assert.ok(Array.isArray((await ours.ok('getUptimeWindows', { deviceUuid: nvr, startTimeMs: now - 3_600_000, endTimeMs: now })).uptimeWindows));
    assert.equal(await theirs.refused('getDetails', { nvruuids: [nvr] }), `NVR ${nvr} not found`);
    assert.equal(await theirs.refused('unregister', { nvruuid: nvr }), 'NVR not found');
    await ours.ok('unregister', { nvruuid: nvr });
    assert.deepEqual((await ours.ok('getMinimalNVRStateList', {})).nvrstates, []);
    assert.equal((await theirs.ok('getMinimalNVRStateList', {})).nvrstates.length, 1);
  });
});

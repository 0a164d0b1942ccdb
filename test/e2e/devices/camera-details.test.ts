import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, changesDuring, createSiteOrg, nobodysUuid, type SiteOrg } from '../config/config-site.js';
import { assertFails, assertOk } from '../../helpers/api.js';
import { closedWindowsAndLastStart } from './uptime-windows.js';

forEachDialect('camera details, configuration, reboot and uptime', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Camera Org');
    other = await createSiteOrg(server, 'Other Org');
  });
  after(() => server.close());
  const call = (op: string, body: object = {}, key = org.apiKey) => server.call(`/api/camera/${op}`, body, { key });
  const lobby = () => org.site.cameras.Lobby;

  it('every operation requires authentication', async () => {
    for (const op of [
      'getDetails',
      'getDetailsV2',
      'updateDetails',
      'updateDetailsV2',
      'updateDetailsBulkV2',
      'getFullCameraState',
      'getConfig',
      'updateConfig',
      'reboot',
      'getUptimeWindows',
      'getCameraAIThresholds',
      'updateCameraAIThresholds',
    ]) {
      assert.equal((await call(op, {}, '')).status, 401, op);
    }
  });

  describe('details', () => {
    it('answers the details of the cameras asked for', async () => {
      const r = await call('getDetails', { cameraUuids: [lobby(), org.site.cameras.Dock] });
      assertOk(r);
      assert.deepEqual(
        r.json.cameras.map((c: { uuid: string; name: string; serialNumber: string }) => [c.uuid, c.name, c.serialNumber]),
        [
          [lobby(), 'Lobby', 'CAM-1'],
          [org.site.cameras.Dock, 'Dock', null],
        ],
      );
      assert.deepEqual(r.json.cameras[0].facetNameMap, { [`${lobby()}.v0`]: 'Lobby' });
      const v2 = await call('getDetailsV2', { cameraUuid: lobby() });
      assert.equal(v2.json.camera.locationUuid, org.site.locations.HQ);
    });

    it('updateDetails sets the fields given, announces the camera, and the state list follows', async () => {
      const changes = await changesDuring(server, async () =>
        assertOk(
          await call('updateDetails', {
            camera: { uuid: lobby(), name: 'Main Lobby', description: 'by the desk', floorNumber: 1, locationUuid: org.site.locations.Annex },
          }),
        ),
      );
      assert.deepEqual(
        changes.map((c) => [c.entity, c.entityUuid, (c.update as { name: string }).name]),
        [['CAMERA', lobby(), 'Main Lobby']],
      );
      const camera = (await call('getDetailsV2', { cameraUuid: lobby() })).json.camera;
      assert.deepEqual([camera.name, camera.description, camera.floorNumber, camera.locationUuid], ['Main Lobby', 'by the desk', 1, org.site.locations.Annex]);
      const states = (await call('getMinimalCameraStateList')).json.cameraStates;
      assert.ok(states.some((s: { uuid: string; name: string }) => s.uuid === lobby() && s.name === 'Main Lobby'));
    });

    it('updateDetailsV2 sets only the flagged fields; the bulk form changes all or none', async () => {
      assertOk(await call('updateDetailsV2', { uuid: lobby(), name: 'Ignored', nameUpdated: false, description: 'moved', descriptionUpdated: true }));
      let camera = (await call('getDetailsV2', { cameraUuid: lobby() })).json.camera;
      assert.deepEqual([camera.name, camera.description], ['Main Lobby', 'moved']);
      const dock = org.site.cameras.Dock;
      assertSameAsMissing(
        await call('updateDetailsBulkV2', {
          updates: [
            { uuid: dock, name: 'Dock 2', nameUpdated: true },
            { uuid: other.site.cameras.Lobby, name: 'x', nameUpdated: true },
          ],
        }),
        await call('updateDetailsBulkV2', {
          updates: [
            { uuid: dock, name: 'Dock 2', nameUpdated: true },
            { uuid: nobodysUuid(), name: 'x', nameUpdated: true },
          ],
        }),
      );
      assert.equal((await call('getDetailsV2', { cameraUuid: dock })).json.camera.name, 'Dock', 'a failed bulk update changes nothing');
      assert.equal((await call('getDetailsV2', { cameraUuid: other.site.cameras.Lobby }, other.apiKey)).json.camera.name, 'Lobby');
      assertOk(
        await call('updateDetailsBulkV2', {
          updates: [
            { uuid: dock, name: 'Dock 2', nameUpdated: true },
            { uuid: lobby(), latitude: 40.5, latitudeUpdated: true },
          ],
        }),
      );
      camera = (await call('getDetailsV2', { cameraUuid: lobby() })).json.camera;
      assert.equal(camera.latitude, 40.5);
      assert.equal((await call('getDetailsV2', { cameraUuid: dock })).json.camera.name, 'Dock 2');
    });

    it("refuses another organization's camera, a location it lacks, and a malformed body", async () => {
      assertSameAsMissing(await call('getDetails', { cameraUuids: [other.site.cameras.Lobby] }), await call('getDetails', { cameraUuids: [nobodysUuid()] }));
      assertSameAsMissing(
        await call('getFullCameraState', { cameraUuid: other.site.cameras.Lobby }),
        await call('getFullCameraState', { cameraUuid: nobodysUuid() }),
      );
      assertFails(await call('updateDetails', { camera: { uuid: lobby(), locationUuid: other.site.locations.HQ } }), 'Location not found');
      for (const body of [{}, { cameraUuids: [] }, { cameraUuids: ['nope'] }]) assert.equal((await call('getDetails', body)).status, 400, JSON.stringify(body));
      assert.equal((await call('updateDetails', { camera: { uuid: lobby(), latitude: 91 } })).status, 400);
    });
  });

  describe('configuration', () => {
    it('keeps the settings given, announces CAMERA_USER_CONFIG, and refuses a value out of range naming the field', async () => {
      const before = (await call('getConfig', { cameraUuid: lobby() })).json.config;
      assert.equal(before.img_brightness, 50);
      const changes = await changesDuring(server, async () =>
        assertOk(await call('updateConfig', { config: { deviceUuid: lobby(), img_brightness: 70, rotation: 180, hdr_enabled: true } })),
      );
      assert.deepEqual(
        changes.map((c) => c.entity),
        ['CAMERA_USER_CONFIG'],
      );
      const config = (await call('getConfig', { cameraUuid: lobby() })).json.config;
      assert.deepEqual([config.img_brightness, config.rotation, config.hdr_enabled, config.img_contrast], [70, 180, true, 50]);

      for (const [field, value] of [
        ['img_brightness', 101],
        ['rotation', 45],
        ['face_ai_threshold', 1.5],
        ['snapshot_interval_secs', 0],
      ] as const) {
        const r = await call('updateConfig', { config: { deviceUuid: lobby(), [field]: value } });
        assert.equal(r.status, 400, field);
        assert.match(r.json.errorMsg, new RegExp(field), r.text);
      }
      assert.equal((await call('getConfig', { cameraUuid: lobby() })).json.config.img_brightness, 70, 'a refused update changes nothing');
      assertSameAsMissing(
        await call('updateConfig', { config: { deviceUuid: other.site.cameras.Lobby, img_brightness: 10 } }),
        await call('updateConfig', { config: { deviceUuid: nobodysUuid(), img_brightness: 10 } }),
      );
      assert.equal((await call('getConfig', { cameraUuid: other.site.cameras.Lobby }, other.apiKey)).json.config.img_brightness, 50);
    });
  });

  describe('AI thresholds', () => {
    it("keeps the thresholds given, refuses one out of range naming the field, and leaves another organization's camera", async () => {
      const before = await call('getCameraAIThresholds', { cameraUuid: lobby() });
      assertOk(before);
      assert.equal(before.json.humanConfidenceThreshold, 0.5);
      const changes = await changesDuring(server, async () =>
        assertOk(await call('updateCameraAIThresholds', { cameraUuid: lobby(), humanConfidenceThreshold: 0.8, consecutiveHumanFilter: 5 })),
      );
      assert.deepEqual(
        changes.map((c) => [c.entity, (c.update as { humanConfidenceThreshold: number }).humanConfidenceThreshold]),
        [['CAMERA_USER_CONFIG', 0.8]],
      );
      const after = (await call('getCameraAIThresholds', { cameraUuid: lobby() })).json;
      assert.deepEqual([after.humanConfidenceThreshold, after.consecutiveHumanFilter, after.vehicleConfidenceThreshold], [0.8, 5, 0.5]);
      const bad = await call('updateCameraAIThresholds', { cameraUuid: lobby(), vehicleConfidenceThreshold: 1.2 });
      assert.equal(bad.status, 400);
      assert.match(bad.json.errorMsg, /vehicleConfidenceThreshold/);
      assertSameAsMissing(
        await call('updateCameraAIThresholds', { cameraUuid: other.site.cameras.Lobby, humanConfidenceThreshold: 0.1 }),
        await call('updateCameraAIThresholds', { cameraUuid: nobodysUuid(), humanConfidenceThreshold: 0.1 }),
      );
      assert.equal((await call('getCameraAIThresholds', { cameraUuid: other.site.cameras.Lobby }, other.apiKey)).json.humanConfidenceThreshold, 0.5);
    });
  });

  describe('reboot and uptime', () => {
    it('a rebooted camera goes offline, comes back a few seconds later, and both show on the stream and in its uptime windows', async () => {
      const camera = other.site.cameras.Lobby;
      const startSec = Math.floor(Date.now() / 1000) - 3600;
      const stateOf = async () =>
        (await call('getMinimalCameraStateList', {}, other.apiKey)).json.cameraStates.find((s: { uuid: string }) => s.uuid === camera).connectionStatus;
      const changes = await changesDuring(server, async () => {
        const r = await call('reboot', { cameraUuid: camera }, other.apiKey);
        assertOk(r);
        assert.equal(r.json.status, 'SUCCESS_REBOOT_SENT');
        assert.equal(await stateOf(), 'RED');
        for (let i = 0; i < 100 && (await stateOf()) !== 'GREEN'; i++) await sleep(200);
      });
      assert.equal(await stateOf(), 'GREEN', 'the camera came back');
      assert.deepEqual(
        changes.filter((c) => c.entityUuid === camera).map((c) => [c.entity, (c.update as { connectionStatus: string }).connectionStatus]),
        [
          ['CAMERA_STATE', 'RED'],
          ['CAMERA_STATE', 'GREEN'],
        ],
      );
      const full = (await call('getFullCameraState', { cameraUuid: camera }, other.apiKey)).json.fullCameraState;
      assert.equal(full.connectionStatus, 'GREEN');

      const r = await call('getUptimeWindows', { cameraUuid: camera, startTime: startSec, endTime: startSec + 7200 }, other.apiKey);
      assertOk(r);
      const windows = r.json.uptimeWindows as { startSeconds: number; durationSeconds: number }[];
      assert.equal(windows.length, 2, JSON.stringify(windows));
      const gap = windows[1].startSeconds - (windows[0].startSeconds + windows[0].durationSeconds);
      assert.ok(gap >= 1 && gap <= 30, `offline for ${gap} s`);
      const inMs = await call('getUptimeWindows', { cameraUuid: camera, startTime: startSec * 1000, endTime: (startSec + 7200) * 1000 }, other.apiKey);
      assert.deepEqual(
        closedWindowsAndLastStart(inMs.json.uptimeWindows),
        closedWindowsAndLastStart(windows),
        'the range in milliseconds, as the platform’s MCP client sends it, reads the same',
      );
      assert.deepEqual(
        (await call('getUptimeWindows', { cameraUuid: org.site.cameras.Lobby, startTime: startSec, endTime: startSec + 7200 })).json.uptimeWindows.length,
        1,
        'a camera never rebooted has one window',
      );
    });

    it('an offline camera cannot be rebooted and has no uptime; bad ranges and foreign cameras are refused', async () => {
      const dock = org.site.cameras.Dock;
      assert.equal((await call('reboot', { cameraUuid: dock })).json.status, 'FAILED_CAMERA_OFFLINE');
      const nowSec = Math.floor(Date.now() / 1000);
      assert.deepEqual((await call('getUptimeWindows', { cameraUuid: dock, startTime: nowSec - 600, endTime: nowSec + 600 })).json.uptimeWindows, []);
      assertFails(await call('getUptimeWindows', { cameraUuid: dock, startTime: 10, endTime: 5 }), 'endTime must be after startTime');
      assertSameAsMissing(await call('reboot', { cameraUuid: other.site.cameras.Dock }), await call('reboot', { cameraUuid: nobodysUuid() }));
    });
  });
});

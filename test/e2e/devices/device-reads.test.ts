import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, changesDuring, createSiteOrg, nobodysUuid, type SiteOrg } from '../config/config-site.js';
import { control } from '../control/admin.js';
import { assertFails, assertOk } from '../../helpers/api.js';

const SITE = {
  locations: [
    { name: 'HQ', timeZone: 'America/New_York' },
    { name: 'Annex', timeZone: 'Europe/Berlin' },
  ],
  cameras: [
    { name: 'Lobby', location: 'HQ', serialNumber: 'CAM-1', macAddress: '00:1a:2b:3c:4d:5e' },
    { name: 'Dock', location: 'Annex', connectionStatus: 'RED' },
  ],
  sensors: [
    { name: 'Air', kind: 'climate', location: 'HQ' },
    { name: 'E50', kind: 'environmentalGateway', location: 'HQ' },
  ],
  audioGateways: [{ name: 'PA', location: 'HQ' }],
};

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);

forEachDialect('device reads and camera settings', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Reads Org', SITE);
    other = await createSiteOrg(server, 'Other Org', SITE);
  });
  after(() => server.close());
  const call = (path: string, body: object = {}, key = org.apiKey) => server.call(path, body, { key });
  const simulate = async (event: string, flags: object) => {
    const r = await control(server, `/simulate/${event}`, flags);
    assert.equal(r.json?.error, false, r.text);
  };
  const lobby = () => org.site.cameras.Lobby;

  it('every operation requires authentication', async () => {
    for (const path of [
      '/api/climate/getConfig',
      '/api/climate/getEnvironmentalGatewayShadows',
      '/api/climate/getMinimalStateEventsForEnvironmentalGateway',
      '/api/audiogateway/getFullAudioGatewayState',
      '/api/audiogateway/getUptimeWindows',
      '/api/camera/getMinimalList',
      '/api/camera/getMinimalCameraLocationMap',
      '/api/camera/getCurrentState',
      '/api/camera/getFootageBoundingBoxesForMultiple',
      '/api/feature/getDeviceEventTypes',
      '/api/feature/getDeviceFeaturesList',
      '/api/feature/getFeatureCompatabilityMatrix',
      '/api/camera/revertCameraSettingsToDefaults',
      '/api/camera/revertDayImageSettingsToDefaults',
      '/api/camera/revertNightImageSettingsToDefaults',
      '/api/camera/revertToDefaults',
      '/api/camera/updateCameraLineCrossingThresholds',
    ]) {
      assert.equal((await call(path, {}, '')).status, 401, path);
    }
  });

  describe('climate sensors and environmental gateways', () => {
    it("climate/getConfig answers the sensor's configuration; another organization's sensor is unknown", async () => {
      const r = await call('/api/climate/getConfig', { uuid: org.site.sensors.Air });
      assertOk(r);
      assert.equal(r.json.config.deviceUuid, org.site.sensors.Air);
      assert.equal(r.json.config.orgUuid, org.orgUuid);
      assert.equal(r.json.config.vape_ai_threshold, 0.5);
      assertSameAsMissing(
        await call('/api/climate/getConfig', { uuid: other.site.sensors.Air }),
        await call('/api/climate/getConfig', { uuid: nobodysUuid() }),
      );
    });

    it("the shadows carry each gateway's last readings by module; the readings history pages as minimal states", async () => {
      const e50 = org.site.sensors.E50;
      for (let i = 0; i < 3; i++) await simulate('gateway', { device: e50, tempC: 20 + i, co2Ppm: 500 + i, pressure: 1000 + i, at: T0 + i * 1000 });
      await simulate('gateway', { device: other.site.sensors.E50, tempC: 99, at: T0 });
      const shadows = (await call('/api/climate/getEnvironmentalGatewayShadows')).json.environmentalGatewayShadows;
      assert.equal(shadows.length, 1, 'only the organization’s own gateway');
      assert.equal(shadows[0].deviceUuid, e50);
      assert.deepEqual(shadows[0].co2Sense, { co2Ppm: 502, relHumid: null, tempC: 22, timestampSec: (T0 + 2000) / 1000 });
      assert.equal(shadows[0].pressSense.pressure, 1002);
      assert.equal('pmSense' in shadows[0], false, 'a module that reported nothing is left out');
      assert.equal(shadows[0].connected, true);

      const first = await call('/api/climate/getMinimalStateEventsForEnvironmentalGateway', { deviceUuid: e50, maxPageSize: 2 });
      assertOk(first);
      assert.deepEqual(
        first.json.minimalEnvironmentalGatewayStates.map((s: { tempC: number; timestampMs: number; name: string }) => [s.tempC, s.timestampMs, s.name]),
        [
          [22, T0 + 2000, 'E50'],
          [21, T0 + 1000, 'E50'],
        ],
      );
      assert.ok(first.json.lastEvaluatedKey);
      const second = await call('/api/climate/getMinimalStateEventsForEnvironmentalGateway', {
        deviceUuid: e50,
        maxPageSize: 2,
        lastEvaluatedKey: first.json.lastEvaluatedKey,
      });
      assert.deepEqual(
        second.json.minimalEnvironmentalGatewayStates.map((s: { co2Ppm: number }) => s.co2Ppm),
        [500],
      );
      assert.equal(second.json.lastEvaluatedKey, null);
      assertSameAsMissing(
        await call('/api/climate/getMinimalStateEventsForEnvironmentalGateway', { deviceUuid: other.site.sensors.E50 }),
        await call('/api/climate/getMinimalStateEventsForEnvironmentalGateway', { deviceUuid: nobodysUuid() }),
      );
    });
  });

  describe('audio gateways', () => {
    it('the full state answers by uuid or facet id; the uptime windows follow its connection history', async () => {
      const pa = org.site.audioGateways.PA;
      const full = await call('/api/audiogateway/getFullAudioGatewayState', { deviceUuid: `${pa}.a0` });
      assertOk(full);
      assert.deepEqual(
        [
          full.json.fullAudioGatewayState.uuid,
          full.json.fullAudioGatewayState.name,
          full.json.fullAudioGatewayState.supportedFacets,
          full.json.fullAudioGatewayState.connectionStatus,
        ],
        [pa, 'PA', ['a0'], 'GREEN'],
      );
      const start = Date.now() - 60_000;
      await simulate('connection', { device: pa, offline: true });
      await sleep(1100);
      await simulate('connection', { device: pa, online: true });
      const r = await call('/api/audiogateway/getUptimeWindows', { deviceUuid: pa, startTimeMs: start, endTimeMs: Date.now() + 60_000 });
      assertOk(r);
      const windows = r.json.uptimeWindows as { startSeconds: number; durationSeconds: number }[];
      assert.equal(windows.length, 2, JSON.stringify(windows));
      assert.ok(windows[1].startSeconds > windows[0].startSeconds, 'back online after the gap');
      assertFails(await call('/api/audiogateway/getUptimeWindows', { deviceUuid: pa, startTimeMs: 10, endTimeMs: 5 }), 'endTimeMs must be after startTimeMs');
      assertSameAsMissing(
        await call('/api/audiogateway/getUptimeWindows', { deviceUuid: other.site.audioGateways.PA, startTimeMs: start, endTimeMs: start + 1000 }),
        await call('/api/audiogateway/getUptimeWindows', { deviceUuid: nobodysUuid(), startTimeMs: start, endTimeMs: start + 1000 }),
      );
      assertSameAsMissing(
        await call('/api/audiogateway/getFullAudioGatewayState', { deviceUuid: other.site.audioGateways.PA }),
        await call('/api/audiogateway/getFullAudioGatewayState', { deviceUuid: nobodysUuid() }),
      );
    });
  });

  describe('cameras', () => {
    it('the minimal list and the location map answer every camera of the organization, and follow a details update', async () => {
      assertOk(await call('/api/camera/updateDetails', { camera: { uuid: lobby(), floorNumber: 2, latitude: 40.5 } }));
      const list = (await call('/api/camera/getMinimalList')).json.cameras as Record<string, unknown>[];
      assert.deepEqual(
        list.map((c) => [c.name, c.connectionStatus, c.healthStatusDetails, c.floorNumber, c.latitude, c.serialNumber]),
        [
          ['Dock', 'RED', 'DISCONNECTED', null, null, null],
          ['Lobby', 'GREEN', 'NONE', 2, 40.5, 'CAM-1'],
        ],
      );
      const map = (await call('/api/camera/getMinimalCameraLocationMap')).json.cameraLocationMap;
      assert.deepEqual(map, {
        [lobby()]: { cameraName: 'Lobby', locationName: 'HQ', locationUuid: org.site.locations.HQ },
        [org.site.cameras.Dock]: { cameraName: 'Dock', locationName: 'Annex', locationUuid: org.site.locations.Annex },
      });
    });

    it('the current state carries the settings the camera runs', async () => {
      assertOk(await call('/api/camera/updateConfig', { config: { deviceUuid: lobby(), img_brightness: 80 } }));
      const r = await call('/api/camera/getCurrentState', { cameraUuid: `${lobby()}.v0` });
      assertOk(r);
      assert.equal(r.json.cameraState.connectionStatus, 'GREEN');
      assert.equal(r.json.cameraState.defaultInterfaceMac, '00:1a:2b:3c:4d:5e');
      assert.equal(r.json.cameraState.onCameraState.img_brightness, 80);
      assert.deepEqual(r.json.cameraState.onCloudState, r.json.cameraState.onCameraState);
      assertSameAsMissing(
        await call('/api/camera/getCurrentState', { cameraUuid: other.site.cameras.Lobby }),
        await call('/api/camera/getCurrentState', { cameraUuid: nobodysUuid() }),
      );
    });

    it('the boxes of several cameras are answered by instant and camera', async () => {
      const box = (ts: number) => ({ a: 'MOTION_HUMAN', ts, l: 100, t: 100, r: 200, b: 300 });
      assertOk(await call('/api/camera/createFootageBoundingBoxes', { cameraUuid: lobby(), footageBoundingBoxes: [box(T0), box(T0 + 1000)] }));
      assertOk(await call('/api/camera/createFootageBoundingBoxes', { cameraUuid: org.site.cameras.Dock, footageBoundingBoxes: [box(T0)] }));
      const r = await call('/api/camera/getFootageBoundingBoxesForMultiple', {
        cameraUuids: [lobby(), `${org.site.cameras.Dock}.v0`],
        startTimeSec: T0 / 1000,
        durationSec: 60,
      });
      assertOk(r);
      const map = r.json.footageBoundingBoxMap;
      assert.deepEqual(Object.keys(map).sort(), [String(T0), String(T0 + 1000)]);
      assert.deepEqual(Object.keys(map[String(T0)].deviceMap).sort(), [`${lobby()}.v0`, `${org.site.cameras.Dock}.v0`].sort());
      assert.equal(map[String(T0 + 1000)].deviceMap[`${lobby()}.v0`].b, 300);
      assertSameAsMissing(
        await call('/api/camera/getFootageBoundingBoxesForMultiple', {
          cameraUuids: [lobby(), other.site.cameras.Lobby],
          startTimeSec: T0 / 1000,
          durationSec: 60,
        }),
        await call('/api/camera/getFootageBoundingBoxesForMultiple', { cameraUuids: [lobby(), nobodysUuid()], startTimeSec: T0 / 1000, durationSec: 60 }),
      );
    });
  });

  describe('device features', () => {
    it("a device's event types are its features' activities, and follow a feature turned off", async () => {
      const types = async () => (await call('/api/feature/getDeviceEventTypes', { deviceUuid: `${lobby()}.v0` })).json.eventTypes as string[];
      assert.ok((await types()).includes('MOTION_HUMAN'));
      assertOk(await call('/api/feature/updateDeviceFeatures', { deviceUuid: lobby(), featureMap: { peopleDetection: false } }));
      const after = await types();
      assert.ok(!after.includes('MOTION_HUMAN'));
      assert.ok(after.includes('MOTION_CAR'));
      const air = (await call('/api/feature/getDeviceEventTypes', { deviceUuid: org.site.sensors.Air })).json.eventTypes as string[];
      assert.ok(air.includes('TEMPERATURE_EXCEEDED_HIGH') && !air.includes('MOTION'));
      assertSameAsMissing(
        await call('/api/feature/getDeviceEventTypes', { deviceUuid: other.site.cameras.Lobby }),
        await call('/api/feature/getDeviceEventTypes', { deviceUuid: nobodysUuid() }),
      );
    });

    it('the features list answers the devices asked for, all or nothing; the matrix lists every feature with its hardware', async () => {
      const r = await call('/api/feature/getDeviceFeaturesList', { deviceUuids: [lobby(), org.site.sensors.E50] });
      assertOk(r);
      assert.deepEqual(
        r.json.featureList.map((f: { deviceUuid: string }) => f.deviceUuid),
        [lobby(), org.site.sensors.E50],
      );
      assert.equal(r.json.featureList[0].featureMap.peopleDetection, false);
      assert.equal(r.json.featureList[1].featureMap.pressure, true);
      assertSameAsMissing(
        await call('/api/feature/getDeviceFeaturesList', { deviceUuids: [lobby(), other.site.cameras.Lobby] }),
        await call('/api/feature/getDeviceFeaturesList', { deviceUuids: [lobby(), nobodysUuid()] }),
      );
      const matrix = (await call('/api/feature/getFeatureCompatabilityMatrix')).json.featureCompatabilityMatrix as {
        featureName: string;
        supportedHardware: string[];
        generatedActivities: string[];
      }[];
      const people = matrix.find((f) => f.featureName === 'peopleDetection');
      assert.ok(people?.supportedHardware.includes('CAMERA_R510'));
      assert.deepEqual(people?.generatedActivities, ['MOTION_HUMAN']);
      assert.ok(matrix.find((f) => f.featureName === 'pressure')?.supportedHardware.includes('GATEWAY_ENVIRONMENTAL_E50'));
    });
  });

  describe('camera settings', () => {
    const config = async (uuid = lobby(), key = org.apiKey) => (await call('/api/camera/getConfig', { cameraUuid: uuid }, key)).json.config;

    it('each revert puts its own settings back to the defaults, announced as CAMERA_USER_CONFIG', async () => {
      assertOk(await call('/api/camera/updateConfig', { config: { deviceUuid: lobby(), img_brightness: 70, night_img_brightness: 20, rotation: 180 } }));
      const changes = await changesDuring(server, async () => assertOk(await call('/api/camera/revertDayImageSettingsToDefaults', { cameraUuid: lobby() })));
      assert.deepEqual(
        changes.map((c) => [c.entity, (c.update as { img_brightness: number }).img_brightness]),
        [['CAMERA_USER_CONFIG', 50]],
      );
      let c = await config();
      assert.deepEqual([c.img_brightness, c.night_img_brightness, c.rotation], [50, 20, 180]);
      assertOk(await call('/api/camera/revertNightImageSettingsToDefaults', { cameraUuid: lobby() }));
      c = await config();
      assert.deepEqual([c.night_img_brightness, c.rotation], [50, 180]);
      assertOk(await call('/api/camera/updateCameraAIThresholds', { cameraUuid: lobby(), humanConfidenceThreshold: 0.9 }));
      assertOk(await call('/api/camera/revertCameraSettingsToDefaults', { cameraUuid: lobby() }));
      assert.equal((await config()).rotation, 0);
      assert.equal((await call('/api/camera/getCameraAIThresholds', { cameraUuid: lobby() })).json.humanConfidenceThreshold, 0.9, 'settings only');
    });

    it('the line crossing thresholds set the line in the settings; a point left out turns it off; revertToDefaults clears everything', async () => {
      const changes = await changesDuring(server, async () =>
        assertOk(
          await call('/api/camera/updateCameraLineCrossingThresholds', {
            cameraUuid: `${lobby()}.v0`,
            objectType: 'VEHICLE',
            directions: ['INGRESS'],
            pointA: { x: 0.2, y: 0.5 },
            pointB: { x: 0.8, y: 0.5 },
          }),
        ),
      );
      assert.deepEqual(
        changes.map((c) => c.entity),
        ['CAMERA_USER_CONFIG'],
      );
      let c = await config();
      assert.equal(c.cross_counting, true);
      const [top, bottom] = [
        [
          { x: 0, y: 0 },
          { x: 1, y: 0 },
          { x: 1, y: 0.5 },
          { x: 0, y: 0.5 },
        ],
        [
          { x: 1, y: 0.5 },
          { x: 1, y: 1 },
          { x: 0, y: 1 },
          { x: 0, y: 0.5 },
        ],
      ];
      assert.deepEqual(
        c.cross_counting_settings,
        { object_type: 'VEHICLE', directions: ['INGRESS'], in_roi: [{ coordinates: bottom }], out_roi: [{ coordinates: top }] },
        'the line as the two parts of the image it divides: INGRESS goes top to bottom across a level line',
      );
      for (const body of [{ pointA: { x: 0.95, y: 0.5 } }, { pointB: { x: 0.5, y: 0.05 } }]) {
        const r = await call('/api/camera/updateCameraLineCrossingThresholds', { cameraUuid: lobby(), ...body });
        assert.equal(r.status, 400);
        assert.match(r.json.errorMsg, /point[AB]/);
      }
      assertFails(
        await call('/api/camera/updateCameraLineCrossingThresholds', { cameraUuid: lobby(), pointA: { x: 0.5, y: 0.5 }, pointB: { x: 0.5, y: 0.5 } }),
        'pointB: must differ from pointA',
      );
      assert.equal((await config()).cross_counting, true, 'a refused update changes nothing');
      assertOk(await call('/api/camera/updateCameraLineCrossingThresholds', { cameraUuid: lobby(), pointA: { x: 0.2, y: 0.5 } }));
      c = await config();
      assert.deepEqual([c.cross_counting, 'cross_counting_settings' in c], [false, false]);

      assertOk(
        await call('/api/camera/updateCameraLineCrossingThresholds', {
          cameraUuid: lobby(),
          inverted: true,
          pointA: { x: 0.5, y: 0.2 },
          pointB: { x: 0.5, y: 0.8 },
        }),
      );
      assert.deepEqual(
        (await config()).cross_counting_settings.in_roi[0].coordinates.map((p: { x: number }) => p.x),
        [0, 0.5, 0.5, 0],
        'inverted: INGRESS goes right to left across an upright line, into the left part',
      );
      assertOk(await call('/api/camera/updateCameraLineCrossingThresholds', { cameraUuid: lobby(), pointA: { x: 0.2, y: 0.2 }, pointB: { x: 0.3, y: 0.8 } }));
      assertOk(await call('/api/camera/updateConfig', { config: { deviceUuid: lobby(), hdr_enabled: true, resolution: { width: 1280, height: 720 } } }));
      assert.deepEqual((await config()).resolution, { width: 1280, height: 720 }, "the catalogue's two sides, set and read");
      assertOk(await call('/api/camera/updateConfig', { config: { deviceUuid: lobby(), resolution: '640x360' } }));
      assert.deepEqual((await config()).resolution, { width: 640, height: 360 }, 'WIDTHxHEIGHT is taken too');
      assertOk(await call('/api/camera/revertToDefaults', { cameraUuid: lobby() }));
      c = await config();
      assert.deepEqual([c.cross_counting, c.hdr_enabled, c.resolution], [false, false, { width: 1920, height: 1080 }]);
      assert.equal((await call('/api/camera/getCameraAIThresholds', { cameraUuid: lobby() })).json.humanConfidenceThreshold, 0.5);
    });

    it("another organization's camera answers as an unknown one and keeps its settings", async () => {
      assertOk(await call('/api/camera/updateConfig', { config: { deviceUuid: other.site.cameras.Lobby, img_brightness: 10 } }, other.apiKey));
      for (const op of ['revertCameraSettingsToDefaults', 'revertDayImageSettingsToDefaults', 'revertNightImageSettingsToDefaults', 'revertToDefaults']) {
        assertSameAsMissing(
          await call(`/api/camera/${op}`, { cameraUuid: other.site.cameras.Lobby }),
          await call(`/api/camera/${op}`, { cameraUuid: nobodysUuid() }),
        );
      }
      const line = { pointA: { x: 0.2, y: 0.2 }, pointB: { x: 0.3, y: 0.8 } };
      assertSameAsMissing(
        await call('/api/camera/updateCameraLineCrossingThresholds', { cameraUuid: other.site.cameras.Lobby, ...line }),
        await call('/api/camera/updateCameraLineCrossingThresholds', { cameraUuid: nobodysUuid(), ...line }),
      );
      const theirs = await config(other.site.cameras.Lobby, other.apiKey);
      assert.deepEqual([theirs.img_brightness, theirs.cross_counting], [10, false]);
    });
  });
});

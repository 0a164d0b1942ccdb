import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { seedYaml, watchChanges } from '../../helpers/org-structure.js';
import type { TestOrg } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { fitHomography } from '../../../src/domains/devices/cameras/floorplan-projection.service.js';

const SITE = `
locations: [{name: HQ, latitude: 40.7128, longitude: -74.006}]
cameras:
  - {name: Lobby, location: HQ, serialNumber: CAM-1, firmwareVersion: v2.8.0}
  - {name: Dock, location: HQ, serialNumber: CAM-2, connectionStatus: RED}
sensors:
  - {name: Panic, kind: button, location: HQ}
  - {name: Bell, kind: doorbell, location: HQ}
audioGateways: [{name: Speaker, location: HQ}]
shipments: [{crmOppId: OPP-1, email: buyer@example.com, trackingIdentifier: TRK-1, items: [{name: R510, quantity: 2}]}]
rmas:
  - {name: Cracked lens, camera: Dock, status: APPROVED, zendeskTicket: 4242, warrantyApproved: true}
  - {name: Loose mount, status: PENDING}
`;

/** Project a permyriad point through a 3x3 homography. */
const project = (h: number[][], [x, y]: number[]) => {
  const w = h[2][0] * x + h[2][1] * y + h[2][2];
  return [(h[0][0] * x + h[0][1] * y + h[0][2]) / w, (h[1][0] * x + h[1][1] * y + h[1][2]) / w];
};

forEachDialect('Device upkeep: cameras, buttons, BLE, media devices, TV app, kiosks, logistics', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let other: TestOrg;
  let site: Record<string, Record<string, string>>;
  let theirs: Record<string, Record<string, string>>;
  const api = apiAs(server, () => org.apiKey);
  const them = apiAs(server, () => other.apiKey);
  before(async () => {
    org = await server().createOrg('Upkeep');
    other = await server().createOrg('Elsewhere');
    site = await seedYaml(server(), org.orgUuid, SITE);
    theirs = await seedYaml(
      server(),
      other.orgUuid,
      'locations: [{name: Far}]\ncameras: [{name: Theirs, location: Far}]\nsensors: [{name: TheirButton, kind: button, location: Far}]',
    );
  });
  const lobby = () => site.cameras.Lobby;

  describe('camera upkeep', () => {
    it('updates firmware until the camera reports it done, announced on the stream', async () => {
      const watch = await watchChanges(server(), org.apiKey, org.orgUuid);
      try {
        const started = await api.ok('/api/camera/updateFirmware', { cameraUuid: lobby() });
        assert.equal(started.status, 'UPDATE_STARTED');
        assert.equal((await api.ok('/api/camera/updateFirmware', { cameraUuid: lobby() })).status, 'FIRMWARE_UPDATE_ALREADY_IN_PROGESS');
        assert.equal((await api.ok('/api/camera/updateFirmware', { cameraUuid: site.cameras.Dock })).status, 'UNABLE_TO_REACH_DEVICE');
        const done = await control(server(), '/simulate/firmware', { camera: lobby() });
        assert.equal(done.json.result, 'UPDATED', done.text);
        assert.equal((await api.ok('/api/camera/updateFirmware', { cameraUuid: lobby() })).status, 'ALREADY_ON_THE_LATEST_FIRMWARE');
        const states = (await api.ok('/api/camera/getMinimalCameraStateList')).cameraStates as Array<{ uuid: string; firmwareVersion: string }>;
        assert.equal(states.find((c) => c.uuid === lobby())?.firmwareVersion, 'v2.9.0');
        await watch.waitFor((c) => c.entity === 'CAMERA' && c.entityUuid === lobby() && c.update?.firmwareVersion === 'v2.9.0', 'the updated camera');
      } finally {
        await watch.close();
      }
    });

    it('sends Wi-Fi to online cameras only, signs change tokens, erases, recovers storage and lists offline LAN streams', async () => {
      const wifi = await api.ok('/api/camera/updateWifi', { cameraUuid: lobby(), cameraUuids: [site.cameras.Dock], ssid: 'Guest', password: 'hunter22' });
      assert.deepEqual(wifi.status, { [lobby()]: true, [site.cameras.Dock]: false });
      const token = await api.ok('/api/camera/generateWifiChangeAuthorizationToken', { ssid: 'Guest' });
      assert.ok(Buffer.from(token.authorizationToken, 'base64').toString('utf8').startsWith('v1.'));
      assert.equal(token.userUuid, org.userUuid);
      await api.ok('/api/camera/erase', { cameraUuid: lobby() });
      assert.match(await api.refused('/api/camera/erase', { cameraUuid: site.cameras.Dock }), /offline/);
      const file = await api.ok('/api/camera/getStorageRecoveryFile', { deviceUuid: `${lobby()}.v0` });
      assert.ok(Buffer.from(file.fileContents, 'base64').length > 40);
      const lan = (await api.ok('/api/camera/getOfflineLanStreamingInfo')).info;
      assert.deepEqual(Object.keys(lan).sort(), [`${lobby()}.v0`]);
      assert.ok(lan[`${lobby()}.v0`].accessToken && lan[`${lobby()}.v0`].lanAddresses[0].startsWith('http'));
    });

    it('registers cameras with a batch token and reports each use', async () => {
      const batch = await api.ok('/api/camera/generateBatchRegistrationInfo', { locationUuid: site.locations.HQ, latitude: 40.71, longitude: -74.0 });
      assert.equal(batch.env, 'us');
      for (const serial of ['NEW-1', 'CAM-1']) assert.equal((await control(server(), '/simulate/batch-register', { token: batch.token, serial })).status, 200);
      const uses = (await api.ok('/api/camera/getBatchRegistrationUsage', { token: batch.token, sinceMillis: 0 })).usageList;
      assert.deepEqual(
        uses.map((u: { rs: string }) => u.rs),
        ['REGISTERED', 'ALREADY_REGISTERED'],
      );
      const details = await api.ok('/api/camera/getDetails', { cameraUuids: [uses[0].di] });
      assert.equal(details.cameras[0].locationUuid, site.locations.HQ);
      assert.match(await them.refused('/api/camera/getBatchRegistrationUsage', { token: batch.token }), /not found/);
    });

    it('fits and keeps the floor plan projection of cameras and doorbell cameras', async () => {
      const cameraImagePointsPermyriad = [
        [0, 0],
        [10000, 0],
        [10000, 10000],
        [0, 10000],
        [5000, 5000],
      ];
      const floorplanImagePointsPermyriad = [
        [1000, 1000],
        [4000, 1200],
        [4200, 4000],
        [900, 3800],
        [2500, 2500],
      ];
      const { homography } = await api.ok('/api/camera/calibrateFloorplanProjection', {
        deviceUuid: lobby(),
        cameraImagePointsPermyriad,
        floorplanImagePointsPermyriad,
      });
      const [x, y] = project(homography, [10000, 0]);
      assert.ok(Math.abs(x - 4000) < 150 && Math.abs(y - 1200) < 150, `${x},${y}`);
      assert.ok(
        (
          await api.ok('/api/doorbellcamera/calibrateFloorplanProjection', {
            deviceUuid: site.sensors.Bell,
            cameraImagePointsPermyriad,
            floorplanImagePointsPermyriad,
          })
        ).homography,
      );
      const line = [
        [0, 0],
        [1000, 1000],
        [2000, 2000],
        [3000, 3000],
      ];
      assert.match(
        await api.refused('/api/camera/calibrateFloorplanProjection', {
          deviceUuid: lobby(),
          cameraImagePointsPermyriad: line,
          floorplanImagePointsPermyriad: line,
        }),
        /one line/,
      );
      // The fit maps four exact pairs exactly.
      const h = fitHomography(
        [
          [0, 0],
          [10000, 0],
          [10000, 10000],
          [0, 10000],
        ],
        [
          [0, 0],
          [5000, 0],
          [5000, 5000],
          [0, 5000],
        ],
      );
      assert.deepEqual(project(h, [10000, 10000]).map(Math.round), [5000, 5000]);
    });

    it('answers the cloud archiving config that applies to a camera and how far back it reaches', async () => {
      assert.equal((await api.ok('/api/camera/getCloudArchivingConfig', { deviceUuid: lobby() })).archivingConfig ?? null, null);
      assert.equal((await api.ok('/api/camera/getCloudArchivedMediaInfo', { cameraUuid: lobby() })).oldestArchivedVideoSegmentSecs ?? null, null);
      await api.ok('/api/org/updateCloudArchivingConfig', {
        archivingConfig: { scope: 'LOCATION', targetUuid: site.locations.HQ, uploadStrategy: 'CONTINUOUS' },
      });
      const config = (await api.ok('/api/camera/getCloudArchivingConfig', { deviceUuid: lobby() })).archivingConfig;
      assert.deepEqual([config.scope, config.targetUuid], ['LOCATION', site.locations.HQ]);
      assert.ok((await api.ok('/api/camera/getCloudArchivedMediaInfo', { cameraUuid: lobby() })).oldestArchivedVideoSegmentSecs > 1e9);
    });
  });

  describe('buttons, BLE, media devices, RapidSOS', () => {
    it("sets a button's details, mode and config, read back in its state; test mode fires no rule", async () => {
      const panic = site.sensors.Panic;
      await api.ok('/api/button/updateDetails', {
        sensorUuid: panic,
        name: 'Front desk panic',
        buttonMode: 'PANIC',
        floorNumber: 2,
        associatedCameras: [`${lobby()}.v0`],
      });
      await api.ok('/api/button/updateConfig', {
        configUpdate: { deviceUuid: panic, button_test_mode_enabled: true, button_emergency_onsite_contact: { name: 'Guard', phoneNumber: '+1 555 0100' } },
      });
      const state = (await api.ok('/api/button/getMinimalButtonStateList')).states.find((s: { sensorUuid: string }) => s.sensorUuid === panic);
      assert.deepEqual(
        [state.name, state.buttonMode, state.floorNumber, state.associatedCameras, state.testModeEnabled, state.buttonEmergencyOnsiteContact.name],
        ['Front desk panic', 'PANIC', 2, [`${lobby()}.v0`], true, 'Guard'],
      );
      await api.ok('/api/button/createRuleForButton', { rule: { name: 'Alarm', sensorUuid: panic, triggerPress: 'SINGLE', action: { alertAction: true } } });
      const press = await control(server(), '/simulate/press', { button: panic, press: 'SINGLE' });
      assert.deepEqual(press.json.firings, [], press.text);
      await api.ok('/api/button/updateConfig', { configUpdate: { deviceUuid: panic, button_test_mode_enabled: false } });
      assert.equal((await control(server(), '/simulate/press', { button: panic, press: 'SINGLE' })).json.firings.length, 1);
    });

    it('lists BLE base stations, bulk media details and the feeds near a point', async () => {
      const stations = (await api.ok('/api/ble/getBaseStations')).baseStations;
      for (const d of [lobby(), site.cameras.Dock, site.audioGateways.Speaker, site.sensors.Bell]) assert.ok(stations.includes(d), d);
      assert.ok(!stations.includes(site.sensors.Panic));
      const details = (await api.ok('/api/mediadevice/getBulkMediaDeviceDetails', { devices: [`${lobby()}.v0`, site.sensors.Bell] })).mediaDeviceDetails;
      assert.equal(details[`${lobby()}.v0`].name, 'Lobby');
      assert.equal(details[`${lobby()}.v0`].timezone.id, 'UTC');
      assert.match(details[site.sensors.Bell].wanLiveM3u8Uri, /^http/);
      assert.match(await api.refused('/api/mediadevice/getBulkMediaDeviceDetails', { devices: [theirs.cameras.Theirs] }), /not found/);
      const feeds = (await api.ok('/api/rapidsos/getNearbyFeeds', { latitude: 40.713, longitude: -74.0061, width: 500 })).streamUrls;
      assert.ok(feeds.length >= 3 && feeds.every((u: string) => u.includes('x-auth-ft=')));
      const playlist = await fetch(feeds[0]);
      assert.equal(playlist.status, 200);
      assert.deepEqual((await api.ok('/api/rapidsos/getNearbyFeeds', { latitude: 0, longitude: 0 })).streamUrls, []);
    });
  });

  describe('TV app configs, kiosks, logistics', () => {
    it('keeps TV configs limited to video walls; a deleted wall leaves them', async () => {
      const wall = await api.ok('/api/camera/createVideoWall', { videoWall: { displayName: 'Lobby wall', deviceList: [`${lobby()}.v0`] } });
      const tv = 'TvTvTvTvTvTvTvTvTvTvTv';
      await api.ok('/api/tvos/updateTvOsConfig', { config: { uuid: tv, limitedVideoWallUuids: [wall.uuid] } });
      assert.deepEqual((await api.ok('/api/tvos/getTvOsConfig', { uuid: tv })).config.limitedVideoWallUuids, [wall.uuid]);
      assert.match(await them.refused('/api/tvos/getTvOsConfig', { uuid: tv }), /not found/);
      assert.match(await them.refused('/api/tvos/updateTvOsConfig', { config: { uuid: tv, limitedVideoWallUuids: [wall.uuid] } }), /not found/);
      await api.ok('/api/camera/deleteVideoWall', { uuid: wall.uuid });
      const configs = (await api.ok('/api/tvos/getTvOsConfigsForOrg')).configs;
      assert.deepEqual(configs, [{ uuid: tv, orgUuid: org.orgUuid, limitedVideoWallUuids: [] }]);
    });

    it('updates a kiosk selectively, announced; refuses a location of another organization', async () => {
      const watch = await watchChanges(server(), org.apiKey, org.orgUuid);
      try {
        const kiosk = 'KioskKioskKioskKioskKi';
        await api.ok('/api/kiosk/updateKiosk', { kioskUpdate: { uuid: kiosk, name: 'Lobby iPad', locationUuid: site.locations.HQ, batteryLevel: 80 } });
        await api.ok('/api/kiosk/updateKiosk', {
          kioskUpdate: { uuid: kiosk, name: 'ignored', connectionStatus: 'ONLINE', updatedSetMethodMap: { connectionStatus: true } },
        });
        const change = await watch.waitFor((c) => c.entity === 'KIOSK' && c.update?.connectionStatus === 'ONLINE', 'the kiosk update');
        assert.deepEqual([change.update.name, change.update.locationUuid, change.update.batteryLevel], ['Lobby iPad', site.locations.HQ, 80]);
        const r = await api.call('/api/kiosk/updateKiosk', { kioskUpdate: { uuid: kiosk, locationUuid: theirs.locations.Far } });
        assert.match(r.json.errorMsg, /not found/);
      } finally {
        await watch.close();
      }
    });

    it("answers the organization's RMAs, warranty tickets and shipments, and none of another's", async () => {
      const rmas = (await api.ok('/api/logistics/getRMAs')).rmaList;
      assert.deepEqual(rmas.map((r: { zenDeskTicketSubject: string }) => r.zenDeskTicketSubject).sort(), ['Cracked lens', 'Loose mount']);
      assert.equal(rmas.find((r: { status: string }) => r.status === 'APPROVED').deviceUuid, site.cameras.Dock);
      assert.deepEqual((await api.ok('/api/logistics/getWarrantyApprovedRMAs')).zendeskTickets, [4242]);
      const shipments = (await api.ok('/api/logistics/getShipments', {})).customerShipmentList;
      assert.deepEqual([shipments.length, shipments[0]['ait-carrierTrackingNumber'], shipments[0].shipmentState], [1, 'TRK-1', 'SHIPPED']);
      assert.deepEqual((await api.ok('/api/logistics/getShipments', { startTimeSec: 0, endTimeSec: 1000 })).customerShipmentList, []);
      assert.deepEqual((await them.ok('/api/logistics/getRMAs')).rmaList, []);
    });
  });

  it("answers another organization's cameras, buttons and walls as unknown, changing nothing", async () => {
    const cam = theirs.cameras.Theirs;
    for (const [path, body] of [
      ['/api/camera/updateFirmware', { cameraUuid: cam }],
      ['/api/camera/erase', { cameraUuid: cam }],
      ['/api/camera/updateWifi', { cameraUuid: cam, ssid: 'x' }],
      ['/api/camera/getStorageRecoveryFile', { deviceUuid: cam }],
      ['/api/camera/getCloudArchivingConfig', { deviceUuid: cam }],
      [
        '/api/camera/calibrateFloorplanProjection',
        {
          deviceUuid: cam,
          cameraImagePointsPermyriad: [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
          ],
          floorplanImagePointsPermyriad: [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
          ],
        },
      ],
      ['/api/button/updateDetails', { sensorUuid: theirs.sensors.TheirButton, name: 'Mine' }],
      ['/api/button/updateConfig', { configUpdate: { deviceUuid: theirs.sensors.TheirButton, button_test_mode_enabled: true } }],
    ] as const) {
      assert.match(await api.refused(path, body), /not found/, path);
    }
    const theirState = (await them.ok('/api/button/getMinimalButtonStateList')).states[0];
    assert.deepEqual([theirState.name, theirState.testModeEnabled], ['TheirButton', false]);
  });
});

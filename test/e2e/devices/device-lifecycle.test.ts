import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, changesDuring, createSiteOrg, nobodysUuid, type SiteOrg } from '../config/config-site.js';
import { control } from '../control/admin.js';
import { assertFails, assertOk } from '../../helpers/api.js';

/** A site with a device of each kind these operations update, delete or reboot. */
const SITE = {
  locations: [
    { name: 'HQ', timeZone: 'America/New_York' },
    { name: 'Annex', timeZone: 'Europe/Berlin' },
  ],
  cameras: [
    { name: 'Lobby', location: 'HQ' },
    { name: 'Dock', location: 'HQ' },
  ],
  sensors: [
    { name: 'Air', kind: 'climate', location: 'HQ' },
    { name: 'E50', kind: 'environmentalGateway', location: 'HQ' },
    { name: 'Back Door', kind: 'door', location: 'HQ' },
    { name: 'Room 1', kind: 'occupancy', location: 'HQ' },
    { name: 'Forklift', kind: 'tag', location: 'HQ' },
    { name: 'Reader', kind: 'badgeReader', location: 'HQ' },
    { name: 'Front Bell', kind: 'doorbell', location: 'HQ' },
  ],
  audioGateways: [{ name: 'PA', location: 'HQ' }],
  doors: [{ name: 'Front Door', location: 'HQ', cameras: ['Lobby', 'Dock'] }],
};

forEachDialect('device details updates, deletes and reboots', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Devices Org', SITE);
    other = await createSiteOrg(server, 'Other Org', SITE);
  });
  after(() => server.close());
  const call = (path: string, body: object = {}, key = org.apiKey) => server.call(path, body, { key });
  const sensor = (name: string, o: SiteOrg = org) => o.site.sensors[name];
  const find = <T extends { [k: string]: unknown }>(list: T[], key: string, uuid: string) => list.find((x) => x[key] === uuid);

  it('every operation requires authentication', async () => {
    for (const path of [
      '/api/climate/updateDetails',
      '/api/climate/updateEnvironmentalGatewayDetails',
      '/api/occupancy/updateDetails',
      '/api/proximity/updateDetails',
      '/api/door/updateDetails',
      '/api/audiogateway/updateDetails',
      '/api/camera/delete',
      '/api/audiogateway/delete',
      '/api/badgereader/delete',
      '/api/climate/deleteEnvironmentalGateway',
      '/api/doorbellcamera/delete',
      '/api/climate/reboot',
      '/api/badgereader/reboot',
    ]) {
      assert.equal((await call(path, {}, '')).status, 401, path);
    }
  });

  describe('details updates', () => {
    const kinds = [
      ['/api/climate/updateDetails', 'Air', 'ENVIRONMENTAL_SENSOR', '/api/climate/getMinimalClimateStateList', 'climateStates', 'sensorUuid'],
      [
        '/api/climate/updateEnvironmentalGatewayDetails',
        'E50',
        'ENVIRONMENTAL_GATEWAY',
        '/api/climate/getMinimalEnvironmentalGatewayStates',
        'minimalEnvironmentalGatewayStates',
        'deviceUuid',
      ],
      [
        '/api/occupancy/updateDetails',
        'Room 1',
        'OCCUPANCY_SENSOR',
        '/api/occupancy/getMinimalOccupancySensorStateList',
        'occupancySensorStates',
        'sensorUuid',
      ],
      ['/api/door/updateDetails', 'Back Door', 'DOOR_SENSOR', '/api/door/getMinimalDoorStateList', 'doorStates', 'sensorUuid'],
    ] as const;
    for (const [path, name, entity, list, field, key] of kinds) {
      it(`${path} sets the flagged fields, announces the ${entity}, and its state list follows`, async () => {
        const uuid = sensor(name);
        const changes = await changesDuring(server, async () =>
          assertOk(
            await call(path, {
              uuid,
              name: `${name} (moved)`,
              nameUpdated: true,
              description: 'ignored',
              descriptionUpdated: false,
              locationUuid: org.site.locations.Annex,
              locationUuidUpdated: true,
              floorNumber: 3,
              floorNumberUpdated: true,
              associatedCameras: [`${org.site.cameras.Lobby}.v0`],
              associatedCamerasUpdated: true,
            }),
          ),
        );
        assert.deepEqual(
          changes.map((c) => [c.entity, c.type, c.entityUuid, (c.update as { name: string }).name]),
          [[entity, 'UPDATE', uuid, `${name} (moved)`]],
        );
        const state = find((await call(list)).json[field], key, uuid) as Record<string, unknown>;
        assert.deepEqual([state.name, state.locationUuid], [`${name} (moved)`, org.site.locations.Annex]);
        if (key === 'sensorUuid') assert.deepEqual([state.floorNumber, state.associatedCameras], [3, [`${org.site.cameras.Lobby}.v0`]]);
      });
    }

    it('audio gateways and tags keep their own fields (a tag its image)', async () => {
      const pa = org.site.audioGateways.PA;
      assertOk(await call('/api/audiogateway/updateDetails', { uuid: pa, name: 'Paging', nameUpdated: true, latitude: 40.7, latitudeUpdated: true }));
      assert.equal(find((await call('/api/audiogateway/getMinimalAudioGatewayStateList')).json.audioGatewayStates, 'uuid', pa)?.name, 'Paging');
      const tag = sensor('Forklift');
      const changes = await changesDuring(server, async () =>
        assertOk(
          await call('/api/proximity/updateDetails', {
            uuid: tag,
            name: 'Forklift 7',
            nameUpdated: true,
            imageUrl: 'https://example.com/f.png',
            imageUrlUpdated: true,
          }),
        ),
      );
      assert.deepEqual(
        changes.map((c) => [c.entity, (c.update as { attributes: { imageUrl: string } }).attributes.imageUrl]),
        [['BLE_TRACKER', 'https://example.com/f.png']],
      );
      assert.equal(find((await call('/api/proximity/getMinimalProximityStateList')).json.proximityStates, 'tagUuid', tag)?.name, 'Forklift 7');
    });

    it('refuses a value out of range naming the field, and changes nothing', async () => {
      for (const [f, v] of [
        ['latitude', 91],
        ['longitude', -181],
        ['floorNumber', 10_000],
      ] as const) {
        const r = await call('/api/climate/updateDetails', { uuid: sensor('Air'), [f]: v, [`${f}Updated`]: true });
        assert.equal(r.status, 400, f);
        assert.match(r.json.errorMsg, new RegExp(f));
      }
      const r = await call('/api/proximity/updateDetails', { uuid: sensor('Forklift'), imageUrl: 'not a url', imageUrlUpdated: true });
      assert.equal(r.status, 400);
      assert.match(r.json.errorMsg, /imageUrl/);
      assertFails(await call('/api/door/updateDetails', { uuid: sensor('Back Door'), name: '  ', nameUpdated: true }), 'name: must not be empty');
      const state = find((await call('/api/door/getMinimalDoorStateList')).json.doorStates, 'sensorUuid', sensor('Back Door')) as Record<string, unknown>;
      assert.equal(state.name, 'Back Door (moved)');
    });

    it("answers another organization's device, location or camera as unknown ones, and changes nothing", async () => {
      assertSameAsMissing(
        await call('/api/climate/updateDetails', { uuid: sensor('Air', other), name: 'x', nameUpdated: true }),
        await call('/api/climate/updateDetails', { uuid: nobodysUuid(), name: 'x', nameUpdated: true }),
      );
      assertSameAsMissing(
        await call('/api/occupancy/updateDetails', { uuid: sensor('Room 1'), associatedCameras: [other.site.cameras.Lobby], associatedCamerasUpdated: true }),
        await call('/api/occupancy/updateDetails', { uuid: sensor('Room 1'), associatedCameras: [nobodysUuid()], associatedCamerasUpdated: true }),
      );
      assertFails(
        await call('/api/door/updateDetails', { uuid: sensor('Back Door'), locationUuid: other.site.locations.HQ, locationUuidUpdated: true }),
        'Location not found',
      );
      assertFails(await call('/api/climate/updateDetails', { uuid: sensor('Back Door'), name: 'x', nameUpdated: true }), 'Climate sensor not found');
      const theirs = find((await call('/api/climate/getMinimalClimateStateList', {}, other.apiKey)).json.climateStates, 'sensorUuid', sensor('Air', other));
      assert.equal(theirs?.name, 'Air');
    });
  });

  describe('deletes', () => {
    it('a deleted camera is gone from every list and every record that named it, in one change set on the stream', async () => {
      const lobby = org.site.cameras.Lobby;
      const wall = await call('/api/camera/createVideoWall', { videoWall: { displayName: 'Ops', deviceList: [`${lobby}.v0`, `${org.site.cameras.Dock}.v0`] } });
      assertOk(wall);
      const rule = await call('/api/rules/createRule', {
        rule: {
          name: 'Lobby motion',
          triggers: [{ type: 'DEVICE_ACTIVITY_EVENT', activityEvent: { activityEvent: 'MOTION_HUMAN' }, deviceUuids: [lobby] }],
          action: { alertAction: true },
        },
      });
      assertOk(rule);
      const kept = await call('/api/rules/createRule', {
        rule: {
          name: 'Both',
          triggers: [{ type: 'DEVICE_ACTIVITY_EVENT', activityEvent: { activityEvent: 'MOTION_HUMAN' }, deviceUuids: [lobby, org.site.cameras.Dock] }],
          action: { alertAction: true },
        },
      });
      assertOk(kept);
      const share = await call('/api/camera/createSharedLiveVideoStream', { cameraUuid: lobby });
      assertOk(share);
      const raw = await call('/api/camera/createRawHttpStream', { deviceUuid: lobby, rawStreamName: 'NVR', streamType: 'USER' });
      assertOk(raw);
      const changes = await changesDuring(server, async () => {
        const r = await call('/api/camera/delete', { cameraUuid: lobby, mummify: false });
        assertOk(r);
        assert.equal(r.json.responseStatus, 'SUCCESS');
      });
      const seen = changes.map((c) => `${c.entity}:${c.type}`).sort();
      for (const expected of [
        'CAMERA:DELETE',
        'VIDEO_WALL:UPDATE',
        'DOOR:UPDATE',
        'RULE:DELETE',
        'RULE:UPDATE',
        'ENVIRONMENTAL_SENSOR:UPDATE',
        'OCCUPANCY_SENSOR:UPDATE',
        'DOOR_SENSOR:UPDATE',
        'SHARED_LIVE_VIDEO_STREAM:DELETE',
        'RAW_HTTP_STREAM:DELETE',
      ]) {
        assert.ok(seen.includes(expected), `${expected} in ${seen.join(', ')}`);
      }
      assert.equal(new Set(changes.map((c) => c.id)).size, changes.length);

      assert.ok(!(await call('/api/camera/getMinimalCameraStateList')).json.cameraStates.some((c: { uuid: string }) => c.uuid === lobby));
      assertFails(await call('/api/camera/getDetailsV2', { cameraUuid: lobby }), 'Camera not found');
      const walls = (await call('/api/camera/getVideoWalls')).json.videoWalls as { displayName: string; deviceList: string[] }[];
      assert.deepEqual(find(walls, 'displayName', 'Ops')?.deviceList, [`${org.site.cameras.Dock}.v0`]);
      const doors = (await call('/api/component/findAccessControlledDoors', {})).json.accessControlledDoors as { associatedCameras: string[] }[];
      assert.deepEqual(doors[0].associatedCameras, [`${org.site.cameras.Dock}.v0`]);
      const rules = (await call('/api/rules/getRulesForOrg')).json.rules as { uuid: string; triggers: { deviceUuids: string[] }[] }[];
      assert.equal(find(rules, 'uuid', rule.json.ruleUuid), undefined, 'a rule that watched only the camera is deleted');
      assert.deepEqual(find(rules, 'uuid', kept.json.ruleUuid)?.triggers[0].deviceUuids, [org.site.cameras.Dock]);
      const air = find((await call('/api/climate/getMinimalClimateStateList')).json.climateStates, 'sensorUuid', sensor('Air')) as {
        associatedCameras: string[];
      };
      assert.deepEqual(air.associatedCameras, []);
      const shares = (await call('/api/camera/findAllSharedLiveVideoStreams')).json.sharedLiveVideoStreams as { uuid: string }[];
      assert.equal(find(shares, 'uuid', share.json.sharedLiveVideoStreamUuid), undefined, "the camera's live link is deleted with it");
      assert.equal((await fetch(share.json.sharedLiveVideoStreamUrl)).status, 404);
      assert.equal((await call('/api/camera/findAllRawHttpStreams')).json.rawHttpStreams?.length ?? 0, 0, "the camera's raw stream is deleted with it");
      assertFails(await call('/api/camera/delete', { cameraUuid: lobby }), 'Camera not found');
    });

    const deletes = [
      [
        '/api/audiogateway/delete',
        'gatewayUuid',
        (o: SiteOrg) => o.site.audioGateways.PA,
        'AUDIO_GATEWAY',
        '/api/audiogateway/getMinimalAudioGatewayStateList',
        'audioGatewayStates',
        'uuid',
      ],
      ['/api/badgereader/delete', 'badgeReaderUuid', (o: SiteOrg) => sensor('Reader', o), 'BADGE_READER', null, null, null],
      [
        '/api/climate/deleteEnvironmentalGateway',
        'deviceUuid',
        (o: SiteOrg) => sensor('E50', o),
        'ENVIRONMENTAL_GATEWAY',
        '/api/climate/getMinimalEnvironmentalGatewayStates',
        'minimalEnvironmentalGatewayStates',
        'deviceUuid',
      ],
      [
        '/api/doorbellcamera/delete',
        'doorbellCameraUuid',
        (o: SiteOrg) => sensor('Front Bell', o),
        'DOORBELL_CAMERA',
        '/api/doorbellcamera/getMinimalStateList',
        'doorbellCameraStates',
        'uuid',
      ],
    ] as const;
    for (const [path, idField, uuidOf, entity, list, field, key] of deletes) {
      it(`${path} deletes the device and announces its DELETE; another organization's answers as an unknown one`, async () => {
        assertSameAsMissing(await call(path, { [idField]: uuidOf(other), mummify: true }), await call(path, { [idField]: nobodysUuid(), mummify: true }));
        assertFails(await call(path, { [idField]: org.site.cameras.Dock, mummify: true }), /not found$/);
        const uuid = uuidOf(org);
        const changes = await changesDuring(server, async () => assertOk(await call(path, { [idField]: uuid, mummify: true })));
        assert.deepEqual(
          changes.filter((c) => c.entityUuid === uuid).map((c) => [c.entity, c.type]),
          [[entity, 'DELETE']],
        );
        const features = await call('/api/feature/getDeviceFeatures', { deviceUuid: uuid });
        assertFails(features, 'Device not found');
        assertOk(await call('/api/feature/getDeviceFeatures', { deviceUuid: uuidOf(other) }, other.apiKey));
        if (list) {
          assert.equal(find((await call(list)).json[field!], key!, uuid), undefined);
          assert.ok(find((await call(list, {}, other.apiKey)).json[field!], key!, uuidOf(other)));
        }
      });
    }
  });

  describe('reboots', () => {
    for (const [path, idField, name, entity, activities] of [
      ['/api/climate/reboot', 'environmentalGatewayUuid', 'E50', 'CLIMATE_STATE', ['GATEWAY_DISCONNECTED', 'GATEWAY_CONNECTED']],
      ['/api/badgereader/reboot', 'badgeReaderUuid', 'Reader', 'DEVICE', ['BADGE_READER_DISCONNECTED', 'BADGE_READER_CONNECTED']],
    ] as const) {
      it(`${path}: the device goes offline and comes back, on the stream and in its connection history`, async () => {
        const uuid = sensor(name, other);
        const since = Date.now();
        const online = (c: { update: unknown }) => {
          const u = c.update as { connectionStatus?: string; connected?: boolean };
          return u.connected ?? u.connectionStatus === 'GREEN';
        };
        const changes = await changesDuring(server, async () => {
          const r = await call(path, { [idField]: uuid }, other.apiKey);
          assertOk(r);
          assert.equal(r.json.result, 'REBOOT_SENT');
          for (let i = 0; i < 100; i++) {
            const feed = (await call('/api/report/getDiagnosticFeed', { timestampMsAfter: since }, other.apiKey)).json.diagnosticEvents as {
              deviceUuid: string;
            }[];
            if (feed.filter((e) => e.deviceUuid === uuid).length >= 2) break;
            await sleep(200);
          }
        });
        assert.deepEqual(
          changes.filter((c) => c.entityUuid === uuid).map((c) => [c.entity, online(c)]),
          [
            [entity, false],
            [entity, true],
          ],
        );
        const feed = (await call('/api/report/getDiagnosticFeed', { timestampMsAfter: since }, other.apiKey)).json.diagnosticEvents as {
          deviceUuid: string;
          activity: string;
        }[];
        assert.deepEqual(
          feed
            .filter((e) => e.deviceUuid === uuid)
            .map((e) => e.activity)
            .reverse(),
          [...activities],
          'newest first: offline, then back online',
        );
        assertSameAsMissing(await call(path, { [idField]: uuid }), await call(path, { [idField]: nobodysUuid() }));
      });
    }

    it('an offline device is not sent the command', async () => {
      const uuid = sensor('Reader', other);
      const r = await control(server, '/simulate/connection', { device: uuid, offline: true });
      assert.equal(r.json?.error, false, r.text);
      assert.equal((await call('/api/badgereader/reboot', { badgeReaderUuid: uuid }, other.apiKey)).json.result, 'DEVICE_OFFLINE');
    });
  });
});

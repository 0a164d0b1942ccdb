import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, changesDuring, createSiteOrg, nobodysUuid, type SiteOrg } from '../config/config-site.js';
import { control } from '../control/admin.js';
import { assertFails, assertOk } from '../../helpers/api.js';

/** A site with one device of every sensor kind. */
const SENSOR_SITE = {
  locations: [{ name: 'HQ', timeZone: 'America/New_York' }],
  cameras: [{ name: 'Lobby', location: 'HQ' }],
  sensors: [
    { name: 'Air', kind: 'climate', location: 'HQ', thresholds: { tempC: 30 } },
    { name: 'E50', kind: 'environmentalGateway', location: 'HQ' },
    { name: 'Back Door', kind: 'door', location: 'HQ' },
    { name: 'Room 1', kind: 'occupancy', location: 'HQ' },
    { name: 'Forklift', kind: 'tag', location: 'HQ' },
    { name: 'Reader', kind: 'badgeReader', location: 'HQ' },
    { name: 'Alarm Pad', kind: 'keypad', location: 'HQ' },
    { name: 'Front Bell', kind: 'doorbell', location: 'HQ' },
  ],
  audioGateways: [{ name: 'PA', location: 'HQ' }],
};

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);

forEachDialect('sensors', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Sensor Org', SENSOR_SITE);
    other = await createSiteOrg(server, 'Other Org', SENSOR_SITE);
  });
  after(() => server.close());
  const call = (path: string, body: object = {}, key = org.apiKey) => server.call(path, body, { key });
  const simulate = async (event: string, flags: object) => {
    const r = await control(server, `/simulate/${event}`, flags);
    assert.equal(r.json?.error, false, r.text);
    return r.json;
  };
  const sensor = (name: string, o: SiteOrg = org) => o.site.sensors[name];

  it('every operation requires authentication', async () => {
    for (const path of [
      '/api/climate/getMinimalClimateStateList',
      '/api/climate/getClimateEventsForSensor',
      '/api/climate/getMinimalEnvironmentalGatewayStates',
      '/api/climate/getEventsForEnvironmentalGateway',
      '/api/door/getMinimalDoorStateList',
      '/api/door/getDoorEventsForSensor',
      '/api/occupancy/getMinimalOccupancySensorStateList',
      '/api/occupancy/getOccupancyEventsForSensor',
      '/api/proximity/getMinimalProximityStateList',
      '/api/proximity/getProximityEventsForTag',
      '/api/proximity/getLocomotionEventsForTag',
      '/api/keypad/getKeypadsForOrg',
      '/api/audiogateway/getMinimalAudioGatewayStateList',
      '/api/audiogateway/getConfig',
      '/api/audiogateway/updateConfig',
      '/api/doorbellcamera/getMinimalStateList',
      '/api/doorbellcamera/findComponentEventsForDoorbellCamera',
      '/api/feature/getDeviceFeatures',
      '/api/feature/updateDeviceFeatures',
    ]) {
      assert.equal((await call(path, {}, '')).status, 401, path);
    }
  });

  describe('climate sensors', () => {
    it('a reading shows in the state list and the history, is announced as CLIMATE_STATE, and one above a threshold raises a policy alert', async () => {
      const air = sensor('Air');
      const changes = await changesDuring(server, async () => {
        await simulate('climate', { sensor: air, temp: 21.5, humidity: 40, co2: 650, battery: 90, at: T0 });
        const hot = await simulate('climate', { sensor: air, temp: 31, at: T0 + 60_000 });
        assert.deepEqual(hot.event.alertActivities, ['TEMPERATURE_EXCEEDED_HIGH']);
        assert.equal(hot.policyAlert.deviceUuid, air);
      });
      assert.deepEqual(
        changes.filter((c) => c.entity === 'CLIMATE_STATE').map((c) => [c.entityUuid, (c.update as { temperatureCelcius: number }).temperatureCelcius]),
        [
          [air, 21.5],
          [air, 31],
        ],
      );
      assert.ok(
        changes.some((c) => c.entity === 'POLICY_ALERT'),
        'the threshold crossing raised a policy alert',
      );

      const list = await call('/api/climate/getMinimalClimateStateList');
      assertOk(list);
      assert.equal(list.json.climateStates.length, 1);
      const state = list.json.climateStates[0];
      assert.equal(state.sensorUuid, air);
      assert.equal(state.name, 'Air');
      assert.equal(state.temperatureCelcius, 31);
      assert.equal(state.humidity, 40, 'a reading the last event did not carry keeps its value');
      assert.equal(state.batteryPercent, 90);
      assert.equal(state.lastSeenSec, Math.floor((T0 + 60_000) / 1000));

      const events = await call('/api/climate/getClimateEventsForSensor', { sensorUuid: air });
      assertOk(events);
      assert.deepEqual(
        events.json.climateEvents.map((e: { timestampMs: number; temp: number }) => [e.timestampMs, e.temp]),
        [
          [T0 + 60_000, 31],
          [T0, 21.5],
        ],
      );
      assert.equal(events.json.climateEvents[1].co2, 650);
      assert.equal(events.json.climateEvents[1].orgUuid, org.orgUuid);
    });

    it('pages the history newest first with limit and createdBeforeMs, and filters by createdAfterMs', async () => {
      const air = sensor('Air', other);
      for (let i = 0; i < 7; i++) await simulate('climate', { sensor: air, temp: 20 + i, at: T0 + i * 1000 });
      const seen: number[] = [];
      let before: number | undefined;
      for (let page = 0; page < 10; page++) {
        const r = await call(
          '/api/climate/getClimateEventsForSensor',
          { sensorUuid: air, limit: 3, ...(before ? { createdBeforeMs: before } : {}) },
          other.apiKey,
        );
        assertOk(r);
        const ts = r.json.climateEvents.map((e: { timestampMs: number }) => e.timestampMs);
        assert.ok(ts.length <= 3);
        seen.push(...ts);
        if (ts.length < 3) break;
        before = ts[ts.length - 1];
      }
      assert.deepEqual(
        seen,
        [6, 5, 4, 3, 2, 1, 0].map((i) => T0 + i * 1000),
      );
      const recent = await call('/api/climate/getClimateEventsForSensor', { sensorUuid: air, createdAfterMs: T0 + 5000 }, other.apiKey);
      assert.deepEqual(
        recent.json.climateEvents.map((e: { temp: number }) => e.temp),
        [26, 25],
      );
      assertFails(
        await call('/api/climate/getClimateEventsForSensor', { sensorUuid: air, createdAfterMs: 10, createdBeforeMs: 5 }, other.apiKey),
        'createdAfterMs must be before createdBeforeMs',
      );
    });

    it("answers another organization's sensor exactly as a missing one, and a device of another kind as missing", async () => {
      assertSameAsMissing(
        await call('/api/climate/getClimateEventsForSensor', { sensorUuid: sensor('Air', other) }),
        await call('/api/climate/getClimateEventsForSensor', { sensorUuid: nobodysUuid() }),
      );
      assertFails(await call('/api/climate/getClimateEventsForSensor', { sensorUuid: sensor('Back Door') }), 'Climate sensor not found');
    });

    it('the simulator refuses an event without readings, and a device of another kind', async () => {
      const none = await control(server, '/simulate/climate', { sensor: sensor('Air') });
      assert.equal(none.json.error, true);
      assert.match(none.json.errorMsg, /give at least one reading/);
      const wrong = await control(server, '/simulate/climate', { sensor: sensor('Back Door'), temp: 20 });
      assert.equal(wrong.json.errorMsg, 'Climate sensor not found');
    });
  });

  describe('environmental gateways', () => {
    it('readings show in the state list and in keyset pages of events', async () => {
      const e50 = sensor('E50');
      for (let i = 0; i < 5; i++)
        await simulate('gateway', { device: e50, tempC: 20 + i, co2Ppm: 500 + i, pm2p5: 3, vapeDetected: i === 4, at: T0 + i * 1000 });
      const list = await call('/api/climate/getMinimalEnvironmentalGatewayStates');
      assertOk(list);
      const [state] = list.json.minimalEnvironmentalGatewayStates;
      assert.equal(state.deviceUuid, e50);
      assert.equal(state.tempC, 24);
      assert.equal(state.co2Ppm, 504);
      assert.equal(state.vapeDetected, true);
      assert.equal(state.connected, true);

      const seen: number[] = [];
      let lastEvaluatedKey: string | undefined;
      for (let page = 0; page < 10; page++) {
        const r = await call('/api/climate/getEventsForEnvironmentalGateway', {
          deviceUuid: e50,
          maxPageSize: 2,
          ...(lastEvaluatedKey ? { lastEvaluatedKey } : {}),
        });
        assertOk(r);
        seen.push(...r.json.events.map((e: { co2Sense: { tempC: number } }) => e.co2Sense.tempC));
        if (!r.json.lastEvaluatedKey) break;
        lastEvaluatedKey = r.json.lastEvaluatedKey;
      }
      assert.deepEqual(seen, [24, 23, 22, 21, 20]);
      assertFails(
        await call('/api/climate/getEventsForEnvironmentalGateway', { deviceUuid: e50, lastEvaluatedKey: 'nonsense' }),
        'lastEvaluatedKey: not a key this operation answered',
      );
    });
  });

  describe('door sensors', () => {
    it('positions show in the state list and the history, with stateChanged and the state filter', async () => {
      const door = sensor('Back Door');
      const changes = await changesDuring(server, async () => {
        await simulate('door-sensor', { sensor: door, state: 'OPEN', at: T0 });
        await simulate('door-sensor', { sensor: door, state: 'OPEN', at: T0 + 1000 });
        await simulate('door-sensor', { sensor: door, state: 'CLOSED', at: T0 + 2000 });
      });
      assert.deepEqual(
        changes.filter((c) => c.entity === 'DOOR_STATE').map((c) => (c.update as { status: string }).status),
        ['OPEN', 'OPEN', 'CLOSED'],
      );
      const list = await call('/api/door/getMinimalDoorStateList');
      assert.deepEqual(
        list.json.doorStates.map((s: { sensorUuid: string; status: string }) => [s.sensorUuid, s.status]),
        [[door, 'CLOSED']],
      );
      const events = await call('/api/door/getDoorEventsForSensor', { sensorUuid: door });
      assert.deepEqual(
        events.json.doorEvents.map((e: { state: string; stateChanged: boolean }) => [e.state, e.stateChanged]),
        [
          ['CLOSED', true],
          ['OPEN', false],
          ['OPEN', true],
        ],
      );
      const open = await call('/api/door/getDoorEventsForSensor', { sensorUuid: door, stateFilter: 'OPEN' });
      assert.equal(open.json.doorEvents.length, 2);
      assert.deepEqual(
        (await call('/api/door/getMinimalDoorStateList', {}, other.apiKey)).json.doorStates[0].status,
        'CLOSED',
        "another organization's sensor is untouched",
      );
    });

    it('answers a malformed body with 400', async () => {
      for (const body of [{}, { sensorUuid: 'x' }, { sensorUuid: sensor('Back Door'), stateFilter: 'WIDE' }, { sensorUuid: sensor('Back Door'), limit: 0 }]) {
        assert.equal((await call('/api/door/getDoorEventsForSensor', body)).status, 400, JSON.stringify(body));
      }
      const bad = await control(server, '/simulate/door-sensor', { sensor: sensor('Back Door'), state: 'WIDE' });
      assert.equal(bad.status, 400);
    });
  });

  describe('occupancy sensors', () => {
    it('states show in the state list and the history', async () => {
      const room = sensor('Room 1');
      await simulate('occupancy', { sensor: room, state: 'MOVEMENT', lux: 300, at: T0 });
      await simulate('occupancy', { sensor: room, state: 'OCCUPIED', lux: 250, at: T0 + 1000 });
      const [state] = (await call('/api/occupancy/getMinimalOccupancySensorStateList')).json.occupancySensorStates;
      assert.deepEqual([state.sensorUuid, state.status, state.rawLux], [room, 'OCCUPIED', 250]);
      const events = await call('/api/occupancy/getOccupancyEventsForSensor', { sensorUuid: room, limit: 1 });
      assert.deepEqual(
        events.json.events.map((e: { state: string; lux: number }) => [e.state, e.lux]),
        [['OCCUPIED', 250]],
      );
    });
  });

  describe('proximity tags', () => {
    it('status and movement events show in the state list and both histories', async () => {
      const tag = sensor('Forklift');
      const changes = await changesDuring(server, async () => {
        await simulate('tag', { tag, status: 'ACTIVE', movement: 'ARRIVAL', lat: 40.7, lon: -74, at: T0 });
        await simulate('tag', { tag, status: 'STATIONARY', at: T0 + 1000 });
      });
      assert.deepEqual(changes.filter((c) => c.entity === 'PROXIMITY_STATE').length, 3);
      const [state] = (await call('/api/proximity/getMinimalProximityStateList')).json.proximityStates;
      assert.equal(state.tagUuid, tag);
      assert.equal(state.status, 'STATIONARY');
      assert.deepEqual(state.gpsLocation, { lat: 40.7, lon: -74, floor: null });
      const statuses = await call('/api/proximity/getProximityEventsForTag', { tagUuid: tag });
      assert.deepEqual(
        statuses.json.proximityEvents.map((e: { status: string }) => e.status),
        ['STATIONARY', 'ACTIVE'],
      );
      const active = await call('/api/proximity/getProximityEventsForTag', { tagUuid: tag, statusFilter: 'ACTIVE' });
      assert.deepEqual(
        active.json.proximityEvents.map((e: { startTimeMs: number }) => e.startTimeMs),
        [T0],
      );
      const moves = await call('/api/proximity/getLocomotionEventsForTag', { tagUuid: tag });
      assert.deepEqual(
        moves.json.locomotionEvents.map((e: { movement: string; tagUuid: string }) => [e.movement, e.tagUuid]),
        [['ARRIVAL', tag]],
      );
      const none = await control(server, '/simulate/tag', { tag });
      assert.match(none.json.errorMsg, /give --status, --movement or both/);
    });
  });

  describe('keypads', () => {
    it('lists keypads with their location, and going offline shows and is announced', async () => {
      const pad = sensor('Alarm Pad');
      const changes = await changesDuring(server, () => simulate('keypad', { keypad: pad, offline: true }));
      assert.deepEqual(
        changes.map((c) => [c.entity, (c.update as { connectionState: string }).connectionState]),
        [['KEYPAD', 'OFFLINE']],
      );
      const [keypad] = (await call('/api/keypad/getKeypadsForOrg')).json.keypads;
      assert.deepEqual(
        [keypad.uuid, keypad.name, keypad.locationName, keypad.tz, keypad.connectionState],
        [pad, 'Alarm Pad', 'HQ', 'America/New_York', 'OFFLINE'],
      );
      assert.equal((await call('/api/keypad/getKeypadsForOrg', {}, other.apiKey)).json.keypads[0].connectionState, 'ONLINE');
      assert.equal((await control(server, '/simulate/keypad', { keypad: pad })).json.errorMsg, 'keypad: give one of --online or --offline');
    });
  });

  describe('audio gateways', () => {
    it('lists gateways, keeps the audio settings, and refuses a value out of range naming the field', async () => {
      const pa = org.site.audioGateways.PA;
      const [state] = (await call('/api/audiogateway/getMinimalAudioGatewayStateList')).json.audioGatewayStates;
      assert.deepEqual([state.uuid, state.name, state.connectionStatus], [pa, 'PA', 'GREEN']);
      const before = await call('/api/audiogateway/getConfig', { audioGatewayUuid: pa });
      assertOk(before);
      assert.equal(before.json.config.audio_internal_speaker_volume, 50);
      const changes = await changesDuring(server, async () =>
        assertOk(await call('/api/audiogateway/updateConfig', { uuid: pa, audioInternalSpeakerVolume: 80, audioRecord: false })),
      );
      assert.deepEqual(
        changes.map((c) => c.entity),
        ['AUDIO_STATE'],
      );
      const afterUpdate = (await call('/api/audiogateway/getConfig', { audioGatewayUuid: pa })).json.config;
      assert.equal(afterUpdate.audio_internal_speaker_volume, 80);
      assert.equal(afterUpdate.audio_record, false);
      assert.equal(afterUpdate.audio_internal_mic_volume, 50);

      const tooLoud = await call('/api/audiogateway/updateConfig', { uuid: pa, audioInternalSpeakerVolume: 101 });
      assert.equal(tooLoud.status, 400);
      assert.match(tooLoud.json.errorMsg, /audioInternalSpeakerVolume/);
      assert.equal((await call('/api/audiogateway/getConfig', { audioGatewayUuid: pa })).json.config.audio_internal_speaker_volume, 80);

      const theirs = other.site.audioGateways.PA;
      assertSameAsMissing(
        await call('/api/audiogateway/updateConfig', { uuid: theirs, audioRecord: false }),
        await call('/api/audiogateway/updateConfig', { uuid: nobodysUuid(), audioRecord: false }),
      );
      assert.equal((await call('/api/audiogateway/getConfig', { audioGatewayUuid: theirs }, other.apiKey)).json.config.audio_record, true);
    });

    it('a gateway going offline shows as RED and is announced as AUDIO_STATE', async () => {
      const pa = other.site.audioGateways.PA;
      const changes = await changesDuring(server, () => simulate('connection', { device: pa, offline: true }));
      assert.deepEqual(
        changes.map((c) => [c.entity, (c.update as { connectionStatus: string }).connectionStatus]),
        [['AUDIO_STATE', 'RED']],
      );
      assert.equal((await call('/api/audiogateway/getMinimalAudioGatewayStateList', {}, other.apiKey)).json.audioGatewayStates[0].connectionStatus, 'RED');
    });
  });

  describe('doorbell cameras', () => {
    it('a press is a DoorbellEvent in its component events, announced on the stream', async () => {
      const bell = sensor('Front Bell');
      const [state] = (await call('/api/doorbellcamera/getMinimalStateList')).json.doorbellCameraStates;
      assert.deepEqual([state.uuid, state.name], [bell, 'Front Bell']);
      const changes = await changesDuring(server, async () => {
        await simulate('doorbell', { doorbell: bell, at: T0 });
        await simulate('doorbell', { doorbell: bell, at: T0 + 5000 });
      });
      assert.deepEqual(
        changes.map((c) => [c.entity, (c.update as { type: string }).type]),
        [
          ['COMPONENT_SEEKPOINT', 'DoorbellEvent'],
          ['COMPONENT_SEEKPOINT', 'DoorbellEvent'],
        ],
      );
      const events = await call('/api/doorbellcamera/findComponentEventsForDoorbellCamera', { doorbellCameraUuid: bell, typeFilter: ['DoorbellEvent'] });
      assert.deepEqual(
        events.json.componentEvents.map((e: { timestampMs: number; ownerDeviceUuid: string }) => [e.timestampMs, e.ownerDeviceUuid]),
        [
          [T0 + 5000, bell],
          [T0, bell],
        ],
      );
      const buttons = await call('/api/doorbellcamera/findComponentEventsForDoorbellCamera', { doorbellCameraUuid: bell, typeFilter: ['ButtonEvent'] });
      assert.deepEqual(buttons.json.componentEvents, []);
      assertSameAsMissing(
        await call('/api/doorbellcamera/findComponentEventsForDoorbellCamera', { doorbellCameraUuid: sensor('Front Bell', other) }),
        await call('/api/doorbellcamera/findComponentEventsForDoorbellCamera', { doorbellCameraUuid: nobodysUuid() }),
      );
    });
  });

  describe('device features', () => {
    it("answers a device's features by kind, and keeps the ones the organization turns off", async () => {
      const reader = sensor('Reader');
      const r = await call('/api/feature/getDeviceFeatures', { deviceUuid: reader });
      assertOk(r);
      assert.deepEqual(r.json.features, { deviceUuid: reader, featureMap: { credentialRead: true, reboot: true } });
      assertOk(await call('/api/feature/updateDeviceFeatures', { deviceUuid: reader, featureMap: { reboot: false } }));
      assert.deepEqual((await call('/api/feature/getDeviceFeatures', { deviceUuid: reader })).json.features.featureMap, {
        credentialRead: true,
        reboot: false,
      });
      assertFails(
        await call('/api/feature/updateDeviceFeatures', { deviceUuid: reader, featureMap: { flying: true } }),
        /^featureMap.flying: not a feature of a BADGE_READER/,
      );
      const camera = (await call('/api/feature/getDeviceFeatures', { deviceUuid: org.site.cameras.Lobby })).json.features.featureMap;
      assert.equal(camera.video, true);
      assertSameAsMissing(
        await call('/api/feature/getDeviceFeatures', { deviceUuid: sensor('Reader', other) }),
        await call('/api/feature/getDeviceFeatures', { deviceUuid: nobodysUuid() }),
      );
      assert.equal((await call('/api/feature/getDeviceFeatures', { deviceUuid: sensor('Reader', other) }, other.apiKey)).json.features.featureMap.reboot, true);
    });
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, nobodysUuid } from '../config/config-site.js';
import { changesDuring, seedEventsSite, simulate, type EventsSite } from './fixtures.js';
import { apiAs, assertFails } from '../../helpers/api.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

forEachDialect('plate reads: recent lists, misread reports and association with saved vehicles', (dialect) => {
  let server: TestServer;
  let site: EventsSite;
  let other: EventsSite;
  const now = Date.now();
  before(async () => {
    server = await startTestServer(dialect);
    site = await seedEventsSite(server, 'Plates Org');
    other = await seedEventsSite(server, 'Other Plates Org');
  });
  after(() => server.close());

  const { call, ok } = apiAs(
    () => server,
    () => site.org.apiKey,
    '/api/vehicle',
  );
  const read = async (s: EventsSite, camera: string, plate: string, at: number) => (await simulate(server, 'plate', { camera, plate, at })).vehicleEvent;
  const uuids = (events: Array<{ uuid: string }>) => events.map((e) => e.uuid);

  describe('getRecentVehicleEvents, ...ByLocation, ...ForVehicle', () => {
    it('answers the reads of the last week newest first, of the cameras, the location or the plate named, and none of another organization', async () => {
      const s = await seedEventsSite(server, 'Recent Org');
      const lobbyNew = await read(s, s.lobby, 'RCT111', now - HOUR);
      const dockNew = await read(s, s.dock, 'rct-222', now - 2 * HOUR);
      const lobbyOld = await read(s, s.lobby, 'RCT111', now - 8 * DAY);
      await read(other, other.lobby, 'RCT111', now - HOUR);

      assert.deepEqual(uuids((await ok('getRecentVehicleEvents', {}, { key: s.org.apiKey })).events), [lobbyNew.uuid, dockNew.uuid]);
      const all = (await ok('getRecentVehicleEvents', { startTimeMs: now - 9 * DAY }, { key: s.org.apiKey })).events;
      assert.deepEqual(uuids(all), [lobbyNew.uuid, dockNew.uuid, lobbyOld.uuid]);
      assert.deepEqual(uuids((await ok('getRecentVehicleEvents', { deviceUuids: [`${s.dock}.v0`] }, { key: s.org.apiKey })).events), [dockNew.uuid]);
      assert.deepEqual(uuids((await ok('getRecentVehicleEvents', { endTimeMs: now - 90 * 60_000 }, { key: s.org.apiKey })).events), [dockNew.uuid]);

      const byLocation = await ok('getRecentVehicleEventsByLocation', { locationUuid: lobbyNew.locationUuid }, { key: s.org.apiKey });
      assert.deepEqual(uuids(byLocation.events), [lobbyNew.uuid, dockNew.uuid]);
      const forVehicle = await ok('getRecentVehicleEventsForVehicle', { licensePlate: 'rct 111', startTimeMs: now - 9 * DAY }, { key: s.org.apiKey });
      assert.deepEqual(uuids(forVehicle.events), [lobbyNew.uuid, lobbyOld.uuid]);
      assert.equal(forVehicle.events[0].vehicleLicensePlate, 'RCT111');

      // Another organization's camera and location answer as unknown ones.
      const nobody = nobodysUuid();
      assertSameAsMissing(
        await call('getRecentVehicleEvents', { deviceUuids: [other.lobby] }, { key: s.org.apiKey }),
        await call('getRecentVehicleEvents', { deviceUuids: [nobody] }, { key: s.org.apiKey }),
        [other.lobby, nobody],
      );
      const theirLocation = (await ok('getRecentVehicleEvents', {}, { key: other.org.apiKey })).events[0].locationUuid;
      assertSameAsMissing(
        await call('getRecentVehicleEventsByLocation', { locationUuid: theirLocation }, { key: s.org.apiKey }),
        await call('getRecentVehicleEventsByLocation', { locationUuid: nobodysUuid() }, { key: s.org.apiKey }),
      );
      assertFails(
        await call('getRecentVehicleEvents', { startTimeMs: now, endTimeMs: now - DAY }, { key: s.org.apiKey }),
        /start time must not be after the end time/,
      );
      assert.equal((await call('getRecentVehicleEventsForVehicle', {}, { key: s.org.apiKey })).status, 400);
    });
  });

  describe('reportVehicleEvent', () => {
    it('keeps a misread out of every list and search, announces it, and refuses another organization’s read as an unknown one', async () => {
      const misread = await read(site, site.lobby, 'MIS123', now - HOUR);
      const kept = await read(site, site.lobby, 'MIS123', now - 2 * HOUR);
      const theirs = await read(other, other.lobby, 'MIS123', now - HOUR);

      let answer: any;
      const changes = await changesDuring(server, async () => {
        answer = await ok('reportVehicleEvent', { eventUuid: misread.uuid });
      });
      assert.equal(answer.collectedMediaForTraining, false);
      const announced = changes.find((c) => c.entity === 'VEHICLE_EVENT' && c.entityUuid === misread.uuid);
      assert.equal(announced?.type, 'DELETE');
      assert.equal(typeof (announced?.update as any).reportedAtMs, 'number');

      const plates = { licensePlateExactQuery: ['MIS123'] };
      assert.deepEqual(uuids((await ok('getVehicleEvents', plates)).events), [kept.uuid]);
      assert.deepEqual(uuids((await ok('getRecentVehicleEventsForVehicle', { licensePlate: 'MIS123' })).events), [kept.uuid]);
      const search = await server.call('/api/search/searchLicensePlates', { licensePlate: 'MIS123' }, { key: site.org.apiKey });
      assert.deepEqual(uuids(search.json.vehicleEvents), [kept.uuid]);

      assertFails(await call('reportVehicleEvent', { eventUuid: misread.uuid }), 'Vehicle event not found');
      assertSameAsMissing(await call('reportVehicleEvent', { eventUuid: theirs.uuid }), await call('reportVehicleEvent', { eventUuid: nobodysUuid() }));
      assert.deepEqual(uuids((await ok('getVehicleEvents', plates, { key: other.org.apiKey })).events), [theirs.uuid], 'theirs is untouched');
    });
  });

  describe('associateEventsToVehicle', () => {
    it('files reads under a saved vehicle, all or none, keeping the plate each camera read', async () => {
      await ok('saveVehicle', { vehicleLicensePlate: 'VAN777', name: 'Delivery van' });
      await ok('addVehicleLabel', { vehicleLicensePlate: 'VAN777', label: 'fleet' });
      const partial = await read(site, site.dock, 'VAN77', now - HOUR);
      const wrong = await read(site, site.lobby, 'UAN777', now - 2 * HOUR);
      const theirs = await read(other, other.dock, 'VAN77', now - HOUR);

      // One uuid of another organization refuses the whole call: nothing changes.
      const nobody = nobodysUuid();
      assertSameAsMissing(
        await call('associateEventsToVehicle', { eventUuids: [partial.uuid, theirs.uuid], vehicleLicensePlate: 'VAN777' }),
        await call('associateEventsToVehicle', { eventUuids: [partial.uuid, nobody], vehicleLicensePlate: 'VAN777' }),
        [theirs.uuid, nobody],
      );
      assert.deepEqual(uuids((await ok('getVehicleEvents', { licensePlateExactQuery: ['VAN77'] })).events), [partial.uuid]);
      assertFails(await call('associateEventsToVehicle', { eventUuids: [partial.uuid], vehicleLicensePlate: 'NOPE1' }), 'Vehicle not found');
      assertFails(
        await call('associateEventsToVehicle', { eventUuids: [theirs.uuid], vehicleLicensePlate: 'VAN777' }, { key: other.org.apiKey }),
        'Vehicle not found',
      );

      const changes = await changesDuring(server, () =>
        ok('associateEventsToVehicle', { eventUuids: [partial.uuid, wrong.uuid], vehicleLicensePlate: 'van-777' }),
      );
      assert.deepEqual(
        changes
          .filter((c) => c.entity === 'VEHICLE_EVENT')
          .map((c) => [c.entityUuid, c.type])
          .sort(),
        [
          [partial.uuid, 'UPDATE'],
          [wrong.uuid, 'UPDATE'],
        ].sort(),
      );
      const filed = (await ok('getVehicleEvents', { licensePlateExactQuery: ['VAN777'] })).events;
      assert.deepEqual(
        filed.map((e: any) => [e.uuid, e.vehicleLicensePlate, e.readLicensePlate, e.name]),
        [
          [partial.uuid, 'VAN777', 'VAN77', 'Delivery van'],
          [wrong.uuid, 'VAN777', 'UAN777', 'Delivery van'],
        ],
      );
      assert.deepEqual(uuids((await ok('getVehicleEvents', { vehicleLabelQuery: ['fleet'] })).events), [partial.uuid, wrong.uuid]);
      assert.deepEqual((await ok('getVehicleEvents', { licensePlateExactQuery: ['VAN77'] })).events, []);
      assert.deepEqual(
        uuids((await ok('getVehicleEvents', { licensePlateExactQuery: ['VAN77'] }, { key: other.org.apiKey })).events),
        [theirs.uuid],
        'theirs is untouched',
      );
      assert.equal((await call('associateEventsToVehicle', { eventUuids: [], vehicleLicensePlate: 'VAN777' })).status, 400);
    });
  });
});

import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { findDevice, listDevices } from '../../../src/domains/devices/service.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { changesDuring } from './grants-fixtures.js';

const SITE = `
locations: [{name: HQ}, {name: Annex}]
doorControllers: [{name: Panel A, location: HQ}]
cameras: [{name: Lobby, location: HQ, serialNumber: CAM-9}]
`;

forEachDialect('door controllers: updateDetails and registerDiscoveredRhombusReader', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: Record<string, Record<string, string>>;
  let otherSite: Record<string, Record<string, string>>;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Controllers Org');
    other = await server.createOrg('Other Org');
    site = (await control(server, `/orgs/${org.orgUuid}/seed`, SITE, { contentType: 'application/yaml' })).json;
    otherSite = (await control(server, `/orgs/${other.orgUuid}/seed`, SITE, { contentType: 'application/yaml' })).json;
  });
  after(() => server.close());

  const call = (operation: string, body: unknown, who = org) => server.call(`/api/doorcontroller/${operation}`, body, { key: who.apiKey });
  const controller = () => findDevice(server.gatehouse.deps, org.orgUuid, site.doorControllers!['Panel A']!);

  it('updates the fields given, keeps the others, and announces the controller', async () => {
    const uuid = site.doorControllers!['Panel A']!;
    const changes = await changesDuring(server, async () => {
      const r = await call('updateDetails', {
        uuid,
        name: 'Panel A (east)',
        description: 'Main entrance',
        locationUuid: site.locations!.Annex,
        floorNumber: 3,
        latitude: 34.05,
        longitude: -118.24,
      });
      assert.equal(r.json.error, false, r.text);
    });
    const updated = await controller();
    assert.deepEqual(
      [updated?.name, updated?.locationUuid, updated?.attributes],
      ['Panel A (east)', site.locations!.Annex, { description: 'Main entrance', floor: 3, latitude: 34.05, longitude: -118.24 }],
    );
    assert.deepEqual(
      changes.map((c) => [c.entity, c.entityUuid, c.type]),
      [['DOOR_CONTROLLER', uuid, 'UPDATE']],
    );
    assert.equal((changes[0]!.update as { name: string }).name, 'Panel A (east)');
    assert.equal((await call('updateDetails', { uuid, directionRadians: 1.5 })).json.error, false);
    const again = await controller();
    assert.deepEqual([again?.name, again?.attributes.directionRadians, again?.attributes.floor], ['Panel A (east)', 1.5, 3]);
  });

  it("answers another organization's controller and location as unknown ones, and changes nothing", async () => {
    const before = await controller();
    const theirs = await call('updateDetails', { uuid: otherSite.doorControllers!['Panel A'], name: 'Mine now' });
    assert.deepEqual([theirs.json.error, theirs.json.errorMsg], [true, 'Door controller not found']);
    const theirLocation = await call('updateDetails', { uuid: site.doorControllers!['Panel A'], locationUuid: otherSite.locations!.HQ, name: 'Moved' });
    assert.deepEqual([theirLocation.json.error, theirLocation.json.errorMsg], [true, 'Location not found']);
    const notAController = await call('updateDetails', { uuid: site.cameras!.Lobby, name: 'X' });
    assert.equal(notAController.json.errorMsg, 'Door controller not found');
    assert.deepEqual(await controller(), before);
    assert.equal((await findDevice(server.gatehouse.deps, other.orgUuid, otherSite.doorControllers!['Panel A']!))?.name, 'Panel A');
  });

  it('refuses an empty name and coordinates off the globe', async () => {
    const uuid = site.doorControllers!['Panel A'];
    assert.match((await call('updateDetails', { uuid, name: '  ' })).json.errorMsg, /name: must not be empty/);
    assert.match((await call('updateDetails', { uuid, latitude: 91 })).json.errorMsg, /latitude: must be between -90 and 90/);
  });

  it("registers a discovered reader as a badge reader at the controller's location, wired to it, once", async () => {
    const uuid = site.doorControllers!['Panel A']!;
    const location = (await controller())!.locationUuid;
    const changes = await changesDuring(server, async () => {
      const r = await call('registerDiscoveredRhombusReader', { doorControllerUuid: uuid, serialNumber: 'RR-1234', boardNum: 1, portNum: 2 });
      assert.equal(r.json.error, false, r.text);
    });
    const readers = await listDevices(server.gatehouse.deps, org.orgUuid, ['BADGE_READER']);
    assert.equal(readers.length, 1);
    const reader = readers[0]!;
    assert.deepEqual(
      [reader.serialNumber, reader.locationUuid, reader.attributes],
      ['RR-1234', location, { doorControllerUuid: uuid, boardNum: 1, portNum: 2 }],
    );
    assert.deepEqual(
      changes.map((c) => [c.entity, c.entityUuid, c.type]),
      [['BADGE_READER', reader.uuid, 'CREATE']],
    );
    const twice = await call('registerDiscoveredRhombusReader', { doorControllerUuid: uuid, serialNumber: 'RR-1234' });
    assert.match(twice.json.errorMsg, /serial number RR-1234 is already registered/);
    const cameraSerial = await call('registerDiscoveredRhombusReader', { doorControllerUuid: uuid, serialNumber: 'CAM-9' });
    assert.match(cameraSerial.json.errorMsg, /already registered \(CAMERA Lobby\)/);
    const theirs = await call('registerDiscoveredRhombusReader', { doorControllerUuid: otherSite.doorControllers!['Panel A'], serialNumber: 'RR-9' });
    assert.equal(theirs.json.errorMsg, 'Door controller not found');
    const missing = await call('registerDiscoveredRhombusReader', { doorControllerUuid: uuid });
    assert.equal(missing.status, 400);
    assert.equal((await listDevices(server.gatehouse.deps, org.orgUuid, ['BADGE_READER'])).length, 1);
    assert.equal((await listDevices(server.gatehouse.deps, other.orgUuid, ['BADGE_READER'])).length, 0);
  });
});

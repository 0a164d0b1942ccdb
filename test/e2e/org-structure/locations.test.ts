import { assertFails, assertOk } from '../../helpers/api.js';
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { seedYaml, watchChanges } from '../../helpers/org-structure.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

forEachDialect('POST /api/location/*', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let otherLocation: string;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Locations Inc');
    other = await server.createOrg('Other Org');
    otherLocation = (await seedYaml(server, other.orgUuid, 'locations: [{name: Elsewhere}]')).locations!.Elsewhere!;
  });
  after(() => server.close());
  const call = (op: string, body: unknown, key = org.apiKey) => server.call(`/api/location/${op}`, body, { key });

  it('requires authentication', async () => {
    const r = await server.call('/api/location/getLocations', {}, { key: '' });
    assert.equal(r.status, 401);
  });

  it('creates a location with address, time zone, coordinates and labels, announced on the stream', async () => {
    const watch = await watchChanges(server, org.apiKey, org.orgUuid);
    try {
      const created = await call('createLocation', {
        location: {
          name: 'HQ',
          tz: 'America/New_York',
          address1: '1 Main St',
          city: 'Boston',
          countryCode: 'US',
          latitude: 42.36,
          longitude: -71.06,
          labels: ['east', 'main'],
        },
      });
      assertOk(created);
      const uuid = created.json.uuid;
      const got = await call('getLocation', { locationUuid: uuid });
      assertOk(got);
      assert.equal(got.json.location.name, 'HQ');
      assert.equal(got.json.location.tz, 'America/New_York');
      assert.equal(got.json.location.address1, '1 Main St');
      assert.equal(got.json.location.latitude, 42.36);
      assert.deepEqual(got.json.location.labels, ['east', 'main']);
      const change = await watch.waitFor((c) => c.entity === 'LOCATION' && c.entityUuid === uuid, 'the LOCATION change');
      assert.equal(change.update.name, 'HQ');
      const list = await call('getLocations', {});
      assert.ok(list.json.locations.some((l: any) => l.uuid === uuid));
      const v2 = await call('getLocationsV2', {});
      assert.deepEqual(v2.json.locations, list.json.locations);
    } finally {
      await watch.close();
    }
  });

  it('refuses an unknown time zone and an empty name, changing nothing', async () => {
    const before = (await call('getLocations', {})).json.locations.length;
    assertFails(await call('createLocation', { location: { name: 'X', tz: 'Mars/Olympus' } }), /not a known IANA time zone/);
    assertFails(await call('createLocation', { location: { name: '   ' } }), /name/);
    assert.equal((await call('getLocations', {})).json.locations.length, before);
  });

  it('answers 400 for a malformed body', async () => {
    const r = await call('createLocation', { location: { name: 5 } });
    assert.equal(r.status, 400);
    assert.equal(r.json.error, true);
    assert.equal((await call('createLocation', '{bad')).status, 400);
  });

  it('updates selectively (time zone by timezoneId or tz.id) and wholly', async () => {
    const uuid = (await call('createLocation', { location: { name: 'Depot', city: 'Lyon', tz: 'Europe/Paris' } })).json.uuid;
    assertOk(await call('selectiveUpdateLocation', { locationUuid: uuid, timezoneId: 'Asia/Tokyo', postalCode: '100' }));
    let l = (await call('getLocation', { locationUuid: uuid })).json.location;
    assert.deepEqual([l.tz, l.city, l.postalCode], ['Asia/Tokyo', 'Lyon', '100']);
    assertOk(await call('selectiveUpdateLocation', { locationUuid: uuid, tz: { id: 'UTC' } }));
    assertFails(await call('selectiveUpdateLocation', { locationUuid: uuid, timezoneId: 'Nowhere/Town' }), /time zone/);
    assertOk(await call('updateLocation', { location: { uuid, name: 'Depot 2', address1: 'Quai 1' } }));
    // A whole update clears the fields it leaves out: strings, empty (the platform's clients concatenate them).
    l = (await call('getLocation', { locationUuid: uuid })).json.location;
    assert.deepEqual([l.name, l.tz, l.city, l.postalCode, l.address1], ['Depot 2', 'UTC', '', '', 'Quai 1']);
  });

  it('keeps labels per location and lists them both ways', async () => {
    const uuid = (await call('createLocation', { location: { name: 'Labelled' } })).json.uuid;
    assertOk(await call('addLocationLabel', { locationIdentifier: uuid, label: 'north' }));
    assertOk(await call('addLocationLabel', { locationIdentifier: uuid, label: 'north' }));
    const byLocation = (await call('getLocationLabelsForOrg', {})).json.locationLabels;
    assert.deepEqual(byLocation[uuid], ['north']);
    const byLabel = (await call('getLocationsAssociatedToLocationLabelsByOrg', {})).json.locationLabels;
    assert.ok(byLabel.north.includes(uuid));
    assert.equal(byLocation[otherLocation], undefined);
    assertOk(await call('removeLocationLabel', { locationIdentifier: uuid, label: 'north' }));
    assertFails(await call('removeLocationLabel', { locationIdentifier: uuid, label: 'north' }), /not found/);
    assert.equal((await call('getLocationLabelsForOrg', {})).json.locationLabels[uuid], undefined);
  });

  it('refuses to delete a location with devices, doors or sub-locations, and deletes an empty one', async () => {
    const seeded = await seedYaml(server, org.orgUuid, 'locations: [{name: Plant}]\ndoors: [{name: Gate, location: Plant}]');
    const plant = seeded.locations!.Plant!;
    assertFails(await call('deleteLocation', { uuid: plant }), /still has 1 device\(s\), 1 door\(s\)/);
    const parent = (await call('createLocation', { location: { name: 'Campus' } })).json.uuid;
    const child = (await call('createLocation', { location: { name: 'Building A' }, parentLocationUuid: parent })).json.uuid;
    assertFails(await call('deleteLocation', { uuid: parent }), /1 sub-location/);
    const withSubs = (await call('getLocation', { locationUuid: parent, subLocationsRequired: true })).json.location;
    assert.deepEqual(
      withSubs.subLocations.map((s: any) => s.uuid),
      [child],
    );
    assertOk(await call('deleteLocation', { uuid: child }));
    assertOk(await call('deleteLocation', { uuid: parent }));
    assertFails(await call('getLocation', { locationUuid: parent }), /not found/);
  });

  it("answers another organization's location as unknown and changes nothing", async () => {
    assertFails(await call('getLocation', { locationUuid: otherLocation }), /not found/);
    assertFails(await call('selectiveUpdateLocation', { locationUuid: otherLocation, name: 'Mine' }), /not found/);
    assertFails(await call('addLocationLabel', { locationIdentifier: otherLocation, label: 'x' }), /not found/);
    assertFails(await call('deleteLocation', { uuid: otherLocation }), /not found/);
    assertFails(await call('createLocation', { location: { name: 'Sub' }, parentLocationUuid: otherLocation }), /not found/);
    const theirs = (await call('getLocation', { locationUuid: otherLocation }, other.apiKey)).json.location;
    assert.equal(theirs.name, 'Elsewhere');
    assert.deepEqual(theirs.labels, []);
    assert.ok(!(await call('getLocations', {})).json.locations.some((l: any) => l.uuid === otherLocation));
  });

  it('finds locations by coordinates, by address and by a path of sub-locations', async () => {
    const campus = (
      await call('createLocation', {
        location: { name: 'Geo Campus', address1: '12 Rue de Rivoli', city: 'Paris', postalCode: '75004', latitude: 48.8556, longitude: 2.3522 },
      })
    ).json.uuid;
    const hall = (await call('createLocation', { location: { name: 'Hall', latitude: 48.856, longitude: 2.353 }, parentLocationUuid: campus })).json.uuid;
    const near = (await call('getLocationsByGeo', { latitude: 48.8557, longitude: 2.3523 })).json.locations.map((l: any) => l.uuid);
    assert.deepEqual(near, [campus, hall]);
    assert.deepEqual((await call('getLocationsByGeo', { latitude: 0, longitude: 0 })).json.locations, []);
    const coded = await call('geoCode', { address: '12 rue de Rivoli, 75004 PARIS' });
    assertOk(coded);
    assert.deepEqual([coded.json.latitude, coded.json.longitude], [48.8556, 2.3522]);
    assertFails(await call('geoCode', { address: '1 Nowhere Lane' }), /not found/);
    const key = (locationUuids: string[]) => ({ subLocationsHierarchyKey: { locationUuids } });
    const found = await call('getLocationsBySubLocationsHierarchyKey', key([campus, hall]));
    assertOk(found);
    assert.equal(found.json.location.name, 'Hall');
    const top = (await call('getLocationsBySubLocationsHierarchyKey', key([campus]))).json.location;
    assert.deepEqual(
      top.subLocations.map((l: any) => l.uuid),
      [hall],
    );
    assertFails(await call('getLocationsBySubLocationsHierarchyKey', key([hall])), /not a top-level location/);
    assertFails(await call('getLocationsBySubLocationsHierarchyKey', key([otherLocation])), /not found/);
  });
});

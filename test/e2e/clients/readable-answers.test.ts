import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { simulate, seedEventsSite, type EventsSite } from '../events/fixtures.js';

/**
 * Answers the platform's own clients can read (client-calls.md, section 4): the fields its examples concatenate
 * or index are strings or lists, never null, and every answer carries error: false.
 */
forEachDialect('answers the clients can read', (dialect) => {
  const server = useTestServer(dialect);
  let site: EventsSite;
  const api = apiAs(server, () => site.org.apiKey);
  before(async () => {
    site = await seedEventsSite(server(), 'Readable');
  });

  it("a location's address fields are strings, empty when unknown", async () => {
    const made = await api.ok('/api/location/createLocation', { location: { name: 'No Address' } });
    const location = (await api.ok('/api/location/getLocations', {})).locations.find((l: any) => l.uuid === made.uuid);
    assert.deepEqual([location.address1, location.address2, location.city, location.postalCode, location.countryCode], ['', '', '', '', '']);
    const one = (await api.ok('/api/location/getLocation', { locationUuid: made.uuid })) as any;
    assert.equal((one.location ?? one).address2, '');
  });

  it("the organization's defaultPlayerViewLiveType is never null", async () => {
    const r = await api.ok('/api/org/getOrgV2', {});
    assert.equal(r.error, false);
    assert.equal(typeof r.org.defaultPlayerViewLiveType, 'string');
  });

  it("a vehicle event's thumbnailS3Key is a string, which the examples append to a media URL", async () => {
    const at = Date.now() - 10_000;
    await simulate(server(), 'plate', { camera: site.lobby, plate: 'ABC123', at: String(at) });
    const r = await api.ok('/api/vehicle/getRecentVehicleEvents', { deviceUuids: [site.lobby], startTimeMs: at - 1000, endTimeMs: Date.now() + 1000 });
    assert.equal(r.events.length, 1, JSON.stringify(r));
    assert.equal(typeof r.events[0].thumbnailS3Key, 'string');
    assert.equal(r.events[0].vehicleLicensePlate, 'ABC123');
  });
});

import { assertFails, assertOk } from '../../helpers/api.js';
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { watchChanges } from '../../helpers/org-structure.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';

/** Business Hours are Monday 09:00-17:00 on the wall clock of the door's location, New York at first. */
const SITE = `
locations: [{name: HQ, timeZone: America/New_York}]
users: [{name: Ada}]
schedules: [{name: Business Hours, intervals: [{start: 540, stop: 1020}]}]
doors: [{name: Front Door, location: HQ, lock: true, schedule: Business Hours, access: [Ada], unlockDurationMs: 300}]
`;

/** Monday 8 January 2024: 09:00 in London (04:00 in New York), and 09:00 in New York (14:00 in London). */
const NINE_LONDON = Date.UTC(2024, 0, 8, 9, 0);
const NINE_NEW_YORK = Date.UTC(2024, 0, 8, 14, 0);
/** 16:30 in New York, 21:30 in London. */
const HALF_FOUR_NEW_YORK = Date.UTC(2024, 0, 8, 21, 30);

forEachDialect("a location's time-zone change moves its door schedules", (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let site: Record<string, Record<string, string>>;
  let hex: string;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Time Zones Inc');
    const seeded = await control(server, `/orgs/${org.orgUuid}/seed`, SITE, { contentType: 'application/yaml' });
    assert.equal(seeded.json.error, false, seeded.text);
    site = seeded.json;
    hex = 'c0ffee42';
    const credential = await server.call(
      '/api/accesscontrol/createAccessControlCredentialByHexValueAndType',
      { credentialType: 'STANDARD_CSN', hexValue: hex, userUuid: site.users!.Ada },
      { key: org.apiKey },
    );
    assertOk(credential);
  });
  after(() => server.close());

  const badgeAt = async (at: number) => {
    const r = await control(server, '/simulate/badge', { door: site.doors!['Front Door'], hex, at });
    assert.equal(r.json.error, false, r.text);
    return r.json.reason as string;
  };

  it('judges a badge on the wall clock of the time zone the location has now', async () => {
    assert.equal(await badgeAt(NINE_NEW_YORK), 'GRANTED');
    assert.equal(await badgeAt(NINE_LONDON), 'OUTSIDE_SCHEDULE');
    assert.equal(await badgeAt(HALF_FOUR_NEW_YORK), 'GRANTED');

    const watch = await watchChanges(server, org.apiKey, org.orgUuid);
    try {
      assertOk(
        await server.call('/api/location/selectiveUpdateLocation', { locationUuid: site.locations!.HQ, timezoneId: 'Europe/London' }, { key: org.apiKey }),
      );
      const change = await watch.waitFor(
        (c) => c.entity === 'LOCATION' && c.entityUuid === site.locations!.HQ && c.update.tz === 'Europe/London',
        'the LOCATION change',
      );
      assert.equal(change.type, 'UPDATE');
    } finally {
      await watch.close();
    }

    // 09:00 local is still inside Business Hours: now 09:00 in London.
    assert.equal(await badgeAt(NINE_LONDON), 'GRANTED');
    // 16:30 in New York is 21:30 in London: outside now, though it was inside before the change.
    assert.equal(await badgeAt(HALF_FOUR_NEW_YORK), 'OUTSIDE_SCHEDULE');
    assert.equal(await badgeAt(NINE_NEW_YORK), 'GRANTED');
  });

  it('refuses a time zone that is not an IANA one, and the schedule keeps its wall clock', async () => {
    assertFails(
      await server.call('/api/location/selectiveUpdateLocation', { locationUuid: site.locations!.HQ, timezoneId: 'Mars/Olympus' }, { key: org.apiKey }),
      /not a known IANA time zone/,
    );
    assert.equal(await badgeAt(NINE_LONDON), 'GRANTED');
  });
});

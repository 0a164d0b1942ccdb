import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { recordChanges, FOREIGN, ok, refused, lockdownSuite } from '../access-lockdown/fixtures.js';
import { control } from '../control/admin.js';

const base = '/api/guestmanagement';

forEachDialect('/api/guestmanagement: guests, check-ins and the activity log', (dialect) => {
  const t = lockdownSuite(dialect);
  const { call, fails } = t;
  const activities = async (path: string, body: object) =>
    (await call(`${base}/${path}`, body)).guestActivities.map((a: any) => [a.activity, a.email, a.agent]);

  it('creates a guest (announced), reads it by e-mail address in any case, and lists the guests', async () => {
    const { changes } = await recordChanges(t.server, () =>
      call(`${base}/createGuest`, {
        guest: {
          email: 'Alan@Example.com',
          firstName: 'Alan',
          lastName: 'Turing',
          locationUuid: t.site.locations.HQ,
          hostUserUuid: t.site.users.Ada,
          guestType: 'INTERVIEWER',
        },
      }),
    );
    assert.ok(changes.some((c) => c.entity === 'GUEST' && c.type === 'CREATE'));
    const guest = (await call(`${base}/getGuest`, { email: 'alan@EXAMPLE.com' })).guest;
    assert.deepEqual(
      [guest.email, guest.emailCaseSensitive, guest.firstName, guest.guestType, guest.hostUserUuid, guest.checkedInEnum ?? null],
      ['alan@example.com', 'Alan@Example.com', 'Alan', 'INTERVIEWER', t.site.users.Ada, null],
    );
    assert.deepEqual(
      (await call(`${base}/getAllGuestsByOrg`)).allGuests.map((g: any) => g.email),
      ['alan@example.com', 'grace@example.com'],
    );
    assert.equal(
      await fails(`${base}/createGuest`, { guest: { email: 'ALAN@example.com', locationUuid: t.site.locations.HQ } }),
      'The organization already has a guest alan@example.com',
    );
  });

  it('updates the fields given (recorded as UPDATED_INFO), or replaces them all', async () => {
    await call(`${base}/updateGuest`, { guestUpdate: { email: 'alan@example.com', companyName: 'Bletchley' } });
    let guest = (await call(`${base}/getGuest`, { email: 'alan@example.com' })).guest;
    assert.deepEqual([guest.companyName, guest.firstName], ['Bletchley', 'Alan']);
    await call(`${base}/updateGuest`, { guest: { email: 'alan@example.com', firstName: 'A.' } });
    guest = (await call(`${base}/getGuest`, { email: 'alan@example.com' })).guest;
    assert.deepEqual([guest.companyName ?? null, guest.firstName, guest.locationUuid], [null, 'A.', t.site.locations.HQ]);
    assert.deepEqual(await activities('getActivitiesForGuest', { email: 'alan@example.com' }), [
      ['UPDATED_INFO', 'alan@example.com', 'API'],
      ['UPDATED_INFO', 'alan@example.com', 'API'],
    ]);
  });

  it('checks a guest in and out (by the API and at the kiosk), refusing a second check-in, and logs it by location and org', async () => {
    const { changes } = await recordChanges(t.server, () => call(`${base}/signInGuest`, { email: 'alan@example.com', locationUuid: t.site.locations.HQ }));
    assert.ok(changes.some((c) => c.entity === 'GUEST_ACTIVITY' && (c.update as any).activity === 'CHECKED_IN'));
    const inside = (await call(`${base}/getGuest`, { email: 'alan@example.com' })).guest;
    assert.equal(inside.checkedInEnum, 'CHECKED_IN');
    assert.ok(inside.lastCheckedInMs > 0);
    assert.match(await fails(`${base}/signInGuest`, { email: 'alan@example.com', locationUuid: t.site.locations.HQ }), /already checked in/);
    const kiosk = await control(t.server, '/simulate/guest', { location: t.site.locations.HQ, email: 'ALAN@example.com', checkOut: true });
    assert.equal(kiosk.json.error, false, kiosk.text);
    assert.deepEqual(
      [kiosk.json.activity.activity, kiosk.json.activity.agent, kiosk.json.activity.locationUuid],
      ['CHECKED_OUT', 'KIOSK', t.site.locations.HQ],
    );
    assert.match(await fails(`${base}/signOutGuest`, { email: 'alan@example.com', locationUuid: t.site.locations.HQ }), /is not checked in/);
    assert.equal(
      (await control(t.server, '/simulate/guest', { location: t.site.locations.HQ, email: 'grace@example.com' })).json.activity.activity,
      'CHECKED_IN',
    );
    assert.deepEqual((await activities('getActivitiesForLocation', { locationUuid: t.site.locations.HQ })).slice(0, 3), [
      ['CHECKED_IN', 'grace@example.com', 'KIOSK'],
      ['CHECKED_OUT', 'alan@example.com', 'KIOSK'],
      ['CHECKED_IN', 'alan@example.com', 'API'],
    ]);
    assert.deepEqual(await activities('getActivitiesForLocation', { locationUuid: t.site.locations.Annex }), []);
    const all = (await call(`${base}/getGuestActivityLogs`)).guestActivities;
    assert.equal(all.length, 5);
    assert.deepEqual((await call(`${base}/getGuestActivityLogs`, { createdAfterMs: all[0].timestampMs })).guestActivities, []);
    assert.equal(
      (await control(t.server, '/simulate/guest', { location: t.site.locations.Annex, email: 'grace@example.com' })).json.errorMsg,
      'Guest expected at the location not found',
    );
  });

  it('refuses a check-in outside the access window, an unknown host, and deletes a guest', async () => {
    await call(`${base}/createGuest`, { guest: { email: 'late@example.com', locationUuid: t.site.locations.HQ, accessStartTimeMs: Date.now() + 3_600_000 } });
    assert.match(await fails(`${base}/signInGuest`, { email: 'late@example.com', locationUuid: t.site.locations.HQ }), /outside the guest's access window/);
    assert.equal(
      await fails(`${base}/createGuest`, { guest: { email: 'x@example.com', locationUuid: t.site.locations.HQ, hostUserUuid: t.otherSite.users.Ada } }),
      'Host user not found',
    );
    const { changes } = await recordChanges(t.server, () => call(`${base}/deleteGuest`, { email: 'late@example.com' }));
    assert.ok(changes.some((c) => c.entity === 'GUEST' && c.type === 'DELETE'));
    assert.equal(await fails(`${base}/getGuest`, { email: 'late@example.com' }), 'Guest not found');
    assert.equal((await t.server.call(`${base}/createGuest`, { guest: { email: 'x@example.com' } }, { key: t.org.apiKey })).status, 400);
  });

  it("answers another organization's guests and locations as unknown ones, and changes nothing", async () => {
    assert.equal(await refused(t.server, t.other.apiKey, `${base}/getGuest`, { email: 'alan@example.com' }), 'Guest not found', 'ours is not theirs');
    assert.equal(await refused(t.server, t.other.apiKey, `${base}/deleteGuest`, { email: 'alan@example.com' }), 'Guest not found');
    const theirs = 'grace@example.com';
    assert.equal((await ok(t.server, t.other.apiKey, `${base}/getGuest`, { email: theirs })).guest.orgUuid, t.other.orgUuid);
    assert.equal(await fails(`${base}/signInGuest`, { email: theirs, locationUuid: t.otherSite.locations.HQ }), 'Location not found');
    assert.equal(await fails(`${base}/createGuest`, { guest: { email: 'y@example.com', locationUuid: t.otherSite.locations.HQ } }), 'Location not found');
    assert.equal(await fails(`${base}/getActivitiesForLocation`, { locationUuid: FOREIGN }), 'Location not found');
    assert.deepEqual((await ok(t.server, t.other.apiKey, `${base}/getGuestActivityLogs`)).guestActivities, [], 'nothing of theirs changed');
  });
});

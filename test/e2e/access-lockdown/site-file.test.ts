import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { ok, seedLockdownSite, type LockdownSite } from './fixtures.js';

const EXCEPTIONS = `
doorScheduleExceptions:
  - {name: Closed, doors: [Lobby Door, Front Door], startDate: '2030-12-25', endDate: '2030-12-25', defaultState: ACCESS_CONTROLLED}
  - {name: Fair, doors: [Lobby Door], startDate: '2030-06-01', endDate: '2030-06-01', intervals: [{start: '2030-06-01T10:00', end: '2030-06-01T12:00', state: UNLOCKED}]}
`;

forEachDialect('site files: lockdown plans, schedule exceptions, guests and door states', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let site: LockdownSite & { doorScheduleExceptions: Record<string, string> };
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Site Org');
    site = (await seedLockdownSite(server, org.orgUuid, EXCEPTIONS)) as typeof site;
  });
  after(() => server.close());

  it('creates the plans, exceptions and guests it declares, and answers their uuids by name', async () => {
    const plan = (await ok(server, org.apiKey, '/api/accesscontrol/lockdownPlan/getLockdownPlan', { lockdownPlanUuid: site.lockdownPlans.Standard }))
      .lockdownPlan;
    assert.deepEqual([plan.doorLockdownStateMap, plan.physicalAccess.userUuids], [{ [site.doors['Stair Door']]: 'UNLOCKED' }, [site.users.Gus]]);
    const fair = (await ok(server, org.apiKey, '/api/accesscontrol/doorScheduleException/getExceptionV2', { exceptionUuid: site.doorScheduleExceptions.Fair }))
      .exception;
    assert.deepEqual(fair.intervals, [{ localStartDateTime: '2030-06-01T10:00:00', localEndDateTime: '2030-06-01T12:00:00', state: 'UNLOCKED' }]);
    const guest = (await ok(server, org.apiKey, '/api/guestmanagement/getGuest', { email: 'grace@example.com' })).guest;
    assert.deepEqual([guest.firstName, guest.hostUserUuid, guest.locationUuid], ['Grace', site.users.Ada, site.locations.HQ]);
    assert.match(site.guests['Grace@Example.com'], /^[A-Za-z0-9_-]{22}$/, 'the seed answers the guest by e-mail address');
    const lobby = (await ok(server, org.apiKey, '/api/component/findAccessControlledDoors', {})).accessControlledDoors.find(
      (d: any) => d.name === 'Lobby Door',
    );
    assert.deepEqual(lobby.doorStateToScheduleUuidMap, { UNLOCKED: site.schedules['Business Hours'] });
  });

  it('reports every wrong reference and value at once, and creates nothing', async () => {
    const bad = `
locations: [{name: HQ}]
doors: [{name: Door, location: HQ, unlockedSchedule: Nope}]
lockdownPlans: [{name: P, location: Nowhere, exemptUsers: [Nobody], doors: {Ghost: LOCKED_DOWN}}]
doorScheduleExceptions: [{name: E, doors: [Ghost], startDate: 'soon', endDate: '2030-01-01'}]
guests: [{email: not-an-email, location: HQ, host: Nobody}]
`;
    const r = await control(server, `/orgs/${org.orgUuid}/seed`, bad, { contentType: 'application/yaml' });
    assert.equal(r.json.error, true);
    for (const problem of [
      'doors[0].unlockedSchedule (Door): no schedule named "Nope"',
      'lockdownPlans[0].location (P): no location named "Nowhere"',
      'lockdownPlans[0].exemptUsers[0] (P): no user named "Nobody"',
      'lockdownPlans[0].doors.Ghost (P): no door named "Ghost"',
      'doorScheduleExceptions[0].doors[0] (E): no door named "Ghost"',
      'doorScheduleExceptions[0].startDate (E): "soon" is not a date YYYY-MM-DD',
      'guests[0].email: "not-an-email" is not an e-mail address',
      'guests[0].host (not-an-email): no user named "Nobody"',
    ]) {
      assert.ok(r.json.errorMsg.includes(problem), `${problem} in ${r.json.errorMsg}`);
    }
    assert.equal((await ok(server, org.apiKey, '/api/accesscontrol/lockdownPlan/findLockdownPlans')).lockdownPlans.length, 2);
  });
});

import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { siteRowCounts } from './site-rows.js';

const SITE = `
locations: [{name: HQ, timeZone: America/New_York}, {name: Annex}]
users: [{name: Ada}, {name: Bob}]
schedules: [{name: Sundays, intervals: [{start: 8640, stop: 10080}]}]
doors:
  - {name: Lab Door, location: HQ, labels: [lab, secure], access: [Ada]}
  - {name: Front Door, location: HQ}
elevatorLandings: [{name: Floor 2, location: HQ, floor: 2}]
accessGroups: [{name: Staff, description: Day staff, location: HQ, members: [Ada, Bob]}]
accessGrants:
  - {name: Staff HQ, location: HQ, groups: [Staff]}
  - {name: Lift, location: HQ, users: [Bob], elevatorLandings: [Floor 2], doors: [Front Door]}
accessRevocations: [{name: No lab on Sundays, location: HQ, users: [Bob], doorLabels: [lab], schedule: Sundays}]
`;

forEachDialect('site files: access groups, grants, revocations and door labels', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Seed Access Org');
  });
  after(() => server.close());

  const seed = (orgUuid: string, yaml: string) => control(server, `/orgs/${orgUuid}/seed`, yaml, { contentType: 'application/yaml' });
  const api = async (path: string, body: unknown, key = org.apiKey) => {
    const r = await server.call(path, body, { key });
    assert.equal(r.json.error, false, r.text);
    return r.json;
  };

  it('creates groups, grants, revocations and labels by name, and answers their uuids; a door access list is a grant', async () => {
    const r = await seed(org.orgUuid, SITE);
    assert.equal(r.json.error, false, r.text);
    const created = r.json;
    assert.deepEqual(Object.keys(created.accessGroups), ['Staff']);
    assert.deepEqual(Object.keys(created.accessGrants).sort(), ['Lab Door access', 'Lift', 'Staff HQ']);
    assert.deepEqual(Object.keys(created.accessRevocations), ['No lab on Sundays']);
    const members = (await api('/api/accesscontrol/findAllUsersForAccessControlGroup', { groupUuid: created.accessGroups.Staff })).groupMembers;
    assert.deepEqual(members.map((m: any) => m.userUuid).sort(), [created.users.Ada, created.users.Bob].sort());
    const lift = (await api('/api/accesscontrol/getLocationAccessGrant', { accessGrantUuid: created.accessGrants.Lift })).accessGrant;
    assert.deepEqual(
      [lift.userUuids, lift.accessControlledDoorUuids, lift.accessControlledElevatorLandingUuids, lift.scheduleUuid],
      [[created.users.Bob], [created.doors['Front Door']], [created.elevatorLandings['Floor 2']], null],
    );
    const lab = (await api('/api/accesscontrol/getLocationAccessGrant', { accessGrantUuid: created.accessGrants['Lab Door access'] })).accessGrant;
    assert.deepEqual([lab.userUuids, lab.accessControlledDoorUuids], [[created.users.Ada], [created.doors['Lab Door']]]);
    const revocation = (await api('/api/accesscontrol/getLocationAccessRevocation', { accessRevocationUuid: created.accessRevocations['No lab on Sundays'] }))
      .accessRevocation;
    assert.deepEqual([revocation.doorLabelIds, revocation.scheduleUuid], [['lab'], created.schedules.Sundays]);
    const labels = (await api('/api/component/getAccessControlledDoorLabelsForOrg', {})).accessControlledDoorLabels;
    assert.deepEqual(labels, { [created.doors['Lab Door']]: ['lab', 'secure'] });
  });

  it('refuses wrong references and a grant named like a door access list, naming each, and changes nothing', async () => {
    const fresh = await server.createOrg('Refused Org');
    const before = await siteRowCounts(server);
    const r = await seed(
      fresh.orgUuid,
      `
locations: [{name: HQ}]
users: [{name: Ada}]
doors: [{name: D, location: HQ, access: [Ada]}]
accessGroups: [{name: G, location: Nowhere, members: [Ada, Nobody]}]
accessGrants:
  - {name: D access, location: HQ, users: [Ada]}
  - {name: X, location: HQ, groups: [Missing], doors: [No Door], elevatorLandings: [No Landing], schedule: Never}
accessRevocations: [{name: Y, location: Elsewhere, users: [Ghost]}]
`,
    );
    assert.equal(r.json.error, true);
    for (const problem of [
      'accessGroups[0].location (G): no location named "Nowhere"',
      'accessGroups[0].members[1] (G): no user named "Nobody"',
      'accessGrants[1].groups[0] (X): no access group named "Missing"',
      'accessGrants[1].doors[0] (X): no door named "No Door"',
      'accessGrants[1].elevatorLandings[0] (X): no elevator landing named "No Landing"',
      'accessGrants[1].schedule (X): no schedule named "Never"',
      'accessRevocations[0].location (Y): no location named "Elsewhere"',
      'accessRevocations[0].users[0] (Y): no user named "Ghost"',
      'doors[0].access (D): it is seeded as the grant "D access", which accessGrants declares too',
    ])
      assert.ok(r.json.errorMsg.includes(problem), `${problem} in ${r.json.errorMsg}`);
    assert.deepEqual(await siteRowCounts(server), before);
  });

  it('keeps the groups, grants and revocations the organization has by name when a file is seeded again', async () => {
    const before = await siteRowCounts(server);
    const first = await api('/api/accesscontrol/findAccessControlGroupsByOrg', {});
    const again = await seed(org.orgUuid, SITE);
    assert.equal(again.json.error, false, again.text);
    // Group names are unique whatever their case: STAFF is the Staff group.
    const staff = await seed(org.orgUuid, 'accessGroups: [{name: STAFF}]');
    assert.equal(staff.json.error, false, staff.text);
    assert.equal(staff.json.accessGroups.STAFF, again.json.accessGroups.Staff);
    assert.deepEqual(await api('/api/accesscontrol/findAccessControlGroupsByOrg', {}), first);
    assert.deepEqual(await siteRowCounts(server), before);
  });

  it('refuses a door of another location, changing nothing', async () => {
    const before = await siteRowCounts(server);
    const misplaced = await seed(
      org.orgUuid,
      'locations: [{name: P}, {name: Q}]\ndoors: [{name: Q Door, location: Q}]\naccessGrants: [{name: Wrong, location: P, doors: [Q Door]}]',
    );
    assert.match(misplaced.json.errorMsg, /^accessControlledDoorUuids: door .* is not at location/);
    assert.deepEqual(await siteRowCounts(server), before);
  });
});

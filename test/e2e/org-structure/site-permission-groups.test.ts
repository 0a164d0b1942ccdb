import { assertOk } from '../../helpers/api.js';
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { seedSiteText } from '../../../src/domains/sites/service.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { keyForUser, seedYaml } from '../../helpers/org-structure.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

const SITE = `
locations: [{name: East}, {name: West}]
permissionGroups:
  - {name: Viewers}
  - {name: East Admins, functionality: [LOCATION_ADMINISTRATION], locations: [East]}
users:
  - {name: Vera, email: vera@example.com, group: Viewers}
  - {name: Ed, group: East Admins}
`;

forEachDialect("Site file: permissionGroups and a user's group", (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let site: Record<string, Record<string, string>>;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Seeded Roles');
    site = await seedYaml(server, org.orgUuid, SITE);
  });
  after(() => server.close());

  it('creates the groups and puts the users in them, with real effect', async () => {
    const groups = (await server.call('/api/permission/getPermissionGroups', {}, { key: org.apiKey })).json;
    assert.deepEqual(
      groups.permissionGroups.map((g: any) => g.name),
      ['East Admins', 'Viewers'],
    );
    assert.deepEqual(groups.groupMembership[site.permissionGroups!.Viewers!], [site.users!.Vera]);
    const vera = await keyForUser(server, org.orgUuid, site.users!.Vera!);
    assert.equal((await server.call('/api/location/createLocation', { location: { name: 'X' } }, { key: vera })).status, 403);
    const ed = await keyForUser(server, org.orgUuid, site.users!.Ed!);
    const seen = await server.call('/api/location/getLocations', {}, { key: ed });
    assertOk(seen);
    assert.deepEqual(
      seen.json.locations.map((l: any) => l.name),
      ['East'],
    );
  });

  it('refuses an unknown group, an unknown functionality, a duplicate e-mail address, changing nothing', async () => {
    const bad = `
permissionGroups: [{name: Odd, functionality: [FLYING]}, {name: Viewers2, locations: [Nowhere]}]
users: [{name: A, email: a@example.com, group: Missing}, {name: B, email: A@example.com}, {name: C, email: vera@example.com}]
`;
    await assert.rejects(seedSiteText(server.gatehouse.deps, org.orgUuid, bad, 'yaml'), (e: Error) => {
      for (const part of [
        '"FLYING" is not a functionality',
        'no location named "Nowhere"',
        'no permission group named "Missing"',
        'another user has the e-mail address',
      ])
        assert.ok(e.message.includes(part), e.message);
      return true;
    });
    await assert.rejects(
      seedSiteText(server.gatehouse.deps, org.orgUuid, 'users: [{name: C, email: Vera@example.com}]', 'yaml'),
      /already has "Vera@example.com"/,
    );
    const groups = (await server.call('/api/permission/getPermissionGroups', {}, { key: org.apiKey })).json.permissionGroups;
    assert.equal(groups.length, 2);
  });
});

import { assertFails, assertOk } from '../../helpers/api.js';
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { keyForUser, seedYaml, watchChanges } from '../../helpers/org-structure.js';
import { startTestServer, type CallResult, type TestOrg, type TestServer } from '../../helpers/server.js';

const SITE = `
locations: [{name: North}, {name: South}]
cameras: [{name: North Cam, location: North}, {name: South Cam, location: South}]
users: [{name: Reader}, {name: Locals}]
`;

function expectDenied(r: CallResult): void {
  assert.equal(r.status, 403, r.text);
  assert.deepEqual({ error: r.json.error, errorMsg: r.json.errorMsg }, { error: true, errorMsg: 'Your API key role does not have proper permission' });
}

forEachDialect('POST /api/permission/* and the permission check of every operation', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: Record<string, Record<string, string>>;
  let readOnlyGroup: string;
  let readerKey: string;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Roles Inc');
    other = await server.createOrg('Other Org');
    site = await seedYaml(server, org.orgUuid, SITE);
    readerKey = await keyForUser(server, org.orgUuid, site.users!.Reader!);
  });
  after(() => server.close());
  const call = (path: string, body: unknown, key = org.apiKey) => server.call(path, body, { key });

  it('requires authentication', async () => {
    assert.equal((await server.call('/api/permission/getPermissionGroups', {}, { key: '' })).status, 401);
  });

  it('creates a group, lists it with its members, announced on the stream', async () => {
    const watch = await watchChanges(server, org.apiKey, org.orgUuid);
    try {
      const created = await call('/api/permission/createPermissionGroup', { userPermissionGroup: { name: 'Read only', functionalityList: [] } });
      assertOk(created);
      readOnlyGroup = created.json.uuid;
      await watch.waitFor((c) => c.entity === 'PERMISSION_GROUP' && c.entityUuid === readOnlyGroup, 'the PERMISSION_GROUP change');
      assertOk(await call('/api/permission/assignUserToPermissionGroup', { userUuid: site.users!.Reader!, groupUuid: readOnlyGroup }));
      const list = await call('/api/permission/getPermissionGroupsForOrg', {});
      assert.equal(list.json.permissionGroups[0].name, 'Read only');
      assert.deepEqual(list.json.groupMembership[readOnlyGroup], [site.users!.Reader]);
      assertFails(await call('/api/permission/createPermissionGroup', { userPermissionGroup: { name: 'Read only' } }), /already has a permission group/);
    } finally {
      await watch.close();
    }
  });

  it('a read-only user reads, and gets 403 with the platform text on every write', async () => {
    assertOk(await call('/api/location/getLocations', {}, readerKey));
    assertOk(await call('/api/user/getUsersInOrg', {}, readerKey));
    expectDenied(await call('/api/location/createLocation', { location: { name: 'Nope' } }, readerKey));
    expectDenied(await call('/api/user/createUser', { name: 'Nope' }, readerKey));
    expectDenied(await call('/api/permission/createPermissionGroup', { userPermissionGroup: { name: 'Mine' } }, readerKey));
    expectDenied(await call('/api/user/deleteUser', { userUuid: org.userUuid }, readerKey));
    const perms = await call('/api/permission/getPermissionsForCurrentUser', {}, readerKey);
    assertOk(perms);
    assert.deepEqual([perms.json.permissionGroupName, perms.json.superAdmin, perms.json.functionalityList], ['Read only', false, []]);
    const admin = await call('/api/permission/getPermissionsForCurrentUser', {});
    assert.equal(admin.json.superAdmin, true);
    assert.equal((await call('/api/location/getLocations', {})).json.locations.length, 2);
  });

  it('a group with a functionality may make the writes of that family, at once after the change', async () => {
    assertOk(
      await call('/api/permission/updatePermissionGroup', { userPermissionGroup: { uuid: readOnlyGroup, functionalityList: ['LOCATION_ADMINISTRATION'] } }),
    );
    assertOk(await call('/api/location/createLocation', { location: { name: 'Made by reader' } }, readerKey));
    expectDenied(await call('/api/user/createUser', { name: 'Still nope' }, readerKey));
    assertOk(await call('/api/permission/updatePermissionGroup', { userPermissionGroup: { uuid: readOnlyGroup, functionalityList: [] } }));
    expectDenied(await call('/api/location/createLocation', { location: { name: 'Nope again' } }, readerKey));
  });

  it('a group limited to some locations sees only those locations and their devices', async () => {
    const north = site.locations!.North!;
    const south = site.locations!.South!;
    const group = (
      await call('/api/permission/createPermissionGroup', {
        userPermissionGroup: { name: 'North only', accessibleLocations: [north], functionalityList: ['LOCATION_ADMINISTRATION'] },
      })
    ).json.uuid;
    assertOk(await call('/api/user/updateUserSelective', { userUuid: site.users!.Locals!, permissionGroupUuid: group }));
    const key = await keyForUser(server, org.orgUuid, site.users!.Locals!);
    const locations = (await call('/api/location/getLocations', {}, key)).json.locations;
    assert.deepEqual(
      locations.map((l: any) => l.uuid),
      [north],
    );
    expectDenied(await call('/api/location/getLocation', { locationUuid: south }, key));
    assertOk(await call('/api/location/getLocation', { locationUuid: north }, key));
    assertOk(await call('/api/location/addLocationLabel', { locationIdentifier: north, label: 'mine' }, key));
    expectDenied(await call('/api/location/addLocationLabel', { locationIdentifier: south, label: 'mine' }, key));
    const cameras = await call('/api/camera/getMinimalCameraStateList', {}, key);
    assertOk(cameras);
    assert.deepEqual(
      cameras.json.cameraStates.map((c: any) => c.uuid),
      [site.cameras!['North Cam']],
    );
    const all = (await call('/api/camera/getMinimalCameraStateList', {})).json.cameraStates;
    assert.equal(all.length, 2);
  });

  it('refuses to delete a group with users, and a change that leaves no administrator', async () => {
    assertFails(await call('/api/permission/deletePermissionGroup', { groupUuid: readOnlyGroup }), /still has 1 user/);
    const admins = (await call('/api/permission/createPermissionGroup', { userPermissionGroup: { name: 'Admins', superAdmin: true } })).json.uuid;
    assertOk(await call('/api/permission/assignUserToPermissionGroup', { userUuid: org.userUuid, groupUuid: admins }));
    assertFails(await call('/api/permission/updatePermissionGroup', { userPermissionGroup: { uuid: admins, superAdmin: false } }), /without an administrator/);
    assertFails(await call('/api/permission/assignUserToPermissionGroup', { userUuid: org.userUuid, groupUuid: readOnlyGroup }), /without an administrator/);
    assertOk(await call('/api/customer/getCurrentUser', {}));
    const scratch = (await call('/api/permission/createPermissionGroup', { userPermissionGroup: { name: 'Scratch' } })).json.uuid;
    assertOk(await call('/api/permission/deletePermissionGroup', { groupUuid: scratch }));
  });

  it('answers 400 for a malformed body', async () => {
    assert.equal((await call('/api/permission/createPermissionGroup', { userPermissionGroup: { name: 'X', functionalityList: ['FLY'] } })).status, 400);
  });

  it("answers another organization's groups as unknown and changes nothing", async () => {
    assertFails(
      await call('/api/permission/updatePermissionGroup', { userPermissionGroup: { uuid: readOnlyGroup, name: 'Taken' } }, other.apiKey),
      /not found/,
    );
    assertFails(await call('/api/permission/deletePermissionGroup', { groupUuid: readOnlyGroup }, other.apiKey), /not found/);
    assertFails(await call('/api/permission/assignUserToPermissionGroup', { userUuid: other.userUuid, groupUuid: readOnlyGroup }, other.apiKey), /not found/);
    assert.deepEqual((await call('/api/permission/getPermissionGroups', {}, other.apiKey)).json.permissionGroups, []);
    const mine = (await call('/api/permission/getPermissionGroups', {})).json.permissionGroups.find((g: any) => g.uuid === readOnlyGroup);
    assert.equal(mine.name, 'Read only');
  });
});

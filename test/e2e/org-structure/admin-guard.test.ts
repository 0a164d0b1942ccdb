import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { assertFails, assertOk } from '../../helpers/api.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

const LAST_ADMIN = /without an administrator/;
const LAST_PARTNER_ADMIN = /without a partner administrator/;

forEachDialect('no write leaves an organization without an administrator', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let supers: string;
  let limited: string;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Guarded Inc');
    const call = (path: string, body: unknown) => server.call(path, body, { key: org.apiKey });
    supers = (await call('/api/permission/createPermissionGroup', { userPermissionGroup: { name: 'Supers', superAdmin: true } })).json.uuid;
    limited = (await call('/api/permission/createPermissionGroup', { userPermissionGroup: { name: 'Limited', functionalityList: ['USER_ADMINISTRATION'] } }))
      .json.uuid;
    assertOk(await call('/api/user/updateUserSelective', { userUuid: org.userUuid, permissionGroupUuid: supers }));
  });
  after(() => server.close());
  const call = (path: string, body: unknown) => server.call(path, body, { key: org.apiKey });
  const groupOf = async (userUuid: string) => (await call('/api/user/getUser', { userUuid })).json.user.permissionGroupUuid;

  it('refuses every path that would take the last administrator away, and changes nothing', async () => {
    const admin = org.userUuid;
    for (const [path, body] of [
      ['/api/user/updateUserSelective', { userUuid: admin, permissionGroupUuid: limited }],
      ['/api/user/updateUser', { userUuid: admin, permissionGroupUuid: limited }],
      ['/api/permission/assignUserToPermissionGroup', { userUuid: admin, groupUuid: limited }],
      ['/api/permission/updatePermissionGroup', { userPermissionGroup: { uuid: supers, superAdmin: false } }],
      ['/api/user/deleteUser', { userUuid: admin }],
    ] as const) {
      assertFails(await call(path, body), LAST_ADMIN);
    }
    assertFails(await call('/api/permission/deletePermissionGroup', { groupUuid: supers }), /still has 1 user/);
    assert.equal(await groupOf(admin), supers);
    // The list answers the group as the catalogue has it: in userPermissions, not on the user.
    const listed = (await call('/api/user/getUsersInOrg', {})).json;
    assert.deepEqual(
      listed.userPermissions.filter((p: any) => p.userUuid === admin).map((p: any) => [p.groupUuid, p.orgUuid]),
      [[supers, org.orgUuid]],
    );
    assert.equal('permissionGroupUuid' in listed.users.find((u: any) => u.uuid === admin), false);
    const group = (await call('/api/permission/getPermissionGroups', {})).json.permissionGroups.find((g: any) => g.uuid === supers);
    assert.equal(group.superAdmin, true);
    assertOk(await call('/api/customer/getCurrentUser', {}));
  });

  it('allows the same writes once another administrator remains', async () => {
    const second = (await call('/api/user/createUser', { name: 'Second Admin' })).json.userUuid;
    assertOk(await call('/api/user/updateUserSelective', { userUuid: org.userUuid, permissionGroupUuid: limited }));
    assert.equal(await groupOf(org.userUuid), limited);
    // The second administrator is now the last one: the limited user cannot remove them.
    assertFails(await call('/api/user/deleteUser', { userUuid: second }), LAST_ADMIN);
    assertOk(await call('/api/permission/assignUserToPermissionGroup', { userUuid: org.userUuid, groupUuid: supers }));
    assertOk(await call('/api/user/deleteUser', { userUuid: second }));
  });
});

forEachDialect('no write leaves a partner without a partner administrator', (dialect) => {
  let server: TestServer;
  let partner: TestOrg;
  let key: string;
  before(async () => {
    server = await startTestServer(dialect);
    partner = await server.createOrg('Guarded Partner');
    key = await server.createPartnerKey(partner.orgUuid, []);
  });
  after(() => server.close());
  const call = (path: string, body: unknown) => server.call(path, body, { key, scheme: 'partner-api-token' });

  it('refuses a partner group change or a regrouping that takes the last partner administrator away', async () => {
    const supers = (await call('/api/permission/createPartnerPermissionGroup', { partnerPermissionGroup: { name: 'Supers', superAdmin: true } })).json.uuid;
    const staff = (
      await call('/api/permission/createPartnerPermissionGroup', { partnerPermissionGroup: { name: 'Staff', functionalityList: ['USER_ADMINISTRATION'] } })
    ).json.uuid;
    assertOk(await call('/api/user/updatePartnerUser', { userUuid: partner.userUuid, permissionGroupUuid: supers }));
    assertFails(
      await call('/api/permission/updatePartnerPermissionGroup', { partnerPermissionGroup: { uuid: supers, superAdmin: false } }),
      LAST_PARTNER_ADMIN,
    );
    assertFails(await call('/api/user/updatePartnerUser', { userUuid: partner.userUuid, permissionGroupUuid: staff }), LAST_PARTNER_ADMIN);
    assertFails(await call('/api/permission/deletePartnerPermissionGroup', { groupUuid: supers }), /still has 1 user/);
    const mine = (await call('/api/permission/getPermissionsForCurrentPartner', {})).json;
    assert.deepEqual([mine.permissionGroupName, mine.superAdmin], ['Supers', true]);
  });
});

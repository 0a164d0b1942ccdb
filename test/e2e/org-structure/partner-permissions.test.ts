import { assertFails, assertOk } from '../../helpers/api.js';
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createApiKey } from '../../../src/domains/orgs/service.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { expectDenied, seedYaml, watchChanges } from '../../helpers/org-structure.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

forEachDialect('POST /api/permission/*PartnerPermissionGroup*, partner users, and partner rights at the edge', (dialect) => {
  let server: TestServer;
  let partner: TestOrg;
  let clientA: TestOrg;
  let clientB: TestOrg;
  let stranger: TestOrg;
  let adminKey: string;
  let users: Record<string, string>;
  let keys: Record<string, string>;
  let groups: Record<string, string>;
  before(async () => {
    server = await startTestServer(dialect);
    partner = await server.createOrg('Integrator');
    clientA = await server.createOrg('Client A');
    clientB = await server.createOrg('Client B');
    stranger = await server.createOrg('Stranger');
    await seedYaml(server, clientA.orgUuid, 'locations: [{name: Shop}]');
    await seedYaml(server, clientB.orgUuid, 'locations: [{name: Depot}]\npermissionGroups: [{name: Locations, functionality: [LOCATION_ADMINISTRATION]}]');
    users = (await seedYaml(server, partner.orgUuid, 'users: [{name: Viewer}, {name: Bees}, {name: Custom}]')).users!;
    adminKey = await server.createPartnerKey(partner.orgUuid, [clientA.orgUuid, clientB.orgUuid]);
    keys = {};
    for (const name of ['Viewer', 'Bees', 'Custom'])
      keys[name] = (await createApiKey(server.gatehouse.deps, { orgUuid: partner.orgUuid, kind: 'partner', userUuid: users[name] })).apiKey;
    groups = {};
  });
  after(() => server.close());
  const call = (path: string, body: unknown, org?: string, key = adminKey) => server.call(path, body, { key, scheme: 'partner-api-token', org });

  it('creates partner groups, lists them with their users, announced on the stream', async () => {
    const watch = await watchChanges(server, partner.apiKey, partner.orgUuid);
    try {
      const clientBGroup = (await server.call('/api/permission/getPermissionGroups', {}, { key: clientB.apiKey })).json.permissionGroups[0].uuid;
      for (const [name, group] of [
        ['Viewers', { functionalityList: [], clientFunctionalityList: [] }],
        [
          'B only',
          { functionalityList: ['CREATE_CLIENT'], clientFunctionalityList: ['USER_ADMINISTRATION'], clientPermissionMap: { [clientB.orgUuid]: 'DEFAULT' } },
        ],
        ['Custom B', { clientPermissionMap: { [clientB.orgUuid]: 'CUSTOM' }, clientAssignablePermissionGroupsMap: { [clientB.orgUuid]: [clientBGroup] } }],
      ] as const) {
        const r = await call('/api/permission/createPartnerPermissionGroup', { partnerPermissionGroup: { name, ...group } });
        assertOk(r);
        groups[name] = r.json.uuid;
      }
      await watch.waitFor((c) => c.entity === 'PARTNER_PERMISSION_GROUP' && c.entityUuid === groups.Viewers, 'the PARTNER_PERMISSION_GROUP change');
    } finally {
      await watch.close();
    }
    for (const [user, group] of [
      ['Viewer', 'Viewers'],
      ['Bees', 'B only'],
      ['Custom', 'Custom B'],
    ]) {
      assertOk(await call('/api/user/updatePartnerUser', { userUuid: users[user], permissionGroupUuid: groups[group] }));
    }
    const list = (await call('/api/permission/getPartnerPermissionGroups', {})).json;
    assert.deepEqual(list.permissionGroups.map((g: any) => g.name).sort(), ['B only', 'Custom B', 'Viewers']);
    assert.deepEqual(list.groupMembership[groups.Viewers!], [users.Viewer]);
    const partnerUsers = (await call('/api/user/getPartnerUsersInOrg', {})).json;
    assert.ok(partnerUsers.partnerPermissions.some((p: any) => p.userUuid === users.Viewer && p.groupUuid === groups.Viewers));
    assertFails(
      await call('/api/permission/createPartnerPermissionGroup', { partnerPermissionGroup: { name: 'Viewers' } }),
      /already has a partner permission group/,
    );
    assertFails(
      await call('/api/permission/createPartnerPermissionGroup', {
        partnerPermissionGroup: { name: 'Far', clientPermissionMap: { [stranger.orgUuid]: 'DEFAULT' } },
      }),
      /Client .* not found/,
    );
    assertFails(
      await call('/api/permission/createPartnerPermissionGroup', {
        partnerPermissionGroup: { name: 'Odd', clientPermissionMap: { [clientA.orgUuid]: 'CUSTOM' } },
      }),
      /a CUSTOM client needs a permission group/,
    );
  });

  it('a partner user in a read-only partner group reads as the partner and in clients, and gets 403 on every write', async () => {
    const viewer = keys.Viewer!;
    assertOk(await call('/api/partner/getClientsV2', {}, undefined, viewer));
    assertOk(await call('/api/location/getLocations', {}, clientA.orgUuid, viewer));
    for (const [path, body] of [
      ['/api/partner/createPartnerClient', { clientOrgName: 'Nope' }],
      ['/api/partner/deleteClient', { clientOrgUuid: clientA.orgUuid }],
      ['/api/partner/customizeClient', { clientOrgUuid: clientA.orgUuid, customizations: {} }],
      ['/api/partner/reassignDeviceOrg', { serialNumbers: [], sourceOrgUuid: clientA.orgUuid, targetOrgUuid: clientB.orgUuid }],
      ['/api/partner/updateSendLicenseExpirationEmail', { orgUuid: clientA.orgUuid, manuallySendLicenseExpirationEmail: true }],
      ['/api/partner/revokeApiToken', { tokenUuid: users.Viewer }],
      ['/api/permission/createPartnerPermissionGroup', { partnerPermissionGroup: { name: 'Mine' } }],
      ['/api/permission/updatePartnerPermissionGroup', { partnerPermissionGroup: { uuid: groups.Viewers, superAdmin: true } }],
      ['/api/permission/deletePartnerPermissionGroup', { groupUuid: groups.Viewers }],
      ['/api/user/updatePartnerUser', { userUuid: users.Viewer, permissionGroupUuid: null }],
      ['/api/user/updatePartnerUserNotificationSettings', { allClientsSelected: true }],
    ] as const) {
      expectDenied(await call(path, body, undefined, viewer));
    }
    expectDenied(await call('/api/location/createLocation', { location: { name: 'Nope' } }, clientA.orgUuid, viewer));
    const mine = (await call('/api/permission/getPermissionsForCurrentPartner', {}, undefined, viewer)).json;
    assert.deepEqual([mine.permissionGroupName, mine.superAdmin, mine.functionalityList], ['Viewers', false, []]);
  });

  it('a group limited to some clients reaches only those: others answer Access Denied and are not listed', async () => {
    const bees = keys.Bees!;
    assert.deepEqual(
      (await call('/api/partner/getClientsV2', {}, undefined, bees)).json.partnerClients.map((c: any) => c.orgUuid),
      [clientB.orgUuid],
    );
    const denied = await call('/api/org/getOrgV2', {}, clientA.orgUuid, bees);
    assert.deepEqual([denied.status, denied.json.errorMsg], [403, 'Access Denied']);
    assertFails(await call('/api/partner/getClientDevices', { orgUuid: clientA.orgUuid }, undefined, bees), /Client .* not found/);
    assertOk(await call('/api/user/createUser', { name: 'Made by Bees' }, clientB.orgUuid, bees));
    expectDenied(await call('/api/location/createLocation', { location: { name: 'Nope' } }, clientB.orgUuid, bees));
    // CREATE_CLIENT is among its partner rights.
    assertOk(await call('/api/partner/createPartnerClient', { clientOrgName: 'Bees Client' }, undefined, bees));
    // CUSTOM: the client's own group applies (LOCATION_ADMINISTRATION in B, nothing in A).
    assertOk(await call('/api/location/createLocation', { location: { name: 'Custom Depot' } }, clientB.orgUuid, keys.Custom));
    expectDenied(await call('/api/user/createUser', { name: 'Nope' }, clientB.orgUuid, keys.Custom));
    assert.equal((await call('/api/org/getOrgV2', {}, clientA.orgUuid, keys.Custom)).status, 403);
    const reach = (await call('/api/org/getClientOrg', { orgUuid: clientB.orgUuid }, undefined, keys.Custom)).json.partnerOrgPermissionGroup;
    assert.deepEqual([reach.name, reach.functionalityList], ['Locations', ['LOCATION_ADMINISTRATION']]);
  });

  it('changes a group with effect at once, refuses deleting one in use, and keeps a partner administrator', async () => {
    assertOk(
      await call('/api/permission/updatePartnerPermissionGroup', {
        partnerPermissionGroup: { uuid: groups.Viewers, clientFunctionalityList: ['LOCATION_ADMINISTRATION'] },
      }),
    );
    assertOk(await call('/api/location/createLocation', { location: { name: 'Viewer Spot' } }, clientA.orgUuid, keys.Viewer));
    assertFails(await call('/api/permission/deletePartnerPermissionGroup', { groupUuid: groups.Viewers }), /still has 1 user/);
    // The partner's first user is its only partner administrator: putting them in a group is refused.
    assertFails(
      await call('/api/user/updatePartnerUser', { userUuid: partner.userUuid, permissionGroupUuid: groups.Viewers }),
      /without a partner administrator/,
    );
    assertFails(await server.call('/api/user/deleteUser', { userUuid: partner.userUuid }, { key: partner.apiKey }), /without a partner administrator/);
    const made = await call('/api/permission/createPartnerPermissionGroup', { partnerPermissionGroup: { name: 'Temp' } });
    assertOk(await call('/api/permission/deletePartnerPermissionGroup', { groupUuid: made.json.uuid }));
    assertFails(await call('/api/permission/deletePartnerPermissionGroup', { groupUuid: made.json.uuid }), /not found/);
    // Another partner's groups are unknown.
    const strangerKey = await server.createPartnerKey(stranger.orgUuid, []);
    assertFails(await call('/api/permission/deletePartnerPermissionGroup', { groupUuid: groups.Viewers }, undefined, strangerKey), /not found/);
    assertFails(await call('/api/user/updatePartnerUser', { userUuid: users.Viewer, name: 'Mine' }, undefined, strangerKey), /not found/);
    assert.deepEqual((await call('/api/permission/getPartnerPermissionGroups', {}, undefined, strangerKey)).json.permissionGroups, []);
  });

  it("keeps a partner user's notification settings for the partner's clients only", async () => {
    const settings = {
      allClientsSelected: false,
      clientNotificationIntervalsMap: { [clientA.orgUuid]: [{ rows: [{ activities: ['MOTION_HUMAN'], mediums: ['EMAIL'] }] }] },
    };
    assertOk(await call('/api/user/updatePartnerUserNotificationSettings', { userUuid: users.Bees, ...settings }));
    const kept = (await call('/api/user/getPartnerUsersInOrg', {})).json.notificationSettingsV2.find((s: any) => s.userUuid === users.Bees);
    assert.deepEqual(kept.clientNotificationIntervalsMap, settings.clientNotificationIntervalsMap);
    assertFails(
      await call('/api/user/updatePartnerUserNotificationSettings', { userUuid: users.Bees, clientNotificationIntervalsMap: { [stranger.orgUuid]: [] } }),
      /Client .* not found/,
    );
    assertOk(await call('/api/user/updatePartnerUser', { userUuid: users.Bees, name: 'Bea', mfaEnabled: true }));
    const bea = (await call('/api/user/getPartnerUsersInOrg', {})).json.partnerUsers.find((u: any) => u.uuid === users.Bees);
    assert.deepEqual([bea.name, bea.mfaEnabled], ['Bea', true]);
  });
});

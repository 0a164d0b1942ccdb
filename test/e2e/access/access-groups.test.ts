import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import type { TestOrg, TestServer } from '../../helpers/server.js';
import { auditOf, changesDuring, ok, refused, startGrantsBed, type GrantsSite } from './grants-fixtures.js';

forEachDialect('access control groups', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: GrantsSite;
  let otherSite: GrantsSite;
  before(async () => {
    ({ server, org, other, site, otherSite } = await startGrantsBed(dialect, 'Groups Org'));
  });
  after(() => server.close());

  let n = 0;
  const newGroup = (body: Record<string, unknown> = {}, who = org) => ok(server, who, 'createAccessControlGroup', { name: `Group ${n++}`, ...body });

  describe('/api/accesscontrol/createAccessControlGroup', () => {
    it('creates a group with its members, announces both and audits them; the group reads back', async () => {
      let created: any;
      const changes = await changesDuring(server, async () => {
        created = await newGroup({
          name: 'Night Shift',
          description: 'after hours',
          locationUuid: site.locations.HQ,
          userUuids: [site.users.Ada, site.users.Bob],
        });
      });
      const { group, groupMembers } = created;
      assert.deepEqual(
        [group.name, group.description, group.locationUuid, group.orgUuid, group.type],
        ['Night Shift', 'after hours', site.locations.HQ, org.orgUuid, 'RHOMBUS_ACCESS_CONTROL'],
      );
      assert.deepEqual(groupMembers.map((m: any) => m.userUuid).sort(), [site.users.Ada, site.users.Bob].sort());
      assert.ok(groupMembers.every((m: any) => m.groupUuid === group.uuid && m.orgUuid === org.orgUuid));
      assert.deepEqual(
        changes.map((c) => [c.entity, c.type, c.entityUuid]),
        [
          ['ACCESS_CONTROL_GROUP', 'CREATE', group.uuid],
          ['ACCESS_CONTROL_GROUP_MEMBERS', 'CREATE', group.uuid],
        ],
      );
      assert.deepEqual(changes[1].update, { groupUuid: group.uuid, orgUuid: org.orgUuid, userUuids: [site.users.Ada, site.users.Bob] });
      assert.deepEqual(
        (await auditOf(server, group.uuid)).map((a) => [a.entity, a.action, a.operation]),
        [
          ['ACCESS_CONTROL_GROUP', 'CREATE', 'createAccessControlGroup'],
          ['ACCESS_CONTROL_GROUP_MEMBERS', 'CREATE', 'createAccessControlGroup'],
        ],
      );
      const found = await ok(server, org, 'findAccessControlGroupByExactName', { groupName: 'Night Shift' });
      assert.deepEqual(found.group, group);
    });

    it('refuses a name the organization has in any case, an empty name, and another organization’s users or location', async () => {
      await newGroup({ name: 'Cleaners' });
      await refused(server, org, 'createAccessControlGroup', { name: 'CLEANERS' }, /already has an access control group named "Cleaners"/);
      await refused(server, org, 'createAccessControlGroup', { name: '   ' }, /^name: must not be empty$/);
      await refused(
        server,
        org,
        'createAccessControlGroup',
        { name: 'X1', userUuids: [otherSite.users.Ada] },
        new RegExp(`^User ${otherSite.users.Ada} not found$`),
      );
      await refused(server, org, 'createAccessControlGroup', { name: 'X2', locationUuid: otherSite.locations.HQ }, /^Location .* not found$/);
      const names = (await ok(server, org, 'findAccessControlGroupsByOrg', {})).groups.map((g: any) => g.name);
      assert.ok(!names.includes('X1') && !names.includes('X2'), 'nothing was created');
    });

    it('lets another organization use the same name', async () => {
      await newGroup({ name: 'Shared Name' });
      const theirs = await newGroup({ name: 'Shared Name' }, other);
      assert.equal(theirs.group.orgUuid, other.orgUuid);
    });
  });

  describe('/api/accesscontrol/updateAccessControlGroup', () => {
    it('renames a group and changes its description, keeping what is left out, and announces it', async () => {
      const { group } = await newGroup({ description: 'first' });
      let updated: any;
      const changes = await changesDuring(server, async () => {
        updated = (await ok(server, org, 'updateAccessControlGroup', { groupUuid: group.uuid, name: 'Renamed Group' })).group;
      });
      assert.deepEqual([updated.name, updated.description, updated.createdAtMillis], ['Renamed Group', 'first', group.createdAtMillis]);
      assert.deepEqual(
        changes.map((c) => [c.entity, c.type]),
        [['ACCESS_CONTROL_GROUP', 'UPDATE']],
      );
      const again = await ok(server, org, 'updateAccessControlGroup', { groupUuid: group.uuid, description: 'second' });
      assert.deepEqual([again.group.name, again.group.description], ['Renamed Group', 'second']);
    });

    it("answers another organization's group as an unknown one and leaves it alone; refuses a taken name", async () => {
      const theirs = (await newGroup({}, other)).group;
      await refused(server, org, 'updateAccessControlGroup', { groupUuid: theirs.uuid, name: 'Mine Now' }, /^Access control group .* not found$/);
      assert.equal((await ok(server, other, 'findAccessControlGroupByExactName', { groupName: theirs.name })).group.name, theirs.name);
      const a = (await newGroup()).group;
      const b = (await newGroup()).group;
      await refused(server, org, 'updateAccessControlGroup', { groupUuid: b.uuid, name: a.name.toUpperCase() }, /already has an access control group/);
    });
  });

  describe('/api/accesscontrol/deleteAccessControlGroup', () => {
    it('deletes a group with its memberships and announces it', async () => {
      const { group } = await newGroup({ userUuids: [site.users.Cy] });
      const changes = await changesDuring(server, () => ok(server, org, 'deleteAccessControlGroup', { groupUuid: group.uuid }));
      assert.deepEqual(
        changes.map((c) => [c.entity, c.type, c.entityUuid]),
        [['ACCESS_CONTROL_GROUP', 'DELETE', group.uuid]],
      );
      await refused(server, org, 'findAllUsersForAccessControlGroup', { groupUuid: group.uuid }, /not found/);
      const cyGroups = (await ok(server, org, 'findAccessControlGroupsByUserMembership', { userUuid: site.users.Cy })).groups;
      assert.ok(!cyGroups.some((g: any) => g.uuid === group.uuid));
    });

    it('refuses while a grant or revocation names the group, naming them', async () => {
      const { group } = await newGroup();
      await ok(server, org, 'createAccessRevocation', { accessRevocation: { name: 'No Night', locationUuid: site.locations.HQ, groupUuids: [group.uuid] } });
      await refused(server, org, 'deleteAccessControlGroup', { groupUuid: group.uuid }, /is named by revocation "No Night"$/);
    });

    it("answers another organization's group as an unknown one and deletes nothing", async () => {
      const theirs = (await newGroup({}, other)).group;
      await refused(server, org, 'deleteAccessControlGroup', { groupUuid: theirs.uuid }, /not found/);
      assert.ok((await ok(server, other, 'findAccessControlGroupsByOrg', {})).groups.some((g: any) => g.uuid === theirs.uuid));
    });
  });

  describe('the group finders', () => {
    it('findAccessControlGroupsByOrg lists only the organization’s groups, by name', async () => {
      const groups = (await ok(server, org, 'findAccessControlGroupsByOrg', {})).groups;
      assert.ok(groups.length > 0 && groups.every((g: any) => g.orgUuid === org.orgUuid));
      const names = groups.map((g: any) => g.name.toLowerCase());
      assert.deepEqual(names, [...names].sort());
    });

    it('findAccessControlGroupsByNamePrefix matches a prefix whatever its case, literally', async () => {
      await newGroup({ name: 'Prefix_One' });
      await newGroup({ name: 'prefix two' });
      await newGroup({ name: 'PrefixZ%' });
      const find = async (groupNamePrefix: string) =>
        (await ok(server, org, 'findAccessControlGroupsByNamePrefix', { groupNamePrefix })).groups.map((g: any) => g.name).sort();
      assert.deepEqual(await find('PREFIX'), ['PrefixZ%', 'Prefix_One', 'prefix two']);
      assert.deepEqual(await find('prefix_'), ['Prefix_One'], '_ is not a wildcard');
      assert.deepEqual(await find('prefixz%'), ['PrefixZ%'], '% is not a wildcard');
      assert.deepEqual(
        (await ok(server, other, 'findAccessControlGroupsByNamePrefix', { groupNamePrefix: 'prefix' })).groups,
        [],
        'another organization sees none of them',
      );
    });

    it('findAccessControlGroupByExactName matches the name exactly, case included', async () => {
      await newGroup({ name: 'Exact Group' });
      await refused(server, org, 'findAccessControlGroupByExactName', { groupName: 'exact group' }, /^Access control group named "exact group" not found$/);
      await refused(server, other, 'findAccessControlGroupByExactName', { groupName: 'Exact Group' }, /not found/);
    });

    it('the membership finders answer a user’s groups and memberships; another organization’s user is unknown', async () => {
      const { group } = await newGroup({ userUuids: [site.users.Bob] });
      const groups = (await ok(server, org, 'findAccessControlGroupsByUserMembership', { userUuid: site.users.Bob })).groups;
      assert.ok(groups.some((g: any) => g.uuid === group.uuid));
      const memberships = (await ok(server, org, 'findAccessControlGroupMembershipsByUser', { userUuid: site.users.Bob })).userGroupMemberships;
      assert.ok(memberships.some((m: any) => m.groupUuid === group.uuid && m.userUuid === site.users.Bob && m.type === 'RHOMBUS_ACCESS_CONTROL'));
      for (const operation of ['findAccessControlGroupsByUserMembership', 'findAccessControlGroupMembershipsByUser'])
        await refused(server, org, operation, { userUuid: otherSite.users.Bob }, /^User .* not found$/);
    });
  });

  describe('/api/accesscontrol/addUsersToAccessControlGroup, removeUsersFromAccessControlGroup, findAllUsersForAccessControlGroup', () => {
    it('adds users (those in it already stay), answers every member, removes users (non-members passed over), each change announced', async () => {
      const { group } = await newGroup({ userUuids: [site.users.Ada] });
      let added: any;
      const joined = await changesDuring(server, async () => {
        added = await ok(server, org, 'addUsersToAccessControlGroup', { groupUuid: group.uuid, userUuids: [site.users.Ada, site.users.Bob] });
      });
      assert.deepEqual(added.groupMembers.map((m: any) => m.userUuid).sort(), [site.users.Ada, site.users.Bob].sort());
      assert.deepEqual(
        joined.map((c) => [c.entity, c.type, (c.update as any).userUuids]),
        [['ACCESS_CONTROL_GROUP_MEMBERS', 'CREATE', [site.users.Bob]]],
      );
      const left = await changesDuring(server, () =>
        ok(server, org, 'removeUsersFromAccessControlGroup', { groupUuid: group.uuid, userUuids: [site.users.Ada, site.users.Cy] }),
      );
      assert.deepEqual(
        left.map((c) => [c.entity, c.type, (c.update as any).userUuids]),
        [['ACCESS_CONTROL_GROUP_MEMBERS', 'DELETE', [site.users.Ada]]],
      );
      const members = (await ok(server, org, 'findAllUsersForAccessControlGroup', { groupUuid: group.uuid })).groupMembers;
      assert.deepEqual(
        members.map((m: any) => m.userUuid),
        [site.users.Bob],
      );
    });

    it('drops a deleted user from their groups', async () => {
      const created = await server.call('/api/user/createUser', { name: 'Temp' }, { key: org.apiKey });
      const temp = created.json.userUuid;
      const { group } = await newGroup({ userUuids: [temp, site.users.Ada] });
      assert.equal((await server.call('/api/user/deleteUser', { userUuid: temp }, { key: org.apiKey })).json.error, false);
      assert.deepEqual(
        (await ok(server, org, 'findAllUsersForAccessControlGroup', { groupUuid: group.uuid })).groupMembers.map((m: any) => m.userUuid),
        [site.users.Ada],
      );
    });

    it("refuses another organization's users and groups, changing nothing", async () => {
      const { group } = await newGroup({ userUuids: [site.users.Ada] });
      const theirs = (await newGroup({ userUuids: [otherSite.users.Ada] }, other)).group;
      await refused(
        server,
        org,
        'addUsersToAccessControlGroup',
        { groupUuid: group.uuid, userUuids: [site.users.Bob, otherSite.users.Bob] },
        /^User .* not found$/,
      );
      await refused(server, org, 'addUsersToAccessControlGroup', { groupUuid: theirs.uuid, userUuids: [site.users.Bob] }, /not found/);
      await refused(server, org, 'removeUsersFromAccessControlGroup', { groupUuid: theirs.uuid, userUuids: [otherSite.users.Ada] }, /not found/);
      await refused(server, org, 'findAllUsersForAccessControlGroup', { groupUuid: theirs.uuid }, /not found/);
      assert.deepEqual(
        (await ok(server, org, 'findAllUsersForAccessControlGroup', { groupUuid: group.uuid })).groupMembers.map((m: any) => m.userUuid),
        [site.users.Ada],
      );
      assert.deepEqual(
        (await ok(server, other, 'findAllUsersForAccessControlGroup', { groupUuid: theirs.uuid })).groupMembers.map((m: any) => m.userUuid),
        [otherSite.users.Ada],
      );
    });
  });
});

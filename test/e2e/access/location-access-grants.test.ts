import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import type { TestOrg, TestServer } from '../../helpers/server.js';
import { auditOf, changesDuring, ok, refused, startGrantsBed, type GrantsSite } from './grants-fixtures.js';

/** The two kinds share every shape: each case runs for both, under the catalogue's names of each. */
const KINDS = [
  {
    entity: 'LOCATION_ACCESS_GRANT',
    one: 'accessGrant',
    many: 'accessGrants',
    uuid: 'accessGrantUuid',
    create: 'createAccessGrant',
    update: 'updateAccessGrant',
    remove: 'deleteLocationAccessGrant',
    get: 'getLocationAccessGrant',
    find: 'findLocationAccessGrantsBy',
  },
  {
    entity: 'LOCATION_ACCESS_REVOCATION',
    one: 'accessRevocation',
    many: 'accessRevocations',
    uuid: 'accessRevocationUuid',
    create: 'createAccessRevocation',
    update: 'updateAccessRevocation',
    remove: 'deleteLocationAccessRevocation',
    get: 'getLocationAccessRevocation',
    find: 'findLocationAccessRevocationsBy',
  },
] as const;

forEachDialect('location access grants and revocations', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: GrantsSite;
  let otherSite: GrantsSite;
  let staff: string;
  before(async () => {
    ({ server, org, other, site, otherSite } = await startGrantsBed(dialect, 'Grants Org'));
    staff = (await ok(server, org, 'createAccessControlGroup', { name: 'Staff', userUuids: [site.users.Bob] })).group.uuid;
  });
  after(() => server.close());

  for (const k of KINDS) {
    const create = (rule: Record<string, unknown>, who = org) => ok(server, who, k.create, { [k.one]: rule }).then((r) => r[k.one]);
    const find = (by: string, body: Record<string, unknown>, who = org) =>
      ok(server, who, `${k.find}${by}`, body).then((r) => (r[k.many] as any[]).map((g) => g.uuid));

    describe(`/api/accesscontrol/${k.create}, ${k.get}`, () => {
      it('creates a rule naming users, groups, doors, landings and labels; reads it back; announces and audits it', async () => {
        let rule: any;
        const changes = await changesDuring(server, async () => {
          rule = await create({
            name: 'Lab staff',
            locationUuid: site.locations.HQ,
            scheduleUuid: site.schedules['Weekdays 9-17'],
            userUuids: [site.users.Ada],
            groupUuids: [staff],
            accessControlledDoorUuids: [site.doors['Lab Door']],
            accessControlledElevatorLandingUuids: [site.elevatorLandings['Floor 2']],
            doorLabelIds: ['secure'],
            sortKey: 'ignored',
            storedInS3: true,
          });
        });
        assert.deepEqual(
          [rule.name, rule.orgUuid, rule.locationUuid, rule.scheduleUuid, rule.userUuids, rule.groupUuids],
          ['Lab staff', org.orgUuid, site.locations.HQ, site.schedules['Weekdays 9-17'], [site.users.Ada], [staff]],
        );
        assert.deepEqual(
          [rule.accessControlledDoorUuids, rule.accessControlledElevatorLandingUuids, rule.doorLabelIds],
          [[site.doors['Lab Door']], [site.elevatorLandings['Floor 2']], ['secure']],
        );
        assert.equal(rule.createdAtMillis, rule.updatedAtMillis);
        assert.deepEqual((await ok(server, org, k.get, { [k.uuid]: rule.uuid }))[k.one], rule);
        assert.deepEqual(
          changes.map((c) => [c.entity, c.type, c.entityUuid]),
          [[k.entity, 'CREATE', rule.uuid]],
        );
        assert.deepEqual(changes[0].update, rule);
        assert.deepEqual(
          (await auditOf(server, rule.uuid)).map((a) => [a.entity, a.action, a.operation]),
          [[k.entity, 'CREATE', k.create]],
        );
      });

      it('refuses a rule without a name or location, and ids of another organization or of another location, creating nothing', async () => {
        const before = await find('Org', {});
        const cases: Array<[Record<string, unknown>, RegExp]> = [
          [{ locationUuid: site.locations.HQ }, /\.name: must not be empty$/],
          [{ name: 'No place' }, /\.locationUuid: is required$/],
          [{ name: 'X', locationUuid: otherSite.locations.HQ }, /^Location .* not found$/],
          [{ name: 'X', locationUuid: site.locations.HQ, userUuids: [otherSite.users.Ada] }, /^User .* not found$/],
          [{ name: 'X', locationUuid: site.locations.HQ, groupUuids: ['AAAAAAAAAAAAAAAAAAAAAA'] }, /^Access control group .* not found$/],
          [{ name: 'X', locationUuid: site.locations.HQ, scheduleUuid: otherSite.schedules.Sundays }, /^Schedule .* not found$/],
          [{ name: 'X', locationUuid: site.locations.HQ, accessControlledDoorUuids: [otherSite.doors['Front Door']] }, /^Door .* not found$/],
          [
            { name: 'X', locationUuid: site.locations.HQ, accessControlledDoorUuids: [site.doors['Annex Door']] },
            /^accessControlledDoorUuids: door .* is not at location/,
          ],
          [
            { name: 'X', locationUuid: site.locations.Annex, accessControlledElevatorLandingUuids: [site.elevatorLandings['Floor 2']] },
            /^accessControlledElevatorLandingUuids: elevator landing .* is not at location/,
          ],
          [{ name: 'X', locationUuid: site.locations.HQ, doorLabelIds: ['  '] }, /^doorLabelIds\[0\]: must not be empty$/],
          [{ name: 'X', locationUuid: site.locations.HQ, orgUuid: other.orgUuid }, /not found$/],
        ];
        for (const [rule, pattern] of cases) await refused(server, org, k.create, { [k.one]: rule }, pattern);
        assert.deepEqual(await find('Org', {}), before);
      });

      it("answers another organization's rule as an unknown one", async () => {
        const theirs = await create({ name: 'Theirs', locationUuid: otherSite.locations.HQ }, other);
        await refused(server, org, k.get, { [k.uuid]: theirs.uuid }, /^Location access (grant|revocation) .* not found$/);
      });
    });

    describe(`/api/accesscontrol/${k.update}`, () => {
      it('replaces the lists and the schedule, keeps name and location when left out, and announces it', async () => {
        const rule = await create({
          name: 'To change',
          locationUuid: site.locations.HQ,
          scheduleUuid: site.schedules.Sundays,
          userUuids: [site.users.Ada],
          doorLabelIds: ['lobby'],
        });
        let updated: any;
        const changes = await changesDuring(server, async () => {
          updated = (await ok(server, org, k.update, { [k.one]: { uuid: rule.uuid, userUuids: [site.users.Cy], groupUuids: [staff] } }))[k.one];
        });
        assert.deepEqual(
          [updated.name, updated.locationUuid, updated.scheduleUuid, updated.userUuids, updated.groupUuids, updated.doorLabelIds],
          ['To change', site.locations.HQ, null, [site.users.Cy], [staff], []],
        );
        assert.equal(updated.createdAtMillis, rule.createdAtMillis);
        assert.deepEqual(
          changes.map((c) => [c.entity, c.type, c.entityUuid]),
          [[k.entity, 'UPDATE', rule.uuid]],
        );
        assert.deepEqual((await ok(server, org, k.get, { [k.uuid]: rule.uuid }))[k.one], updated);
      });

      it("refuses a missing uuid and another organization's rule, changing nothing", async () => {
        await refused(server, org, k.update, { [k.one]: { name: 'No uuid' } }, /\.uuid: is required$/);
        const theirs = await create({ name: 'Theirs too', locationUuid: otherSite.locations.HQ, userUuids: [otherSite.users.Ada] }, other);
        await refused(server, org, k.update, { [k.one]: { uuid: theirs.uuid, name: 'Taken over', locationUuid: site.locations.HQ } }, /not found$/);
        assert.deepEqual((await ok(server, other, k.get, { [k.uuid]: theirs.uuid }))[k.one], theirs);
      });
    });

    describe(`/api/accesscontrol/${k.remove}`, () => {
      it('deletes a rule, announces it, and then answers it as unknown', async () => {
        const rule = await create({ name: 'Short lived', locationUuid: site.locations.Annex });
        const changes = await changesDuring(server, () => ok(server, org, k.remove, { [k.uuid]: rule.uuid }));
        assert.deepEqual(
          changes.map((c) => [c.entity, c.type, c.entityUuid]),
          [[k.entity, 'DELETE', rule.uuid]],
        );
        await refused(server, org, k.get, { [k.uuid]: rule.uuid }, /not found$/);
        await refused(server, org, k.remove, { [k.uuid]: rule.uuid }, /not found$/);
      });

      it("refuses another organization's rule, deleting nothing", async () => {
        const theirs = await create({ name: 'Keep me', locationUuid: otherSite.locations.HQ }, other);
        await refused(server, org, k.remove, { [k.uuid]: theirs.uuid }, /not found$/);
        assert.equal((await ok(server, other, k.get, { [k.uuid]: theirs.uuid }))[k.one].name, 'Keep me');
      });
    });

    describe(`the ${k.find}* finders`, () => {
      let hqWide: any;
      let frontForAda: any;
      let labForStaff: any;
      let landing: any;
      let annex: any;
      before(async () => {
        hqWide = await create({ name: 'F hq wide', locationUuid: site.locations.HQ, userUuids: [site.users.Cy] });
        frontForAda = await create({
          name: 'F front',
          locationUuid: site.locations.HQ,
          userUuids: [site.users.Ada],
          accessControlledDoorUuids: [site.doors['Front Door']],
        });
        labForStaff = await create({ name: 'F lab label', locationUuid: site.locations.HQ, groupUuids: [staff], doorLabelIds: ['lab'] });
        landing = await create({
          name: 'F landing',
          locationUuid: site.locations.HQ,
          userUuids: [site.users.Ada],
          accessControlledElevatorLandingUuids: [site.elevatorLandings['Floor 2']],
        });
        annex = await create({ name: 'F annex', locationUuid: site.locations.Annex, groupUuids: [staff] });
      });
      const only = (found: string[]) => found.filter((u) => [hqWide, frontForAda, labForStaff, landing, annex].some((r) => r.uuid === u)).sort();
      const uuids = (...rules: any[]) => rules.map((r) => r.uuid).sort();

      const cases: Array<{ by: string; what: string; kinds: string[]; body: () => Record<string, unknown>; want: () => any[] }> = [
        {
          by: 'Org',
          what: 'every rule of the organization',
          kinds: ['grant', 'revocation'],
          body: () => ({}),
          want: () => [hqWide, frontForAda, labForStaff, landing, annex],
        },
        { by: 'Location', what: 'the rules at the location', kinds: ['grant'], body: () => ({ locationUuid: site.locations.Annex }), want: () => [annex] },
        {
          by: 'LocationAndUser',
          what: 'the rules at the location for a member of a named group',
          kinds: ['grant'],
          body: () => ({ locationUuid: site.locations.HQ, userUuid: site.users.Bob }),
          want: () => [labForStaff],
        },
        {
          by: 'User',
          what: 'the rules naming a group the user is in',
          kinds: ['grant', 'revocation'],
          body: () => ({ userUuid: site.users.Bob }),
          want: () => [labForStaff, annex],
        },
        {
          by: 'User',
          what: 'the rules naming the user',
          kinds: ['grant', 'revocation'],
          body: () => ({ userUuid: site.users.Ada }),
          want: () => [frontForAda, landing],
        },
        {
          by: 'Group',
          what: 'the rules naming the group',
          kinds: ['grant', 'revocation'],
          body: () => ({ groupUuid: staff }),
          want: () => [labForStaff, annex],
        },
        {
          by: 'AccessControlledDoor',
          what: 'location-wide rules and those naming a label of the door',
          kinds: ['grant', 'revocation'],
          body: () => ({ accessControlledDoorUuid: site.doors['Lab Door'] }),
          want: () => [hqWide, labForStaff],
        },
        {
          by: 'AccessControlledDoor',
          what: 'location-wide rules and those naming the door',
          kinds: ['grant', 'revocation'],
          body: () => ({ accessControlledDoorUuid: site.doors['Front Door'] }),
          want: () => [hqWide, frontForAda],
        },
        {
          by: 'AccessControlledElevatorLanding',
          what: 'location-wide rules and those naming the landing',
          kinds: ['grant', 'revocation'],
          body: () => ({ accessControlledElevatorLandingUuid: site.elevatorLandings['Floor 2'] }),
          want: () => [hqWide, landing],
        },
        {
          by: 'DoorLabel',
          what: 'the rules naming the label',
          kinds: ['grant', 'revocation'],
          body: () => ({ doorLabelId: 'lab' }),
          want: () => [labForStaff],
        },
      ];
      for (const c of cases.filter((c) => c.kinds.includes(k.one === 'accessGrant' ? 'grant' : 'revocation'))) {
        it(`${k.find}${c.by} answers ${c.what}`, async () => {
          assert.deepEqual(only(await find(c.by, c.body())), uuids(...c.want()));
        });
      }

      it("answers another organization's ids as unknown ones, and its rules never", async () => {
        const byIds: Array<[string, Record<string, unknown>]> = [
          ['User', { userUuid: site.users.Ada }],
          ['Group', { groupUuid: staff }],
          ['AccessControlledDoor', { accessControlledDoorUuid: site.doors['Front Door'] }],
          ['AccessControlledElevatorLanding', { accessControlledElevatorLandingUuid: site.elevatorLandings['Floor 2'] }],
          ...(k.one === 'accessGrant' ? ([['Location', { locationUuid: site.locations.HQ }]] as Array<[string, Record<string, unknown>]>) : []),
        ];
        for (const [by, body] of byIds) await refused(server, other, `${k.find}${by}`, body, /not found$/);
        const theirs = await find('DoorLabel', { doorLabelId: 'lab' }, other);
        assert.ok(!theirs.includes(labForStaff.uuid));
        assert.ok(!(await find('Org', {}, other)).includes(hqWide.uuid));
      });
    });
  }

  it('refuses to delete a schedule that a grant follows, naming the grant', async () => {
    await ok(server, org, 'createAccessGrant', { accessGrant: { name: 'Sunday crew', locationUuid: site.locations.HQ, scheduleUuid: site.schedules.Sundays } });
    await refused(server, org, '/api/policy/deleteSchedule', { scheduleUuid: site.schedules.Sundays }, /in use by .*grant "Sunday crew"/);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decideGrants } from '../../../src/domains/access/grants/decision.js';
import { forEachDialect } from '../../helpers/dialects.js';
import type { TestOrg, TestServer } from '../../helpers/server.js';
import { changesDuring, ok, refused, startGrantsBed, type GrantsSite } from './grants-fixtures.js';

const COMPONENT = '/api/component';

forEachDialect('access controlled door labels, and elevator landings in the grant decision', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: GrantsSite;
  let otherSite: GrantsSite;
  before(async () => {
    ({ server, org, other, site, otherSite } = await startGrantsBed(dialect, 'Labels Org'));
  });
  after(() => server.close());

  const call = (operation: string, body: unknown, who = org) => server.call(`${COMPONENT}/${operation}`, body, { key: who.apiKey });
  const labels = async (who = org) => (await call('getAccessControlledDoorLabelsForOrg', {}, who)).json.accessControlledDoorLabels;

  describe(`${COMPONENT}/getAccessControlledDoorLabelsForOrg`, () => {
    it("answers the organization's doors with their labels (as the site file gave them), and no other organization's", async () => {
      const mine = await labels();
      assert.deepEqual(mine, { [site.doors['Front Door']]: ['lobby'], [site.doors['Lab Door']]: ['lab', 'secure'] });
      assert.ok(!Object.keys(await labels(other)).includes(site.doors['Front Door']));
    });
  });

  describe(`${COMPONENT}/addAccessControlledDoorLabel, removeAccessControlledDoorLabel`, () => {
    it('adds a label once (trimmed), removes it, announcing each change with the door’s labels', async () => {
      const door = site.doors['Annex Door'];
      const added = await changesDuring(server, async () => {
        assert.equal((await call('addAccessControlledDoorLabel', { accessControlledDoorUuid: door, label: ' night ' })).json.error, false);
        assert.equal((await call('addAccessControlledDoorLabel', { accessControlledDoorUuid: door, label: 'night' })).json.error, false);
      });
      assert.deepEqual(
        added.map((c) => [c.entity, c.type, c.entityUuid, c.update]),
        [['DOOR_LABELS', 'UPDATE', door, { uuid: door, orgUuid: org.orgUuid, labels: ['night'] }]],
      );
      assert.deepEqual((await labels())[door], ['night']);
      const removed = await changesDuring(server, () => call('removeAccessControlledDoorLabel', { accessControlledDoorUuid: door, label: 'night' }));
      assert.deepEqual(
        removed.map((c) => [c.entity, (c.update as any).labels]),
        [['DOOR_LABELS', []]],
      );
      assert.equal((await labels())[door], undefined);
      await refused(
        server,
        org,
        `${COMPONENT}/removeAccessControlledDoorLabel`,
        { accessControlledDoorUuid: door, label: 'night' },
        /^Label "night" of the door not found$/,
      );
      await refused(server, org, `${COMPONENT}/addAccessControlledDoorLabel`, { accessControlledDoorUuid: door, label: '   ' }, /^label: must not be empty$/);
    });

    it("answers another organization's door as an unknown one and changes none of its labels", async () => {
      const theirs = otherSite.doors['Front Door'];
      await refused(server, org, `${COMPONENT}/addAccessControlledDoorLabel`, { accessControlledDoorUuid: theirs, label: 'mine' }, /^Door not found$/);
      await refused(server, org, `${COMPONENT}/removeAccessControlledDoorLabel`, { accessControlledDoorUuid: theirs, label: 'lobby' }, /^Door not found$/);
      assert.deepEqual((await labels(other))[theirs], ['lobby']);
    });
  });

  describe('grants.decision.ts at an elevator landing', () => {
    it('covers a landing by a grant naming it or a location-wide one, and refuses by a revocation naming it', async () => {
      const landing = { kind: 'ELEVATOR_LANDING' as const, uuid: site.elevatorLandings['Floor 2'], orgUuid: org.orgUuid, locationUuid: site.locations.HQ };
      const decide = (user: keyof GrantsSite['users']) => decideGrants(server.gatehouse.deps, landing, site.users[user], Date.UTC(2024, 0, 8, 15));
      const named = (
        await ok(server, org, 'createAccessGrant', {
          accessGrant: { name: 'Lift', locationUuid: site.locations.HQ, userUuids: [site.users.Ada], accessControlledElevatorLandingUuids: [landing.uuid] },
        })
      ).accessGrant.uuid;
      await ok(server, org, 'createAccessGrant', {
        accessGrant: {
          name: 'Front only',
          locationUuid: site.locations.HQ,
          userUuids: [site.users.Bob],
          accessControlledDoorUuids: [site.doors['Front Door']],
        },
      });
      const wide = (await ok(server, org, 'createAccessGrant', { accessGrant: { name: 'HQ', locationUuid: site.locations.HQ, userUuids: [site.users.Cy] } }))
        .accessGrant.uuid;
      assert.deepEqual(await decide('Ada'), { granted: true, reason: 'GRANTED', authDecisionSource: 'ACCESS_GRANT', accessGrantOrRevocationUuid: named });
      assert.equal((await decide('Bob')).reason, 'NO_ACCESS_AT_DOOR', 'a grant naming a door does not cover the landing');
      assert.equal((await decide('Cy')).accessGrantOrRevocationUuid, wide);
      const revocation = (
        await ok(server, org, 'createAccessRevocation', {
          accessRevocation: {
            name: 'Lift off',
            locationUuid: site.locations.HQ,
            userUuids: [site.users.Ada],
            accessControlledElevatorLandingUuids: [landing.uuid],
          },
        })
      ).accessRevocation.uuid;
      assert.deepEqual(await decide('Ada'), {
        granted: false,
        reason: 'ACCESS_REVOKED',
        authDecisionSource: 'ACCESS_REVOCATION',
        accessGrantOrRevocationUuid: revocation,
      });
    });
  });
});

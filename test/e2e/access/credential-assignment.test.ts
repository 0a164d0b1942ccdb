import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import type { TestOrg, TestServer } from '../../helpers/server.js';
import { createCredential, simulate } from './fixtures.js';
import { changesDuring, ok, refused, startGrantsBed, type GrantsSite } from './grants-fixtures.js';

forEachDialect('credential assignment, notes, by-users, unassigned deletion and history', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: GrantsSite;
  let otherSite: GrantsSite;
  before(async () => {
    ({ server, org, other, site, otherSite } = await startGrantsBed(dialect, 'Assign Org'));
    await ok(server, org, 'createAccessGrant', { accessGrant: { name: 'HQ', locationUuid: site.locations.HQ, userUuids: [site.users.Ada, site.users.Bob] } });
  });
  after(() => server.close());

  let cards = 1;
  const nextHex = () => `d00d${String(cards++).padStart(4, '0')}`;
  const unassigned = (hex = nextHex(), key = org.apiKey) => createCredential(server, key, { credentialType: 'STANDARD_CSN', hexValue: hex });
  const credentialChanges = async (fn: () => Promise<unknown>) =>
    (await changesDuring(server, fn)).filter((c) => c.entity === 'ACCESS_CONTROL_CREDENTIAL').map((c) => [c.type, (c.update as any).workflowStatus]);

  describe('/api/accesscontrol/assignAccessControlCredential', () => {
    it('assigns an unassigned card (seen in an unauthorized badge) to a user, who may then badge in; announced', async () => {
      const card = await unassigned();
      assert.equal((await simulate(server, 'badge', { door: site.doors['Front Door'], hex: card.lowercaseHexValue })).json.reason, 'CREDENTIAL_UNASSIGNED');
      let assigned: any;
      const changes = await credentialChanges(async () => {
        assigned = (
          await ok(server, org, 'assignAccessControlCredential', { credentialHexValue: card.lowercaseHexValue.toUpperCase(), userUuid: site.users.Ada })
        ).credential;
      });
      assert.deepEqual([assigned.uuid, assigned.userUuid, assigned.workflowStatus], [card.uuid, site.users.Ada, 'ACTIVE']);
      assert.deepEqual(changes, [['UPDATE', 'ACTIVE']]);
      assert.equal((await simulate(server, 'badge', { door: site.doors['Front Door'], hex: card.lowercaseHexValue })).json.reason, 'GRANTED');
      const again = await credentialChanges(() =>
        ok(server, org, 'assignAccessControlCredential', { credentialHexValue: card.lowercaseHexValue, userUuid: site.users.Ada }),
      );
      assert.deepEqual(again, [], 'assigning it to its holder again changes nothing');
    });

    it('refuses a card held by another user, an unknown value, and another organization’s user or card', async () => {
      const card = await unassigned();
      await ok(server, org, 'assignAccessControlCredential', { credentialHexValue: card.lowercaseHexValue, userUuid: site.users.Ada });
      await refused(
        server,
        org,
        'assignAccessControlCredential',
        { credentialHexValue: card.lowercaseHexValue, userUuid: site.users.Bob },
        /assigned to another user \(ACTIVE\)$/,
      );
      await refused(
        server,
        org,
        'assignAccessControlCredential',
        { credentialHexValue: 'ffffeeee', userUuid: site.users.Bob },
        /^Credential with hex value ffffeeee not found$/,
      );
      await refused(server, org, 'assignAccessControlCredential', { credentialHexValue: 'zz', userUuid: site.users.Bob }, /must be hexadecimal/);
      const theirs = await unassigned(nextHex(), other.apiKey);
      await refused(server, org, 'assignAccessControlCredential', { credentialHexValue: theirs.lowercaseHexValue, userUuid: site.users.Bob }, /not found$/);
      await refused(
        server,
        org,
        'assignAccessControlCredential',
        { credentialHexValue: card.lowercaseHexValue, userUuid: otherSite.users.Bob },
        /^User .* not found$/,
      );
      const stillTheirs = (await ok(server, other, 'findAccessControlCredentialByOrg', {})).credentials.find((c: any) => c.uuid === theirs.uuid);
      assert.equal(stillTheirs.workflowStatus, 'UNASSIGNED');
    });
  });

  describe('/api/accesscontrol/updateAccessControlCredentialNote', () => {
    it('sets and clears a note, announced; refuses another organization’s credential', async () => {
      const card = await unassigned();
      const changes = await credentialChanges(async () => {
        const noted = (await ok(server, org, 'updateAccessControlCredentialNote', { credentialUuid: card.uuid, note: ' spare card, desk 3 ' })).credential;
        assert.equal(noted.note, 'spare card, desk 3');
      });
      assert.deepEqual(changes, [['UPDATE', 'UNASSIGNED']]);
      assert.equal((await ok(server, org, 'updateAccessControlCredentialNote', { credentialUuid: card.uuid, note: '' })).credential.note, null);
      await refused(server, other, 'updateAccessControlCredentialNote', { credentialUuid: card.uuid, note: 'mine' }, /^Credential not found$/);
    });
  });

  describe('/api/accesscontrol/findAccessControlCredentialByUsers', () => {
    it("maps each user to the user's credentials, narrowed by the filter; another organization's user is unknown", async () => {
      const pin = await createCredential(server, org.apiKey, { credentialType: 'PIN_CODE', hexValue: '482910', userUuid: site.users.Cy });
      const csn = await createCredential(server, org.apiKey, { credentialType: 'STANDARD_CSN', hexValue: nextHex(), userUuid: site.users.Cy });
      const map = (await ok(server, org, 'findAccessControlCredentialByUsers', { userUuids: [site.users.Cy, site.users.Bob] })).userCredentialsMap;
      assert.deepEqual(
        map[site.users.Cy].map((c: any) => c.uuid),
        [pin.uuid, csn.uuid],
      );
      assert.ok(Array.isArray(map[site.users.Bob]));
      const pins = (await ok(server, org, 'findAccessControlCredentialByUsers', { userUuids: [site.users.Cy], filter: { credTypeFilter: ['PIN_CODE'] } }))
        .userCredentialsMap;
      assert.deepEqual(
        pins[site.users.Cy].map((c: any) => c.uuid),
        [pin.uuid],
      );
      await refused(server, org, 'findAccessControlCredentialByUsers', { userUuids: [site.users.Cy, otherSite.users.Cy] }, /^User .* not found$/);
    });
  });

  describe('/api/accesscontrol/deleteUnassignedAccessControlCredential', () => {
    it('deletes the unassigned card holding a value, announced; refuses an assigned one and another organization’s', async () => {
      const card = await unassigned();
      const changes = await credentialChanges(() => ok(server, org, 'deleteUnassignedAccessControlCredential', { credentialHexValue: card.lowercaseHexValue }));
      assert.deepEqual(changes, [['DELETE', 'UNASSIGNED']]);
      assert.ok(!(await ok(server, org, 'findAccessControlCredentialByOrg', {})).credentials.some((c: any) => c.uuid === card.uuid));
      const held = await createCredential(server, org.apiKey, { credentialType: 'STANDARD_CSN', hexValue: nextHex(), userUuid: site.users.Ada });
      await refused(
        server,
        org,
        'deleteUnassignedAccessControlCredential',
        { credentialHexValue: held.lowercaseHexValue },
        /is ACTIVE: only an unassigned one/,
      );
      const theirs = await unassigned(nextHex(), other.apiKey);
      await refused(server, org, 'deleteUnassignedAccessControlCredential', { credentialHexValue: theirs.lowercaseHexValue }, /not found$/);
      assert.ok((await ok(server, other, 'findAccessControlCredentialByOrg', {})).credentials.some((c: any) => c.uuid === theirs.uuid));
    });
  });

  describe('the credential history (findCredentialHistoryByCredentialHexValue, ByCredentialValue, ByUser)', () => {
    it('keeps every lifecycle state of every credential that held a value, newest first, across reuse of the value', async () => {
      const hex = nextHex();
      const first = await createCredential(server, org.apiKey, { credentialType: 'STANDARD_CSN', hexValue: hex, userUuid: site.users.Ada });
      await simulate(server, 'badge', { door: site.doors['Front Door'], hex });
      await ok(server, org, 'suspendAccessControlCredential', { credentialUuid: first.uuid });
      await ok(server, org, 'revokeAccessControlCredential', { credentialUuid: first.uuid });
      const second = await unassigned(hex);
      await ok(server, org, 'assignAccessControlCredential', { credentialHexValue: hex, userUuid: site.users.Bob });
      const history = (await ok(server, org, 'findCredentialHistoryByCredentialHexValue', { credentialHexValue: hex.toUpperCase() })).credentials;
      assert.deepEqual(
        history.map((c: any) => [c.uuid, c.workflowStatus, c.userUuid]),
        [
          [second.uuid, 'ACTIVE', site.users.Bob],
          [second.uuid, 'UNASSIGNED', null],
          [first.uuid, 'REVOKED', site.users.Ada],
          [first.uuid, 'SUSPENDED', site.users.Ada],
          [first.uuid, 'ACTIVE', site.users.Ada],
        ],
        'a badge-in is not a lifecycle change',
      );
      const byValue = (await ok(server, org, 'findCredentialHistoryByCredentialValue', { credentialType: 'STANDARD_CSN', credentialValue: hex })).credentials;
      assert.deepEqual(byValue, history);
      const revokedOnly = (
        await ok(server, org, 'findCredentialHistoryByCredentialHexValue', { credentialHexValue: hex, filter: { workflowStatusFilter: ['REVOKED'] } })
      ).credentials;
      assert.deepEqual(
        revokedOnly.map((c: any) => c.uuid),
        [first.uuid],
      );
      const ada = (await ok(server, org, 'findCredentialHistoryByUser', { userUuid: site.users.Ada })).credentials;
      assert.ok(ada.some((c: any) => c.uuid === first.uuid && c.workflowStatus === 'REVOKED'));
      assert.ok(ada.every((c: any) => c.userUuid === site.users.Ada));
    });

    it('keeps a deleted credential, and answers nothing of another organization', async () => {
      const card = await unassigned();
      await ok(server, org, 'deleteAccessControlCredential', { credentialUuid: card.uuid });
      const history = (await ok(server, org, 'findCredentialHistoryByCredentialHexValue', { credentialHexValue: card.lowercaseHexValue })).credentials;
      assert.deepEqual(
        history.map((c: any) => c.uuid),
        [card.uuid, card.uuid],
      );
      assert.deepEqual((await ok(server, other, 'findCredentialHistoryByCredentialHexValue', { credentialHexValue: card.lowercaseHexValue })).credentials, []);
      await refused(server, other, 'findCredentialHistoryByUser', { userUuid: site.users.Ada }, /^User .* not found$/);
      const badType = await server.call('/api/accesscontrol/findCredentialHistoryByCredentialValue', { credentialType: 'NOT_A_TYPE', credentialValue: '1' });
      assert.equal(badType.status, 400, 'an unknown type is refused by the schema');
    });
  });
});

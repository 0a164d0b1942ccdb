import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { badge, card, FOREIGN, ok, refused, lockdownSuite } from './fixtures.js';

forEachDialect('/api/component/findComponentEventsBy*: component event finders', (dialect) => {
  const t = lockdownSuite(dialect);
  let credentialUuid: string;
  let correlationId: string;
  let credentialValue: string;
  let keyId: string;
  const T = Date.UTC(2024, 0, 8, 15, 0);
  const find = async (name: string, body: object, key = t.org.apiKey) =>
    (await ok(t.server, key, `/api/component/findComponentEventsBy${name}`, body)).componentEvents as any[];

  before(async () => {
    credentialUuid = await card(t.server, t.org.apiKey, t.site.users.Ada, '0a0b0c0d');
    // Three badge-ins of Ada a minute apart at the Front Door, one at the Annex, and a remote unlock.
    for (let i = 0; i < 3; i++) {
      const r = await badge(t.server, t.site.doors['Front Door'], '0A0B0C0D', T + i * 60_000);
      // The first badge-in finds the door locked: its relay change is certain (later ones may find it still open).
      if (i === 0) correlationId = r.credentialReceivedEvent.uuid;
      credentialValue = r.credentialReceivedEvent.credentialValue;
    }
    await badge(t.server, t.site.doors['Annex Door'], '0a0b0c0d', T + 10 * 60_000);
    await ok(t.server, t.org.apiKey, '/api/accesscontrol/unlockAccessControlledDoor', { accessControlledDoorUuid: t.site.doors['Vault Door'] });
    keyId = (await t.server.gatehouse.deps.store.db.selectFrom('api_keys').select('id').where('org_uuid', '=', t.org.orgUuid).executeTakeFirstOrThrow()).id;
    await badge(t.server, t.otherSite.doors['Front Door'], '0a0b0c0d', T);
  });

  const credentialReceived = { typeFilter: ['CredentialReceivedEvent'] };

  it("finds a door's events newest first, with createdBeforeMs exclusive and a limit", async () => {
    const all = await find('AccessControlledDoor', { accessControlledDoorUuid: t.site.doors['Front Door'], ...credentialReceived });
    assert.deepEqual(
      all.map((e) => e.timestampMs),
      [T + 120_000, T + 60_000, T],
    );
    assert.deepEqual(
      (
        await find('AccessControlledDoor', {
          accessControlledDoorUuid: t.site.doors['Front Door'],
          createdBeforeMs: T + 120_000,
          limit: 1,
          ...credentialReceived,
        })
      ).map((e) => e.timestampMs),
      [T + 60_000],
    );
    assert.deepEqual(
      await find('AccessControlledDoor', { accessControlledDoorUuid: t.site.doors['Front Door'], createdAfterMs: T + 120_000, ...credentialReceived }),
      [],
    );
  });

  it('finds the events of a location, a user, a controller, a credential, a hex value, a value, a correlation and an API key', async () => {
    const count = async (name: string, body: object) => (await find(name, { ...body, ...credentialReceived })).length;
    assert.equal(await count('Location', { locationUuid: t.site.locations.HQ }), 3);
    assert.equal(await count('Location', { locationUuid: t.site.locations.Annex }), 1);
    assert.equal(await count('User', { userUuid: t.site.users.Ada }), 4);
    assert.equal(await count('OwnerDevice', { ownerDeviceUuid: t.site.doorControllers['Front Door Controller'] }), 3);
    assert.equal(await count('CredentialUuid', { credentialUuid }), 4);
    assert.equal(await count('CredentialHexValue', { credentialHexValue: '0A0B0C0D' }), 4, 'hex values match without case');
    assert.equal(await count('CredentialValue', { credentialValue }), 4);
    const correlated = await find('Correlation', { correlationId });
    assert.deepEqual(
      correlated.map((e) => [e.type, e.newState ?? null]),
      [['DoorRelayStateChangeEvent', 'UNLOCKED']],
      'the relay change the badge-in caused',
    );
    const byKey = await find('ApiToken', { tokenUuid: keyId });
    assert.deepEqual(
      byKey.map((e) => [e.componentCompositeUuid, e.newState, e.originator, 'apiTokenUuid' in e]),
      [[t.site.doors['Vault Door'], 'UNLOCKED', { type: 'API_TOKEN', tokenUuid: keyId }, false]],
      'the key is the originator, as the catalogue names it',
    );
  });

  it("answers another organization's door, location, user and device as unknown, and never shows its events", async () => {
    for (const [name, body, what] of [
      ['AccessControlledDoor', { accessControlledDoorUuid: t.otherSite.doors['Front Door'] }, 'Door'],
      ['Location', { locationUuid: t.otherSite.locations.HQ }, 'Location'],
      ['User', { userUuid: t.otherSite.users.Ada }, 'User'],
      ['OwnerDevice', { ownerDeviceUuid: FOREIGN }, 'Device'],
    ] as const) {
      assert.equal(await refused(t.server, t.org.apiKey, `/api/component/findComponentEventsBy${name}`, body), `${what} not found`);
    }
    assert.equal((await find('CredentialHexValue', { credentialHexValue: '0a0b0c0d' }, t.other.apiKey)).length, 1, 'theirs only');
    assert.deepEqual(await find('ApiToken', { tokenUuid: keyId }, t.other.apiKey), []);
    assert.equal((await t.server.call('/api/component/findComponentEventsByLocation', { locationUuid: 'nope' }, { key: t.org.apiKey })).status, 400);
  });

  it("pages a door's events with findPaginatedComponentEventsByAccessControlledDoor over the same query", async () => {
    const page = await ok(t.server, t.org.apiKey, '/api/component/findPaginatedComponentEventsByAccessControlledDoor', {
      accessControlledDoorUuid: t.site.doors['Front Door'],
      maxPageSize: 2,
      ...credentialReceived,
    });
    assert.equal(page.componentEvents.length, 2);
    const rest = await ok(t.server, t.org.apiKey, '/api/component/findPaginatedComponentEventsByAccessControlledDoor', {
      accessControlledDoorUuid: t.site.doors['Front Door'],
      maxPageSize: 2,
      lastEvaluatedKey: page.lastEvaluatedKey,
      ...credentialReceived,
    });
    assert.deepEqual(
      rest.componentEvents.map((e: any) => e.timestampMs),
      [T],
    );
  });
});

import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { endLocationLockdown, startLocationLockdown } from '../../../src/domains/access/lockdowns/service.js';
import { systemActor } from '../../../src/deps.js';
import { write } from '../../../src/bus/write.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { createCredential, doorEvents, MONDAY_10AM_NY, MONDAY_8AM_NY, seedAccessSite, simulate, waitFor, type AccessSite } from './fixtures.js';

forEachDialect('POST /_gatehouse/simulate/badge: the badge decision', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: AccessSite;
  let otherSite: AccessSite;
  let cards = 1;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Badge Org');
    other = await server.createOrg('Other Org');
    site = await seedAccessSite(server, org.orgUuid);
    otherSite = await seedAccessSite(server, other.orgUuid);
  });
  after(() => server.close());

  /** A fresh CSN credential of the organization's user (Ada unless told). */
  async function card(extra: Record<string, unknown> = {}): Promise<{ hex: string; uuid: string }> {
    const hex = `c0ffee${String(cards++).padStart(2, '0')}`;
    const credential = await createCredential(server, org.apiKey, { credentialType: 'STANDARD_CSN', hexValue: hex, userUuid: site.users.Ada, ...extra });
    return { hex, uuid: credential.uuid };
  }
  const badge = async (door: string, hex: string, extra: Record<string, unknown> = {}) => {
    const r = await simulate(server, 'badge', { door, hex, ...extra });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.error, false, r.text);
    return r.json;
  };
  const lockdown = (locationUuid: string, on: boolean) =>
    write(server.gatehouse.deps, systemActor(org.orgUuid, 'test.lockdown'), (w) =>
      on ? startLocationLockdown(w, { locationUuid }) : endLocationLockdown(w, { locationUuid }),
    );

  it('grants an active credential of a user with access, then the relay unlocks and relocks', async () => {
    const { hex, uuid } = await card();
    const r = await badge(site.doors['Back Door'], hex.toUpperCase());
    assert.equal(r.granted, true);
    assert.equal(r.reason, 'GRANTED');
    const e = r.credentialReceivedEvent;
    assert.deepEqual(
      [
        e.type,
        e.authenticationResult,
        e.authorizationResult,
        e.authDecisionSource,
        e.credentialUuid,
        e.originator.userUuid,
        e.credentialHexValue,
        e.credSource,
        e.activeDoorLockdownState,
      ],
      ['CredentialReceivedEvent', 'ACCEPTED', 'ALLOWED', 'ACCESS_GRANT', uuid, site.users.Ada, hex, 'NFC', 'ACCESS_CONTROLLED'],
    );
    assert.deepEqual(
      r.relayEvents.map((x: any) => [x.type, x.newState, x.correlationId]),
      [['DoorRelayStateChangeEvent', 'UNLOCKED', e.uuid]],
    );
    assert.equal(r.unauthorizedBadge, null);
    await waitFor('the relock', async () => (await doorEvents(server, org.apiKey, site.doors['Back Door'])).find((x) => x.newState === 'LOCKED'));
    const used = await server.call('/api/accesscontrol/findAccessControlCredentialByUser', { userUuid: site.users.Ada }, { key: org.apiKey });
    const credential = used.json.credentials.find((c: any) => c.uuid === uuid);
    assert.deepEqual(
      [credential.lastUsedAccessControlledDoorUuid, credential.lastUsedLocationUuid, credential.lastUsedAtMillis],
      [site.doors['Back Door'], site.locations.HQ, e.timestampMs],
    );
  });

  it('refuses an unknown card and raises an unauthorized badge carrying its hex, from which the credential can be created', async () => {
    const changes: ChangeEvent[] = [];
    const unsubscribe = server.gatehouse.deps.bus.subscribe('change', (c) => changes.push(c));
    const r = await badge(site.doors['Back Door'], '0020403E9', { type: 'WIEGAND_H10301' });
    unsubscribe();
    assert.equal(r.granted, false);
    assert.equal(r.reason, 'UNKNOWN_CREDENTIAL');
    const e = r.credentialReceivedEvent;
    assert.deepEqual(
      [e.authenticationResult, e.authorizationResult, e.credentialUuid, e.credentialHexValue, e.credSource],
      ['REJECTED', 'NA', null, '0020403e9', 'WIEGAND'],
    );
    assert.deepEqual(r.relayEvents, []);
    assert.equal(r.unauthorizedBadge.credentialHexValue, '0020403e9');
    assert.equal(r.unauthorizedBadge.credentialType, 'WIEGAND_H10301');
    const raised = changes.find((c) => c.entity === 'UNAUTHORIZED_BADGE');
    assert.deepEqual(raised?.update, r.unauthorizedBadge);
    assert.equal(raised?.orgUuid, org.orgUuid);

    const imported = await createCredential(server, org.apiKey, {
      credentialType: r.unauthorizedBadge.credentialType,
      hexValue: r.unauthorizedBadge.credentialHexValue,
      userUuid: site.users.Ada,
    });
    assert.equal(imported.value, '2:500');
    assert.equal((await badge(site.doors['Back Door'], '20403e9')).granted, true, 'the imported card now opens the door');
  });

  it('refuses a suspended, an unassigned and a revoked credential as DISABLED', async () => {
    const suspended = await card();
    await server.call('/api/accesscontrol/suspendAccessControlCredential', { credentialUuid: suspended.uuid }, { key: org.apiKey });
    const unassigned = await createCredential(server, org.apiKey, { credentialType: 'STANDARD_CSN', hexValue: 'abad1dea' });
    const revoked = await card();
    await server.call('/api/accesscontrol/revokeAccessControlCredential', { credentialUuid: revoked.uuid }, { key: org.apiKey });
    const cases: Array<[string, string, string]> = [
      [suspended.hex, 'CREDENTIAL_SUSPENDED', 'CONFIG'],
      ['abad1dea', 'CREDENTIAL_UNASSIGNED', 'CONFIG'],
      [revoked.hex, 'CREDENTIAL_REVOKED', 'ACCESS_REVOCATION'],
    ];
    for (const [hex, reason, source] of cases) {
      const r = await badge(site.doors['Back Door'], hex);
      assert.deepEqual(
        [
          r.granted,
          r.reason,
          r.credentialReceivedEvent.authenticationResult,
          r.credentialReceivedEvent.authorizationResult,
          r.credentialReceivedEvent.authDecisionSource,
        ],
        [false, reason, 'ACCEPTED', 'DISABLED', source],
      );
      assert.deepEqual(r.relayEvents, []);
    }
    assert.equal(unassigned.workflowStatus, 'UNASSIGNED');
  });

  it('refuses a credential outside its date window: not yet valid, expired (the end is exclusive)', async () => {
    const at = MONDAY_10AM_NY;
    const atSec = at / 1000;
    const future = await card({ startDateEpochSecInclusive: atSec + 1 });
    const expired = await card({ endDateEpochSecExclusive: atSec });
    const lastSecond = await card({ startDateEpochSecInclusive: atSec, endDateEpochSecExclusive: atSec + 1 });
    assert.equal((await badge(site.doors['Back Door'], future.hex, { at })).reason, 'CREDENTIAL_NOT_YET_VALID');
    const r = await badge(site.doors['Back Door'], expired.hex, { at });
    assert.deepEqual([r.reason, r.credentialReceivedEvent.authorizationResult], ['CREDENTIAL_EXPIRED', 'DISABLED']);
    assert.equal((await badge(site.doors['Back Door'], lastSecond.hex, { at })).granted, true);
  });

  it("refuses a user without access at the door, and admits one with access at another of the location's doors", async () => {
    const bob = await card({ userUuid: site.users.Bob });
    const r = await badge(site.doors['Front Door'], bob.hex, { at: MONDAY_10AM_NY });
    assert.deepEqual(
      [r.granted, r.reason, r.credentialReceivedEvent.authorizationResult, r.credentialReceivedEvent.authDecisionSource],
      [false, 'NO_ACCESS_AT_DOOR', 'DENIED', 'ACCESS_GRANT'],
    );
    assert.equal((await badge(site.doors['Back Door'], bob.hex)).granted, true);
  });

  it("decides the door's schedule on the wall clock of the location's time zone", async () => {
    const ada = await card();
    const inside = await badge(site.doors['Front Door'], ada.hex, { at: MONDAY_10AM_NY });
    assert.equal(inside.granted, true);
    assert.equal(inside.credentialReceivedEvent.timestampMs, MONDAY_10AM_NY);
    const outside = await badge(site.doors['Front Door'], ada.hex, { at: MONDAY_8AM_NY });
    assert.deepEqual([outside.granted, outside.reason, outside.credentialReceivedEvent.authorizationResult], [false, 'OUTSIDE_SCHEDULE', 'DENIED']);
    // 10:00 in UTC is 05:00 in New York: outside, though it is inside Business Hours on a UTC clock.
    assert.equal((await badge(site.doors['Front Door'], ada.hex, { at: Date.UTC(2024, 0, 8, 10, 0) })).reason, 'OUTSIDE_SCHEDULE');
  });

  it('refuses every card while the location is locked down, locks its unlocked doors at once, and admits again once it ends', async () => {
    const ada = await card();
    const door = site.doors['Vault Door'];
    assert.equal(
      (await server.call('/api/accesscontrol/unlockAccessControlledDoor', { accessControlledDoorUuid: door }, { key: org.apiKey })).json.type,
      'SUCCESS',
    );
    const started = await lockdown(site.locations.HQ, true);
    assert.equal(started.state, 'LOCKED_DOWN');
    assert.deepEqual(
      (await doorEvents(server, org.apiKey, door, { typeFilter: ['DoorRelayStateChangeEvent'] })).map((e) => e.newState),
      ['LOCKED', 'UNLOCKED'],
      'the lockdown locked the unlocked door',
    );
    const r = await badge(door, ada.hex);
    assert.deepEqual(
      [
        r.granted,
        r.reason,
        r.credentialReceivedEvent.authorizationResult,
        r.credentialReceivedEvent.authDecisionSource,
        r.credentialReceivedEvent.activeDoorLockdownState,
      ],
      [false, 'LOCATION_LOCKED_DOWN', 'DENIED', 'LOCKDOWN', 'LOCKED_DOWN'],
    );
    assert.equal((await badge(site.doors['Side Door'], ada.hex)).granted, true, 'another location is not locked down');
    assert.equal((await lockdown(site.locations.HQ, false)).state, 'STANDARD_SECURITY');
    assert.equal((await badge(door, ada.hex)).granted, true);
  });

  it('grants at a door without a lock without any relay event', async () => {
    const ada = await card();
    const r = await badge(site.doors['Side Door'], ada.hex);
    assert.equal(r.granted, true);
    assert.deepEqual(r.relayEvents, []);
  });

  it('matches a PIN by its digits when the type says PIN_CODE, and a card only under its own type', async () => {
    await createCredential(server, org.apiKey, { credentialType: 'PIN_CODE', hexValue: '0451', userUuid: site.users.Ada });
    const pin = await badge(site.doors['Back Door'], '0451', { type: 'PIN_CODE' });
    assert.deepEqual([pin.granted, pin.credentialReceivedEvent.credSource], [true, 'KEYPAD_WIEGAND']);
    assert.equal((await badge(site.doors['Back Door'], '0451')).reason, 'UNKNOWN_CREDENTIAL', 'a card reading of the same digits is another value');
    const ada = await card();
    assert.equal((await badge(site.doors['Back Door'], ada.hex, { type: 'RHOMBUS_SECURE_CSN' })).reason, 'UNKNOWN_CREDENTIAL');
    assert.equal((await badge(site.doors['Back Door'], ada.hex, { type: 'STANDARD_CSN' })).granted, true);
  });

  it("never admits a card of one organization at another organization's door", async () => {
    const ada = await card();
    const r = await badge(otherSite.doors['Back Door'], ada.hex);
    assert.equal(r.reason, 'UNKNOWN_CREDENTIAL');
    assert.equal(r.unauthorizedBadge.orgUuid, other.orgUuid);
  });

  it('refuses an unknown door, a hex that is not hex, and a malformed body', async () => {
    const missing = await simulate(server, 'badge', { door: 'AAAAAAAAAAAAAAAAAAAAAA', hex: 'abcd' });
    assert.deepEqual({ error: missing.json.error, errorMsg: missing.json.errorMsg }, { error: true, errorMsg: 'Door not found' });
    const notHex = await simulate(server, 'badge', { door: site.doors['Back Door'], hex: 'xyz' });
    assert.equal(notHex.json.errorMsg, 'hex: must be hexadecimal digits (0-9, a-f)');
    for (const body of [
      { hex: 'abcd' },
      { door: site.doors['Back Door'] },
      { door: site.doors['Back Door'], hex: 'ab', type: 'MAGSTRIPE' },
      { door: site.doors['Back Door'], hex: 'ab', extra: 1 },
    ]) {
      assert.equal((await simulate(server, 'badge', body)).status, 400, JSON.stringify(body));
    }
  });

  it('requires the admin token', async () => {
    const r = await control(server, '/simulate/badge', { door: site.doors['Back Door'], hex: 'abcd' }, { token: null });
    assert.equal(r.status, 401);
  });
});

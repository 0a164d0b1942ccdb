import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { control } from '../control/admin.js';
import { doorEvents, seedAccessSite, simulate, waitFor, type AccessSite } from './fixtures.js';

const PATH = '/api/accesscontrol/unlockAccessControlledDoor';

forEachDialect(`POST ${PATH}`, (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  let site: AccessSite;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Unlock Org');
    other = await server.createOrg('Other Org');
    site = await seedAccessSite(server, org.orgUuid);
  });
  after(() => server.close());

  const unlock = (door: string, key = org.apiKey) => server.call(PATH, { accessControlledDoorUuid: door }, { key });

  it('requires authentication', async () => {
    const r = await server.call(PATH, { accessControlledDoorUuid: site.doors['Back Door'] }, { key: '' });
    assert.equal(r.status, 401);
  });

  it('unlocks the door: a relay UNLOCKED event now, then LOCKED once the unlock duration has passed', async () => {
    const changes: ChangeEvent[] = [];
    const unsubscribe = server.gatehouse.deps.bus.subscribe('change', (e) => changes.push(e));
    const door = site.doors['Back Door'];
    const startedAt = Date.now();
    const r = await unlock(door);
    assert.deepEqual(r.json, { error: false, type: 'SUCCESS' });

    // The relock may already have happened on a busy machine: look the UNLOCKED event up rather than take the newest.
    const unlocked = (await doorEvents(server, org.apiKey, door)).find((e) => e.newState === 'UNLOCKED');
    assert.equal(unlocked.type, 'DoorRelayStateChangeEvent');
    assert.equal(unlocked.originator.type, 'API_TOKEN');
    assert.match(unlocked.originator.tokenUuid, /^[A-Za-z0-9_-]{22}$/, 'the API key behind the unlock');
    assert.equal('userUuid' in unlocked, false, 'the originator names who, as the catalogue has it');
    assert.equal(unlocked.componentCompositeUuid, door);
    assert.equal(unlocked.locationUuid, site.locations.HQ);
    assert.equal(unlocked.ownerDeviceUuid, site.doorControllers['Back Door Controller']);

    const locked = await waitFor('the relock', async () => (await doorEvents(server, org.apiKey, door)).find((e) => e.newState === 'LOCKED'));
    assert.equal(locked.timestampMs - unlocked.timestampMs, 300, 'relocked after the door unlock duration');
    assert.ok(Date.now() - startedAt >= 300);
    const doors = await server.call('/api/component/findAccessControlledDoors', {}, { key: org.apiKey });
    const state = doors.json.accessControlledDoors.find((d: any) => d.uuid === door);
    assert.deepEqual({ lockState: state.lockState, relockAtMillis: state.relockAtMillis }, { lockState: 'LOCKED', relockAtMillis: null });

    unsubscribe();
    const relay = changes.filter((e) => e.entity === 'COMPONENT_EVENT').map((e) => (e.update as any).newState);
    assert.deepEqual(relay, ['UNLOCKED', 'LOCKED'], 'both relay events reached the stream');
    const doorChanges = changes.filter((e) => e.entity === 'DOOR').map((e) => (e.update as any).lockState);
    assert.deepEqual(doorChanges, ['UNLOCKED', 'LOCKED']);
  });

  it('answers ERROR DOOR_NOT_CONFIGURED_WITH_LOCK for a door without a lock', async () => {
    const r = await unlock(site.doors['Side Door']);
    assert.deepEqual(r.json, { error: true, errorMsg: 'Door Side Door has no lock', type: 'ERROR', errorType: 'DOOR_NOT_CONFIGURED_WITH_LOCK' });
    assert.deepEqual(await doorEvents(server, org.apiKey, site.doors['Side Door']), []);
  });

  it('answers ERROR FAILED_SENDING_ACU_UNLOCK_REQUEST while the controller is offline, and unlocks again once it is back', async () => {
    const door = site.doors['Front Door'];
    assert.equal((await simulate(server, 'controller', { door, offline: true })).json.door.controllerOnline, false);
    const r = await unlock(door);
    assert.deepEqual(r.json, {
      error: true,
      errorMsg: 'The controller of door Front Door is offline',
      type: 'ERROR',
      errorType: 'FAILED_SENDING_ACU_UNLOCK_REQUEST',
    });
    assert.equal((await doorEvents(server, org.apiKey, door)).length, 0);
    assert.equal((await simulate(server, 'controller', { door, online: true })).json.door.controllerOnline, true);
    assert.equal((await unlock(door)).json.type, 'SUCCESS');
  });

  it("answers another organization's door exactly as a missing one", async () => {
    const foreign = await unlock(site.doors['Back Door'], other.apiKey);
    const missing = await unlock('AAAAAAAAAAAAAAAAAAAAAA', other.apiKey);
    assert.deepEqual(foreign.json, missing.json);
    assert.deepEqual(foreign.json, { error: true, errorMsg: 'Door not found', warningMsg: null });
  });

  it('answers 400 to a malformed body', async () => {
    assert.equal((await server.call(PATH, {}, { key: org.apiKey })).status, 400);
    assert.equal((await server.call(PATH, { accessControlledDoorUuid: 'short' }, { key: org.apiKey })).status, 400);
  });
});

forEachDialect('door relock across a restart', (dialect) => {
  it('relocks a door unlocked before the server stopped, once a new server starts on the same store', async () => {
    const first = await startTestServer(dialect);
    const org = await first.createOrg('Restart Org');
    const seeded = await control(first, `/orgs/${org.orgUuid}/seed`, {
      locations: [{ name: 'HQ' }],
      doors: [{ name: 'Vault', location: 'HQ', unlockDurationMs: 1500 }],
    });
    const door = seeded.json.doors.Vault;
    assert.equal((await first.call(PATH, { accessControlledDoorUuid: door }, { key: org.apiKey })).json.type, 'SUCCESS');
    // Stop the serving instance before the relock is due, keeping its database.
    await first.gatehouse.close();
    const second = await startTestServer(dialect, { databaseUrl: first.config.databaseUrl });
    try {
      const locked = await waitFor(
        'the relock after the restart',
        async () => (await doorEvents(second, org.apiKey, door)).find((e) => e.newState === 'LOCKED'),
        10_000,
      );
      const unlocked = (await doorEvents(second, org.apiKey, door)).find((e) => e.newState === 'UNLOCKED');
      assert.equal(locked.timestampMs - unlocked.timestampMs, 1500);
    } finally {
      await second.close();
      await first.close().catch(() => {});
    }
  });
});

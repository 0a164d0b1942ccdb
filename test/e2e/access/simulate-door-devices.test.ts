import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { endLocationLockdown, startLocationLockdown } from '../../../src/domains/access/lockdowns/service.js';
import { systemActor } from '../../../src/deps.js';
import { write } from '../../../src/bus/write.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { doorEvents, seedAccessSite, simulate, type AccessSite } from './fixtures.js';

forEachDialect('POST /_gatehouse/simulate/door, /rex, /controller', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let site: AccessSite;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Sensors Org');
    site = await seedAccessSite(server, org.orgUuid);
  });
  after(() => server.close());

  it('records each door position the sensor reports, and the door keeps the last one', async () => {
    const door = site.doors['Back Door'];
    const changes: ChangeEvent[] = [];
    const unsubscribe = server.gatehouse.deps.bus.subscribe('change', (e) => changes.push(e));
    for (const position of ['OPEN', 'AJAR', 'FORCED_OPEN', 'CLOSED', 'OPEN']) {
      const r = await simulate(server, 'door', { door, position });
      assert.equal(r.json.error, false, r.text);
      assert.deepEqual([r.json.event.type, r.json.event.newState, r.json.door.position], ['DoorPositionIndicatorStateChangeEvent', position, position]);
    }
    unsubscribe();
    const events = await doorEvents(server, org.apiKey, door, { typeFilter: ['DoorPositionIndicatorStateChangeEvent'] });
    assert.deepEqual(
      events.map((e) => e.newState),
      ['OPEN', 'CLOSED', 'FORCED_OPEN', 'AJAR', 'OPEN'],
    );
    assert.deepEqual(changes.filter((c) => c.entity === 'COMPONENT_EVENT').length, 5);
    assert.deepEqual(
      changes.filter((c) => c.entity === 'DOOR').map((c) => (c.update as any).position),
      ['OPEN', 'AJAR', 'FORCED_OPEN', 'CLOSED', 'OPEN'],
    );
    const listed = await server.call('/api/component/findAccessControlledDoors', {}, { key: org.apiKey });
    assert.equal(listed.json.accessControlledDoors.find((d: any) => d.uuid === door).position, 'OPEN');
  });

  it('takes the flags as the CLI sends them: strings, coerced to the schema', async () => {
    const at = '1700000000000';
    const r = await simulate(server, 'door', { door: site.doors['Front Door'], position: 'AJAR', at });
    assert.equal(r.json.event.timestampMs, 1_700_000_000_000);
    assert.equal((await simulate(server, 'door', { door: site.doors['Front Door'], position: 'WIDE_OPEN' })).status, 400);
  });

  it('opens the relay on a request to exit, even during a lockdown, and not at a door without a lock', async () => {
    const door = site.doors['Vault Door'];
    const lockdown = (on: boolean) =>
      write(server.gatehouse.deps, systemActor(org.orgUuid, 'test.lockdown'), (w) =>
        on ? startLocationLockdown(w, { locationUuid: site.locations.HQ }) : endLocationLockdown(w, { locationUuid: site.locations.HQ }),
      );
    await lockdown(true);
    const r = await simulate(server, 'rex', { door });
    await lockdown(false);
    assert.equal(r.json.error, false, r.text);
    assert.deepEqual([r.json.event.type, r.json.event.newState], ['RequestToExitStateChangeEvent', 'ACTIVE']);
    assert.deepEqual(
      r.json.relayEvents.map((e: any) => [e.newState, e.correlationId]),
      [['UNLOCKED', r.json.event.uuid]],
    );
    const side = await simulate(server, 'rex', { door: site.doors['Side Door'] });
    assert.deepEqual(side.json.relayEvents, []);
  });

  it('takes a controller offline with {offline: true} and online with {online: true} or {online: false}', async () => {
    const door = site.doors['Back Door'];
    assert.equal((await simulate(server, 'controller', { door, offline: true })).json.door.controllerOnline, false);
    assert.equal((await simulate(server, 'controller', { door, online: true })).json.door.controllerOnline, true);
    assert.equal((await simulate(server, 'controller', { door, online: 'false' })).json.door.controllerOnline, false);
    assert.equal((await simulate(server, 'controller', { door, offline: 'false' })).json.door.controllerOnline, true);
    for (const body of [{ door }, { door, online: true, offline: true }]) {
      const r = await simulate(server, 'controller', body);
      assert.deepEqual(
        { error: r.json.error, errorMsg: r.json.errorMsg },
        { error: true, errorMsg: 'controller: give one of --online or --offline' },
        JSON.stringify(body),
      );
    }
  });

  it('answers an unknown door as not found, and a malformed body with 400', async () => {
    for (const [event, body] of [
      ['door', { door: 'AAAAAAAAAAAAAAAAAAAAAA', position: 'OPEN' }],
      ['rex', { door: 'AAAAAAAAAAAAAAAAAAAAAA' }],
      ['controller', { door: 'AAAAAAAAAAAAAAAAAAAAAA', online: true }],
    ] as const) {
      const r = await simulate(server, event, body);
      assert.deepEqual({ error: r.json.error, errorMsg: r.json.errorMsg }, { error: true, errorMsg: 'Door not found' }, event);
      assert.equal((await simulate(server, event, { door: 'nope' })).status, 400, event);
    }
  });
});

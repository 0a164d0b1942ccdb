import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ChangeEvent } from '../../../src/store/change-event.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/databases.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { createRule, press, seedRulesSite, waitFor, type RulesSite } from './fixtures.js';

forEachDialect('triggerComponentRelayActions: the relay is driven for its override duration, then turned back', (dialect) => {
  let database: TestDatabase;
  const servers: TestServer[] = [];
  let org: TestOrg;
  let site: RulesSite;
  const start = async () => {
    const server = await startTestServer(dialect, { databaseUrl: database.url });
    servers.push(server);
    const changes: ChangeEvent[] = [];
    server.gatehouse.deps.bus.subscribe('change', (e) => changes.push(e));
    return { server, changes };
  };
  const relayCommands = (changes: ChangeEvent[]) =>
    changes.filter((c) => c.entity === 'DEVICE_COMMAND' && c.deviceUuid === site.relays['Gate Relay']).map((c) => c.update as any);
  before(async () => {
    database = await createTestDatabase(dialect);
  });
  after(async () => {
    for (const s of servers) await s.close().catch(() => {});
    await database.drop();
  });

  it('drives the relay ACTIVE and turns it INACTIVE once overrideRelayDurationMs has passed', async () => {
    const { server, changes } = await start();
    org = await server.createOrg('Relay Org');
    site = await seedRulesSite(server, org.orgUuid);
    await createRule(server, org.apiKey, {
      sensorUuid: site.sensors.Panic,
      action: { triggerComponentRelayActions: [{ componentUuid: site.relays['Gate Relay'], state: 'ACTIVE', overrideRelayDurationMs: 600 }] },
    });
    const pressed = await press(server, site.sensors.Panic);
    assert.equal(pressed.firings[0].outcomes[0].status, 'SUCCESS');
    const [driven] = relayCommands(changes);
    assert.deepEqual([driven.command, driven.payload.state, driven.payload.durationMs], ['DRIVE_RELAY', 'ACTIVE', 600]);
    const restored = await waitFor('the relay turned back', () => relayCommands(changes)[1], 5000);
    assert.deepEqual(
      [restored.command, restored.payload.state, restored.payload.restoresOverride, restored.firingUuid],
      ['DRIVE_RELAY', 'INACTIVE', driven.payload.overrideUuid, pressed.firings[0].uuid],
    );
    assert.ok(Math.abs(driven.payload.restoreAtMs - (driven.createdAtMs + 600)) < 50, 'due the duration after the relay was driven');
    assert.ok(restored.createdAtMs >= driven.payload.restoreAtMs, `turned back ${driven.payload.restoreAtMs - restored.createdAtMs} ms early`);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(relayCommands(changes).length, 2, 'turned back once');
    await server.close();
  });

  // The override outlasts the restart (8 s): a new instance that takes seconds to start on a loaded machine is
  // listening before the relay is due, so the test sees the new instance turn it back.
  it('turns the relay back after a restart, from the persisted override', async () => {
    const first = await start();
    await createRule(first.server, org.apiKey, {
      sensorUuid: site.sensors.Spare,
      action: { triggerComponentRelayActions: [{ ownerDeviceUuid: site.relays['Gate Relay'], state: 'INACTIVE', overrideRelayDurationSec: 8 }] },
    });
    await press(first.server, site.sensors.Spare);
    const [driven] = relayCommands(first.changes);
    assert.equal(driven.payload.state, 'INACTIVE');
    await first.server.close();
    const second = await start();
    const restored = await waitFor('the relay turned back by the new instance', () => relayCommands(second.changes)[0], 15_000);
    assert.deepEqual([restored.payload.state, restored.payload.restoresOverride], ['ACTIVE', driven.payload.overrideUuid]);
    assert.ok(Math.abs(driven.payload.restoreAtMs - (driven.createdAtMs + 8000)) < 50, 'due the duration after the relay was driven');
    assert.ok(restored.createdAtMs >= driven.payload.restoreAtMs, `turned back ${driven.payload.restoreAtMs - restored.createdAtMs} ms early`);
  });
});

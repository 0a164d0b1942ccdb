import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { findDiscovery } from '../../../src/domains/devices/service.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { assertSameAsMissing, changesDuring, createSiteOrg, type SiteOrg } from './config-site.js';
import { assertFails } from '../../helpers/api.js';

const PATH = '/api/relay/deleteThirdPartyCameraDiscovery';

forEachDialect('POST /api/relay/deleteThirdPartyCameraDiscovery', (dialect) => {
  let server: TestServer;
  let org: SiteOrg;
  let other: SiteOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await createSiteOrg(server, 'Relay Org');
    other = await createSiteOrg(server, 'Other Org', { thirdPartyCameraDiscoveries: [{ macAddress: 'AA:BB:CC:00:00:01', assignments: 0 }] });
  });
  after(() => server.close());
  const call = (mac: unknown, key = org.apiKey) => server.call(PATH, { thirdPartyCameraMacAddress: mac }, { key });

  it('requires authentication', async () => {
    assert.equal((await server.call(PATH, { thirdPartyCameraMacAddress: '00:11:22:33:44:55' }, { key: '' })).status, 401);
  });

  it('deletes a discovery without assignments, named in any MAC spelling, answers {} and announces the deletion', async () => {
    let r: Awaited<ReturnType<typeof call>> | undefined;
    const events = await changesDuring(server, async () => (r = await call('0011.2233.4455')));
    assert.equal(r!.status, 200);
    assert.deepEqual(r!.json, {});
    assert.equal(await findDiscovery(server.gatehouse.deps, org.orgUuid, '00:11:22:33:44:55'), null);
    assert.equal(events.length, 1);
    assert.deepEqual(
      { entity: events[0].entity, entityUuid: events[0].entityUuid, type: events[0].type, orgUuid: events[0].orgUuid },
      { entity: 'THIRD_PARTY_CAMERA_DISCOVERY', entityUuid: '00:11:22:33:44:55', type: 'DELETE', orgUuid: org.orgUuid },
    );
    assertFails(await call('00:11:22:33:44:55'), 'Third-party camera discovery 00:11:22:33:44:55 not found');
  });

  it('refuses a discovery that has assignments, saying why, and keeps it', async () => {
    assertFails(await call('00-11-22-33-44-66'), /00:11:22:33:44:66 has 2 assignment\(s\); remove them before deleting it/);
    assert.ok(await findDiscovery(server.gatehouse.deps, org.orgUuid, '00:11:22:33:44:66'));
  });

  it('refuses a value that is not a MAC address', async () => {
    for (const mac of ['00:11:22:33:44', 'zz:11:22:33:44:55', '', '00:11:22:33:44:55:66']) {
      assertFails(await call(mac), /thirdPartyCameraMacAddress: ".*" is not a MAC address/);
    }
  });

  it("answers another organization's discovery exactly as a missing one, and leaves it", async () => {
    const foreign = await call('aa:bb:cc:00:00:01');
    const fresh = await server.createOrg('Fresh Org');
    const missing = await call('aa:bb:cc:00:00:01', fresh.apiKey);
    assertSameAsMissing(foreign, missing);
    assert.equal(foreign.json.errorMsg, 'Third-party camera discovery aa:bb:cc:00:00:01 not found');
    assert.ok(await findDiscovery(server.gatehouse.deps, other.orgUuid, 'aa:bb:cc:00:00:01'));
  });

  it('answers a malformed body with 400', async () => {
    for (const body of [{}, { thirdPartyCameraMacAddress: 42 }]) assert.equal((await server.call(PATH, body, { key: org.apiKey })).status, 400);
  });
});

import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

forEachDialect('regions: two deployments side by side', (dialect) => {
  let us: TestServer;
  let eu: TestServer;
  let usOrg: TestOrg;
  let euOrg: TestOrg;
  before(async () => {
    [us, eu] = await Promise.all([startTestServer(dialect, { region: 'us' }), startTestServer(dialect, { region: 'eu' })]);
    usOrg = await us.createOrg('US Org');
    euOrg = await eu.createOrg('EU Org');
  });
  after(async () => {
    await Promise.all([us.close(), eu.close()]);
  });

  it('issues keys bound to their region', () => {
    assert.match(usOrg.apiKey, /^us_/);
    assert.match(euOrg.apiKey, /^eu_/);
  });

  it('answers each key in its own region', async () => {
    assert.equal((await us.call('/api/org/getOrgV2', {}, { key: usOrg.apiKey })).json.orgUuid, usOrg.orgUuid);
    assert.equal((await eu.call('/api/org/getOrgV2', {}, { key: euOrg.apiKey })).json.orgUuid, euOrg.orgUuid);
  });

  it('answers a key of the other region with 403 Invalid api key', async () => {
    for (const [server, key] of [
      [us, euOrg.apiKey],
      [eu, usOrg.apiKey],
    ] as const) {
      const r = await server.call('/api/org/getOrgV2', {}, { key });
      assert.equal(r.status, 403);
      assert.equal(r.json.errorMsg, 'Invalid api key');
    }
  });
});

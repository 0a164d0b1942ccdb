import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';

const key = () => randomBytes(32).toString('hex');

forEachDialect("an instance whose secret key cannot open the store's secrets refuses to start", (dialect) => {
  const shared = key();
  let first: TestServer;
  before(async () => {
    first = await startTestServer(dialect, { env: { GATEHOUSE_SECRET_KEY: shared } });
    await first.createOrg('Sealed Org');
  });
  after(() => first.close());

  it('refuses with a clear message naming GATEHOUSE_SECRET_KEY', async () => {
    await assert.rejects(startTestServer(dialect, { databaseUrl: first.config.databaseUrl, env: { GATEHOUSE_SECRET_KEY: key() } }), (e: Error) => {
      assert.match(e.message, /GATEHOUSE_SECRET_KEY/);
      assert.match(e.message, /cannot decrypt this store's secrets/);
      assert.match(e.message, /Refusing to start/);
      return true;
    });
  });

  it('starts with the same key, and keeps answering', async () => {
    const second = await startTestServer(dialect, { databaseUrl: first.config.databaseUrl, env: { GATEHOUSE_SECRET_KEY: shared } });
    try {
      const health = await fetch(second.rest + '/healthz');
      assert.equal(health.status, 200);
    } finally {
      await second.close();
    }
  });
});

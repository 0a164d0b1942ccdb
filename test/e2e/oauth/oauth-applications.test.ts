import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import type { TestOrg } from '../../helpers/server.js';
import { changesDuring } from '../config/config-site.js';

const MISSING = 'AAAAAAAAAAAAAAAAAAAAAA';

forEachDialect('OAuth applications: /api/oauth/submitApplication, get, list, update, delete', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let other: TestOrg;
  before(async () => {
    org = await server().createOrg('OAuth Apps');
    other = await server().createOrg('Other Apps');
  });
  const mine = apiAs(server, () => org.apiKey, '/api/oauth');
  const theirs = apiAs(server, () => other.apiKey, '/api/oauth');

  it('registers an application, answers its secret once, reads it back without it, and announces each change', async () => {
    let created: { clientId: string; clientSecret: string } | undefined;
    const changes = await changesDuring(server(), async () => {
      created = await mine.ok('submitApplication', { name: 'Door Bot', contactEmail: 'dev@example.com', redirectUri: 'https://bot.example.com/cb' });
    });
    const { clientId, clientSecret } = created!;
    assert.match(clientId, /^[A-Za-z0-9_-]{22}$/);
    assert.ok(clientSecret.length >= 40);
    const change = changes.find((c) => c.entity === 'OAUTH_APPLICATION');
    assert.equal(change?.type, 'CREATE');
    assert.equal(change?.entityUuid, clientId);
    assert.ok(!JSON.stringify(change).includes(clientSecret), 'the stream never carries the secret');

    const { application } = await mine.ok('getApplicationByClientId', { clientId });
    assert.deepEqual(
      { ...application },
      { clientId, orgUuid: org.orgUuid, name: 'Door Bot', description: null, contactEmail: 'dev@example.com', redirectUri: 'https://bot.example.com/cb' },
    );
    const { oauthApplications } = await mine.ok('getAllApplicationsForOrg');
    assert.deepEqual(
      oauthApplications.map((a: { clientId: string }) => a.clientId),
      [clientId],
    );
    assert.ok(!JSON.stringify(oauthApplications).includes(clientSecret));
    // The secret is sealed at rest: the stored row never holds it as text.
    const row = await server().gatehouse.deps.store.db.selectFrom('oauth_applications').selectAll().where('client_id', '=', clientId).executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(row).includes(clientSecret));

    const updates = await changesDuring(server(), () =>
      mine.ok('updateApplication', { clientId, name: 'Door Bot 2', redirectUri: 'https://bot.example.com/cb2' }),
    );
    assert.equal(updates.find((c) => c.entity === 'OAUTH_APPLICATION')?.type, 'UPDATE');
    const after = (await mine.ok('getApplicationByClientId', { clientId })).application;
    assert.equal(after.name, 'Door Bot 2');
    assert.equal(after.redirectUri, 'https://bot.example.com/cb2');
    assert.equal(after.contactEmail, 'dev@example.com', 'a field left out keeps its value');

    const deletes = await changesDuring(server(), () => mine.ok('deleteApplication', { clientId }));
    assert.equal(deletes.find((c) => c.entity === 'OAUTH_APPLICATION')?.type, 'DELETE');
    assert.match(await mine.refused('getApplicationByClientId', { clientId }), /not found/);
    assert.deepEqual((await mine.ok('getAllApplicationsForOrg')).oauthApplications, []);
  });

  it("answers another organization's application exactly as an unknown one, and changes nothing", async () => {
    const { clientId } = await mine.ok('submitApplication', { name: 'Private', redirectUri: 'https://private.example.com/cb' });
    for (const op of ['getApplicationByClientId', 'updateApplication', 'deleteApplication']) {
      const foreign = await theirs.refused(op, { clientId, name: 'Hijacked' });
      const missing = await theirs.refused(op, { clientId: MISSING, name: 'Hijacked' });
      assert.equal(foreign.replace(clientId, '<id>'), missing.replace(MISSING, '<id>'), op);
    }
    assert.deepEqual((await theirs.ok('getAllApplicationsForOrg')).oauthApplications, []);
    assert.equal((await mine.ok('getApplicationByClientId', { clientId })).application.name, 'Private');
  });

  it('refuses an application without a name or with a redirect URI that is not absolute http(s)', async () => {
    assert.match(await mine.refused('submitApplication', { redirectUri: 'https://x.example.com/cb' }), /name is required/);
    assert.match(await mine.refused('submitApplication', { name: 'No redirect' }), /redirectUri is required/);
    for (const redirectUri of ['javascript:alert(1)', '/relative', 'https://x.example.com/cb#frag']) {
      const r = await mine.call('submitApplication', { name: 'Bad', redirectUri });
      assert.equal(r.status, 400, `${redirectUri}: ${r.text}`);
      assert.equal(r.json.error, true);
    }
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

const UPDATE = '/api/integrations/updateChatIntegration';
const GET = '/api/integrations/getChatIntegration';

forEachDialect(`POST ${UPDATE}`, (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Chat Org');
    other = await server.createOrg('Other Org');
  });
  after(() => server.close());

  it('requires authentication', async () => {
    const r = await server.call(UPDATE, { mattermostSettings: {} }, { key: '' });
    assert.equal(r.status, 401);
  });

  it('saves channel and webhook URL and reads them back, the URL (a credential) sealed at rest and answered by its host only', async () => {
    const r = await server.call(
      UPDATE,
      { mattermostSettings: { enabled: true, channel: 'security', webhookUrl: 'http://127.0.0.1:9/hooks/abc' } },
      { key: org.apiKey },
    );
    assert.deepEqual(r.json, { error: false, authError: false, failedGuids: [], misconfiguredDoors: [], warningMsg: null });
    const got = (await server.call(GET, {}, { key: org.apiKey })).json.mattermostSettings;
    assert.equal(got.channel, 'security');
    assert.equal(got.webhookUrl, 'http://127.0.0.1:9/****');
    const stored = await server.gatehouse.deps.store.db.selectFrom('integrations').selectAll().where('org_uuid', '=', org.orgUuid).executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(stored).includes('hooks/abc'), 'the URL is not stored in plaintext');
    // Sending the masked form back keeps the stored URL.
    const kept = await server.call(UPDATE, { mattermostSettings: { enabled: true, channel: 'ops', webhookUrl: got.webhookUrl } }, { key: org.apiKey });
    assert.equal(kept.json.error, false, kept.text);
    assert.equal((await server.call(GET, {}, { key: org.apiKey })).json.mattermostSettings.webhookUrl, 'http://127.0.0.1:9/****');
    assert.equal(got.enabled, true);
    assert.equal(got.enablingUserUuid, org.userUuid);
    assert.equal((await server.call(GET, {}, { key: other.apiKey })).json.mattermostSettings, null, 'not visible to another organization');
  });

  it('refuses to enable without a webhook URL', async () => {
    const r = await server.call(UPDATE, { mattermostSettings: { enabled: true, channel: 'x' } }, { key: org.apiKey });
    assert.deepEqual([r.status, r.json.error, r.json.errorMsg], [200, true, 'webhookUrl: required to enable the chat integration']);
  });

  it('refuses a webhook URL that is not http or https', async () => {
    const r = await server.call(UPDATE, { mattermostSettings: { enabled: true, webhookUrl: 'file:///etc/passwd' } }, { key: org.apiKey });
    assert.deepEqual([r.json.error, r.json.errorMsg], [true, 'webhookUrl: only http and https URLs are allowed']);
  });

  it("answers under the reference catalogue's names, the old one deprecated", async () => {
    const current = await server.call(
      '/api/integrations/incidentManagement/updateMattermostIntegration',
      { mattermostSettings: { channel: 'ops' } },
      { key: org.apiKey },
    );
    assert.equal(current.json.error, false);
    assert.equal(current.headers.get('deprecation'), null);
    const old = await server.call('/api/integrations/updateMattermostIntegration', { mattermostSettings: { channel: 'old' } }, { key: org.apiKey });
    assert.equal(old.json.error, false);
    assert.equal(old.headers.get('deprecation'), 'true');
    assert.equal((await server.call(GET, {}, { key: org.apiKey })).json.mattermostSettings.channel, 'old');
  });

  it('refuses a malformed body with 400', async () => {
    const r = await server.call(UPDATE, { mattermostSettings: { webhookUrl: 42 } }, { key: org.apiKey });
    assert.equal(r.status, 400);
  });

  it('deletes the integration', async () => {
    assert.equal((await server.call('/api/integrations/incidentManagement/deleteMattermostIntegration', {}, { key: org.apiKey })).json.error, false);
    assert.equal((await server.call(GET, {}, { key: org.apiKey })).json.mattermostSettings, null);
  });
});

forEachDialect(`POST ${UPDATE} with private outbound addresses refused`, (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  before(async () => {
    server = await startTestServer(dialect, { env: { GATEHOUSE_ALLOW_PRIVATE_OUTBOUND: 'false' } });
    org = await server.createOrg('Strict Org');
  });
  after(() => server.close());

  describe('refuses webhook URLs that reach private, loopback or link-local addresses', () => {
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost/hook',
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest',
      'http://[::1]/hook',
      'http://[fe80::1]/hook',
      'http://[::ffff:192.168.1.1]/x',
    ]) {
      it(url, async () => {
        const r = await server.call(UPDATE, { mattermostSettings: { enabled: true, webhookUrl: url } }, { key: org.apiKey });
        assert.equal(r.json.error, true);
        assert.match(r.json.errorMsg, /^webhookUrl: .* is a private, loopback or link-local address$/);
      });
    }
  });

  it('accepts a public address', async () => {
    const r = await server.call(UPDATE, { mattermostSettings: { enabled: true, webhookUrl: 'https://93.184.215.14/hooks/x' } }, { key: org.apiKey });
    assert.equal(r.json.error, false, r.json.errorMsg);
  });
});

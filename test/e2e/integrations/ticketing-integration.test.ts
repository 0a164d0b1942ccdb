import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

const UPDATE = '/api/integrations/incidentManagement/updateServiceNowIntegration';
const DELETE = '/api/integrations/incidentManagement/deleteTicketingIntegration';
const GET = '/api/integrations/incidentManagement/getTicketingIntegration';

forEachDialect(`POST ${DELETE}`, (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let other: TestOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Ticket Org');
    other = await server.createOrg('Other Org');
  });
  after(() => server.close());

  const create = () =>
    server.call(
      UPDATE,
      { serviceNowSettings: { enabled: true, instanceUrl: 'https://tickets.example.com', username: 'gatehouse', password: 'ticket-password-77' } },
      { key: org.apiKey },
    );

  it('requires authentication', async () => {
    assert.equal((await server.call(DELETE, {}, { key: '' })).status, 401);
  });

  it('removes the ticketing integration that the update created', async () => {
    assert.equal((await create()).json.error, false);
    const got = (await server.call(GET, {}, { key: org.apiKey })).json.serviceNowSettings;
    assert.deepEqual([got.enabled, got.username, got.password], [true, 'gatehouse', '****d-77']);
    const r = await server.call(DELETE, {}, { key: org.apiKey });
    assert.deepEqual(r.json, { error: false });
    assert.equal((await server.call(GET, {}, { key: org.apiKey })).json.serviceNowSettings, null);
  });

  it('answers NOT_FOUND when there is none, also for another organization whose integration exists', async () => {
    await create();
    const r = await server.call(DELETE, {}, { key: other.apiKey });
    assert.deepEqual([r.status, r.json.error, r.json.errorMsg], [200, true, 'Ticketing integration not found']);
    assert.equal((await server.call(GET, {}, { key: org.apiKey })).json.serviceNowSettings.enabled, true, 'untouched');
  });

  it("answers under the reference catalogue's name deleteServiceNowIntegration", async () => {
    assert.equal((await server.call('/api/integrations/incidentManagement/deleteServiceNowIntegration', {}, { key: org.apiKey })).json.error, false);
  });

  it('refuses to enable without the instance URL and credentials', async () => {
    const r = await server.call(UPDATE, { serviceNowSettings: { enabled: true, instanceUrl: 'https://tickets.example.com' } }, { key: org.apiKey });
    assert.deepEqual([r.json.error, r.json.errorMsg], [true, 'instanceUrl, username and password: all required to enable the ticketing integration']);
  });

  it('refuses a body that is not a JSON object with 400', async () => {
    assert.equal((await server.call(DELETE, '[1', { key: org.apiKey })).status, 400);
    assert.equal((await server.call(UPDATE, { serviceNowSettings: { password: 5 } }, { key: org.apiKey })).status, 400);
  });
});

import { assertFails, assertOk } from '../../helpers/api.js';
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { forEachDialect } from '../../helpers/dialects.js';
import { seedYaml } from '../../helpers/org-structure.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';
import { StrictClient } from '../streaming/helpers.js';

forEachDialect('POST /api/partner/*', (dialect) => {
  let server: TestServer;
  let partner: TestOrg;
  let client: TestOrg;
  let stranger: TestOrg;
  let partnerKey: string;
  before(async () => {
    server = await startTestServer(dialect);
    partner = await server.createOrg('Integrator');
    client = await server.createOrg('Client Co');
    stranger = await server.createOrg('Stranger');
    await seedYaml(server, client.orgUuid, 'locations: [{name: Lobby}]\ncameras: [{name: Cam, location: Lobby}]');
    partnerKey = await server.createPartnerKey(partner.orgUuid, [client.orgUuid]);
  });
  after(() => server.close());
  const partnerCall = (op: string, body: unknown, org?: string) =>
    server.call(`/api/partner/${op}`, body, { key: partnerKey, scheme: 'partner-api-token', org });

  it('requires authentication and a partner key', async () => {
    assert.equal((await server.call('/api/partner/getClientsV2', {}, { key: '' })).status, 401);
    const standard = await server.call('/api/partner/getClientsV2', {}, { key: partner.apiKey });
    assert.equal(standard.status, 403);
  });

  it("lists the partner's clients with the catalogue's fields and the CLI's name/orgUuid", async () => {
    for (const org of [undefined, client.orgUuid]) {
      const r = await partnerCall('getClientsV2', {}, org);
      assertOk(r);
      assert.deepEqual(
        r.json.partnerClients.map((c: any) => [c.name, c.orgUuid]),
        [['Client Co', client.orgUuid]],
      );
      const c = r.json.clients[0];
      assert.deepEqual([c.clientOrgName, c.clientOrgUuid, c.totalLocations, c.totalCameras], ['Client Co', client.orgUuid, 1, 1]);
    }
    assert.deepEqual((await partnerCall('getClients', {})).json.clients.length, 1);
  });

  it('creates a client organization with its first user, granted to the partner', async () => {
    const r = await partnerCall('createPartnerClient', { clientOrgName: 'New Client', clientContactName: 'Nina', clientContactEmail: 'Nina@client.example' });
    assertOk(r);
    const uuid = r.json.clientOrgUuid;
    const users = await server.call('/api/user/getUsersInOrg', {}, { key: partnerKey, scheme: 'partner-api-token', org: uuid });
    assertOk(users);
    assert.deepEqual(
      users.json.users.map((u: any) => [u.name, u.email]),
      [['Nina', 'nina@client.example']],
    );
    assertFails(await partnerCall('createPartnerClient', { clientOrgName: 'New Client' }), /already has a client named/);
    assertFails(await partnerCall('createPartnerClient', { clientOrgName: 'Bad mail', clientContactEmail: 'nope' }), /not an e-mail address/);
    assert.equal((await partnerCall('getClientsV2', {})).json.clients.length, 2);
    assert.equal((await partnerCall('createPartnerClient', { clientOrgName: 7 })).status, 400);
  });

  it("withdrawing a grant ends the partner's access at once, its stream sessions included", async () => {
    const org = (await partnerCall('createPartnerClient', { clientOrgName: 'Leaving Client' })).json.clientOrgUuid;
    assertOk(await server.call('/api/org/getOrgV2', {}, { key: partnerKey, scheme: 'partner-api-token', org }));
    const stream = await StrictClient.connect(server.gatehouse.urls.ws, { key: partnerKey, scheme: 'partner-api-token', org });
    const kept = await StrictClient.connect(server.gatehouse.urls.ws, { key: partnerKey, scheme: 'partner-api-token', org: client.orgUuid });
    assertOk(await partnerCall('deleteClient', { clientOrgUuid: org }));
    await stream.closed;
    const denied = await server.call('/api/org/getOrgV2', {}, { key: partnerKey, scheme: 'partner-api-token', org });
    assert.equal(denied.status, 403);
    assert.equal(kept.closeCode, null);
    kept.ws.close();
    assertFails(await partnerCall('deleteClient', { clientOrgUuid: org }), /not found/);
  });

  it('answers an organization it has no grant for as unknown, changing nothing', async () => {
    assertFails(await partnerCall('deleteClient', { clientOrgUuid: stranger.orgUuid }), /not found/);
    assert.ok(!(await partnerCall('getClientsV2', {})).json.clients.some((c: any) => c.clientOrgUuid === stranger.orgUuid));
    const strangerKey = await server.createPartnerKey(stranger.orgUuid, []);
    const theirs = await server.call('/api/partner/getClientsV2', {}, { key: strangerKey, scheme: 'partner-api-token' });
    assert.deepEqual(theirs.json.clients, []);
    assertFails(
      await server.call('/api/partner/deleteClient', { clientOrgUuid: client.orgUuid }, { key: strangerKey, scheme: 'partner-api-token' }),
      /not found/,
    );
    assertOk(await partnerCall('getClientsV2', {}, client.orgUuid));
  });
});

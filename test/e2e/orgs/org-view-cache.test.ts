import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { grantPartner } from '../../../src/domains/orgs/service.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { postgresProblem, REDIS_TEST_URL } from '../../helpers/databases.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

// getOrgV2 and getOrganization answer from a short-lived cache of organization views: every write that changes a
// view must show in the next read, on this instance at once and on others that share the bus soon after.
forEachDialect('the organization view after the writes that change it', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  before(async () => {
    server = await startTestServer(dialect);
    org = await server.createOrg('Cached Org');
  });
  after(() => server.close());
  const getOrg = async (key = org.apiKey) => (await server.call('/api/org/getOrgV2', {}, { key })).json.org;

  it('answers a rename and new settings in the next read', async () => {
    assert.equal((await getOrg()).name, 'Cached Org');
    await server.call('/api/org/updateOrg', { org: { name: 'Renamed Org', teamName: 'renamed-org' } }, { key: org.apiKey });
    assert.deepEqual([(await getOrg()).name, (await getOrg()).teamName], ['Renamed Org', 'renamed-org']);
    await server.call('/api/org/updateGeneralSettings', { inactivityTimeout: 45 }, { key: org.apiKey });
    assert.equal((await getOrg()).inactivityTimeout, 45);
    assert.equal((await server.call('/api/org/getOrganization', {}, { key: org.apiKey })).json.org.inactivityTimeout, 45);
    await server.call('/api/org/updateSAMLSettings', { samlSettings: { teamName: 'saml-team' } }, { key: org.apiKey });
    assert.equal((await getOrg()).teamName, 'saml-team');
    await server.call('/api/org/updateSAMLSettingsV2', { samlSettings: [{ teamName: 'saml-team-two' }] }, { key: org.apiKey });
    assert.equal((await getOrg()).teamName, 'saml-team-two');
  });

  it('answers PARTNER once the organization holds a grant, and CUSTOMER once it holds none', async () => {
    const partner = await server.createOrg('Partner Org');
    const client = await server.createOrg('Client Org');
    assert.equal((await getOrg(partner.apiKey)).type, 'CUSTOMER');
    await grantPartner(server.gatehouse.deps, { partnerOrgUuid: partner.orgUuid, clientOrgUuid: client.orgUuid });
    assert.equal((await getOrg(partner.apiKey)).type, 'PARTNER');
    const partnerKey = await server.createPartnerKey(partner.orgUuid, []);
    const partnerCall = (op: string, body: unknown) => server.call(`/api/partner/${op}`, body, { key: partnerKey, scheme: 'partner-api-token' });
    assert.equal((await partnerCall('deleteClient', { clientOrgUuid: client.orgUuid })).json.error, false);
    assert.equal((await getOrg(partner.apiKey)).type, 'CUSTOMER');
    const created = await partnerCall('createPartnerClient', { clientOrgName: 'New Client' });
    assert.equal(created.json.error, false);
    assert.equal((await getOrg(partner.apiKey)).type, 'PARTNER');
  });
});

const pgProblem = await postgresProblem();

describe(
  'the organization view across two instances sharing PostgreSQL and Redis',
  { skip: pgProblem && !process.env.CI ? `PostgreSQL unreachable: ${pgProblem}` : false },
  () => {
    let a: TestServer;
    let b: TestServer;
    let org: TestOrg;
    before(async () => {
      a = await startTestServer('postgres', { busUrl: REDIS_TEST_URL });
      b = await startTestServer('postgres', { busUrl: REDIS_TEST_URL, databaseUrl: a.config.databaseUrl });
      org = await a.createOrg('Shared Org');
    });
    after(async () => {
      await b.close();
      await a.close();
    });

    /** Reads on `server` until `check` holds, within 5 s: the other instance's announcement arrives through Redis. */
    async function until(server: TestServer, check: (view: any) => boolean): Promise<any> {
      const deadline = Date.now() + 5000;
      for (;;) {
        const view = (await server.call('/api/org/getOrgV2', {}, { key: org.apiKey })).json.org;
        if (check(view) || Date.now() > deadline) return view;
        await new Promise((r) => setTimeout(r, 20));
      }
    }

    it('answers a rename made on the other instance well before the cache would expire', async () => {
      assert.equal((await until(a, () => true)).name, 'Shared Org'); // cached on a
      const started = Date.now();
      await b.call('/api/org/updateOrg', { org: { name: 'Shared Org Renamed' } }, { key: org.apiKey });
      assert.equal((await until(a, (v) => v.name === 'Shared Org Renamed')).name, 'Shared Org Renamed');
      assert.ok(Date.now() - started < 2000, `seen after ${Date.now() - started} ms`);
    });

    it('answers a grant made on the other instance', async () => {
      const client = await a.createOrg('Shared Client');
      assert.equal((await until(a, () => true)).type, 'CUSTOMER');
      await grantPartner(b.gatehouse.deps, { partnerOrgUuid: org.orgUuid, clientOrgUuid: client.orgUuid });
      assert.equal((await until(a, (v) => v.type === 'PARTNER')).type, 'PARTNER');
    });
  },
);

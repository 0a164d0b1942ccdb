import assert from 'node:assert/strict';
import { request } from 'node:https';
import { after, before, it } from 'node:test';
import { certificateFingerprint } from '../../../src/domains/orgs/keys/api-keys.js';
import { createApiKey } from '../../../src/domains/orgs/service.js';
import { generateSelfSigned, type TlsMaterial } from '../../../src/tls.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { startTestServer, type TestOrg, type TestServer } from '../../helpers/server.js';

/** A POST over real TLS, presenting a client certificate when one is given. */
function tlsPost(url: string, headers: Record<string, string>, client?: TlsMaterial): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, rejectUnauthorized: false, ...(client ?? {}) },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(body) }));
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
}

forEachDialect('certificate schemes api and partner-api over mTLS', (dialect) => {
  let server: TestServer;
  let org: TestOrg;
  let clientCert: TlsMaterial;
  let otherCert: TlsMaterial;
  let certKey: string;
  let partnerCertKey: string;
  let partner: TestOrg;
  before(async () => {
    server = await startTestServer(dialect, { httpTls: true });
    org = await server.createOrg('Cert Org');
    partner = await server.createOrg('Cert Partner');
    [clientCert, otherCert] = await Promise.all([generateSelfSigned('client'), generateSelfSigned('intruder')]);
    const deps = server.gatehouse.deps;
    certKey = (await createApiKey(deps, { orgUuid: org.orgUuid, kind: 'standard', certFingerprint: certificateFingerprint(clientCert.cert) })).apiKey;
    await server.createPartnerKey(partner.orgUuid, [org.orgUuid]);
    partnerCertKey = (await createApiKey(deps, { orgUuid: partner.orgUuid, kind: 'partner', certFingerprint: certificateFingerprint(clientCert.cert) })).apiKey;
  });
  after(() => server.close());

  const url = () => `${server.rest}/api/org/getOrgV2`;

  it('serves the REST port over TLS', () => {
    assert.match(server.rest, /^https:\/\//);
  });

  it('accepts the api scheme with the registered client certificate', async () => {
    const r = await tlsPost(url(), { 'x-auth-scheme': 'api', 'x-auth-apikey': certKey }, clientCert);
    assert.equal(r.status, 200);
    assert.equal(r.json.orgUuid, org.orgUuid);
  });

  it('accepts the partner-api scheme with the registered certificate for a granted client', async () => {
    const r = await tlsPost(url(), { 'x-auth-scheme': 'partner-api', 'x-auth-apikey': partnerCertKey, 'x-auth-org': org.orgUuid }, clientCert);
    assert.equal(r.status, 200);
    assert.equal(r.json.orgUuid, org.orgUuid);
  });

  it('refuses the api scheme without a client certificate, or with another one', async () => {
    for (const cert of [undefined, otherCert]) {
      const r = await tlsPost(url(), { 'x-auth-scheme': 'api', 'x-auth-apikey': certKey }, cert);
      assert.equal(r.status, 403);
      assert.equal(r.json.errorMsg, 'Invalid api key');
    }
  });

  it('refuses the api scheme for a key registered without a certificate', async () => {
    const r = await tlsPost(url(), { 'x-auth-scheme': 'api', 'x-auth-apikey': org.apiKey }, clientCert);
    assert.equal(r.status, 403);
  });

  it('still accepts the token scheme over TLS without a certificate', async () => {
    const r = await tlsPost(url(), { 'x-auth-scheme': 'api-token', 'x-auth-apikey': org.apiKey });
    assert.equal(r.status, 200);
  });
});

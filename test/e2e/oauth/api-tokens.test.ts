import assert from 'node:assert/strict';
import { webcrypto } from 'node:crypto';
import { before, it } from 'node:test';
import * as x509 from '@peculiar/x509';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import type { TestOrg } from '../../helpers/server.js';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);
const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const MISSING = 'AAAAAAAAAAAAAAAAAAAAAA';

/** A CSR as the platform's CLI makes one: a new P-256 key, CN=rhombus-cli. */
async function certificateRequest() {
  const keys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as CryptoKeyPair;
  return x509.Pkcs10CertificateRequestGenerator.create({ name: 'CN=rhombus-cli', keys, signingAlgorithm: EC });
}

forEachDialect('API tokens: submitApiTokenApplication, getApiTokens, getApiTokenApplications, revokeApiToken, validateToken', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let other: TestOrg;
  before(async () => {
    org = await server().createOrg('Token Org');
    other = await server().createOrg('Other Token Org');
  });
  const mine = apiAs(server, () => org.apiKey, '/api/integrations');
  const theirs = apiAs(server, () => other.apiKey, '/api/integrations');
  const orgOf = async (key: string, options = {}) => (await server().call('/api/org/getOrgV2', {}, { key, ...options })).json?.orgUuid;

  it('makes a working API key, lists it (filtered by client type) and revokes it, which stops it at once', async () => {
    const { apiKey, cert, validCSR } = await mine.ok('org/submitApiTokenApplication', { displayName: 'Reporting', authType: 'API_TOKEN' });
    assert.equal(cert ?? null, null);
    assert.equal(validCSR ?? null, null);
    assert.equal(await orgOf(apiKey), org.orgUuid);
    const { apiTokens } = await mine.ok('org/getApiTokens', {});
    const token = apiTokens.find((t: { displayName: string }) => t.displayName === 'Reporting');
    assert.deepEqual([token.orgUuid, token.authType, token.clientType, token.hashed], [org.orgUuid, 'API_TOKEN', 'DEVELOPER', true]);
    assert.ok(!JSON.stringify(apiTokens).includes(apiKey), 'a key is never answered again');
    assert.equal(apiTokens.length, 2, "the organization's first key and the new one");
    assert.deepEqual((await mine.ok('getApiTokens', { optionalFilter: ['PARTNER_DEVELOPER'] })).apiTokens, []);
    const { applications } = await mine.ok('getApiTokenApplications', {});
    assert.deepEqual(
      applications.map((a: { tokenUuid: string; displayName: string }) => [a.tokenUuid, a.displayName]),
      [[token.tokenUuid, 'Reporting']],
    );

    const foreign = await theirs.refused('org/revokeApiToken', { tokenUuid: token.tokenUuid });
    const missing = await theirs.refused('org/revokeApiToken', { tokenUuid: MISSING });
    assert.equal(foreign.replace(token.tokenUuid, '<id>'), missing.replace(MISSING, '<id>'));
    assert.equal(await orgOf(apiKey), org.orgUuid, "another organization's revoke changes nothing");

    await mine.ok('revokeApiToken', { tokenUuid: token.tokenUuid });
    assert.equal((await server().call('/api/org/getOrgV2', {}, { key: apiKey })).status, 403);
    assert.deepEqual((await mine.ok('getApiTokenApplications', {})).applications, []);
  });

  it('signs a CERT application with the Gatehouse CA, and answers validCSR false (and no key) to a bad CSR', async () => {
    const csr = await certificateRequest();
    const answer = await mine.ok('org/submitApiTokenApplication', { displayName: 'CLI', authType: 'CERT', csr: csr.toString('pem') });
    assert.equal(answer.validCSR, true);
    const [leafPem, caPem] = answer.cert.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g);
    const leaf = new x509.X509Certificate(leafPem);
    const ca = new x509.X509Certificate(caPem);
    assert.equal(await leaf.verify({ publicKey: ca.publicKey, signatureOnly: true }), true, 'signed by the CA it names');
    assert.equal(leaf.issuer, ca.subject);
    assert.equal(leaf.subject, 'CN=rhombus-cli');
    assert.deepEqual(new Uint8Array(leaf.publicKey.rawData), new Uint8Array(csr.publicKey.rawData), "the certificate is for the CSR's key");
    assert.equal(await orgOf(answer.apiKey), org.orgUuid);
    const token = (await mine.ok('org/getApiTokens', {})).apiTokens.find((t: { displayName: string }) => t.displayName === 'CLI');
    assert.equal(token.authType, 'CERT');
    assert.equal(token.cert, answer.cert);

    const before = (await mine.ok('org/getApiTokens', {})).apiTokens.length;
    // One byte of the signed key flipped: the request no longer matches its signature.
    const der = Buffer.from(csr.rawData);
    const spki = Buffer.from(csr.publicKey.rawData);
    der[der.indexOf(spki) + spki.length - 5] ^= 0x01;
    const tampered = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----`;
    for (const bad of ['not a csr', tampered, undefined]) {
      const r = await mine.call('org/submitApiTokenApplication', { authType: 'CERT', ...(bad ? { csr: bad } : {}) });
      assert.equal(r.json.error, true, r.text);
      assert.equal(r.json.validCSR, false);
      assert.equal(r.json.apiKey ?? null, null);
    }
    assert.equal((await mine.ok('org/getApiTokens', {})).apiTokens.length, before, 'a refused application makes no key');
  });

  it("refuses the catalogue's submitApiTokenApplication without a permission group, or with another organization's", async () => {
    assert.equal((await mine.call('submitApiTokenApplication', { authType: 'API_TOKEN' })).status, 400);
    assert.match(await mine.refused('submitApiTokenApplication', { permissionGroupUuid: MISSING }), /permissionGroupUuid.*not found/);
  });

  it('makes a partner key for a partner (partner/submitApiTokenApplication), and validates the credentials of a call', async () => {
    const partner = await server().createOrg('Token Partner');
    const partnerKey = await server().createPartnerKey(partner.orgUuid, [org.orgUuid]);
    const made = await server().call(
      '/api/partner/submitApiTokenApplication',
      { displayName: 'Partner CLI' },
      { key: partnerKey, scheme: 'partner-api-token' },
    );
    assert.equal(made.json.error, false, made.text);
    assert.equal(await orgOf(made.json.apiKey, { scheme: 'partner-api-token', org: org.orgUuid }), org.orgUuid);
    const standard = await server().call('/api/partner/submitApiTokenApplication', {}, { key: org.apiKey });
    assert.equal(standard.status, 403, 'a standard key is not a partner');
    assert.equal((await mine.ok('validateToken')).error, false);
    assert.equal((await server().call('/api/integrations/validateToken', {}, { key: 'us_unknown-key-0000000000000' })).status, 403);
  });
});

import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import * as oauth from 'oauth4webapi';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import type { TestOrg } from '../../helpers/server.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const insecure = { [oauth.allowInsecureRequests]: true };

/** The hidden fields of the consent page's form, as a browser would post them back. */
function formFields(html: string): Record<string, string> {
  return Object.fromEntries([...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, n, v]) => [n, v.replaceAll('&amp;', '&')]));
}

forEachDialect('the OAuth flow: authorize (consent page), code with PKCE, token, API call, refresh, scopes', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let clientId: string;
  let clientSecret: string;
  let as: oauth.AuthorizationServer;
  const admin = apiAs(server, () => org.apiKey);

  before(async () => {
    org = await server().createOrg('OAuth Flow');
    ({ clientId, clientSecret } = await admin.ok('/api/oauth/submitApplication', { name: 'Flow App', redirectUri: REDIRECT }));
    const base = server().rest;
    as = { issuer: base, authorization_endpoint: `${base}/api/oauth/authorize`, token_endpoint: `${base}/oauth/token` };
  });

  /** Opens the consent page for a PKCE request and posts the form with `apiKey` and `decision`; answers the redirect. */
  async function consent(apiKey: string, decision: 'allow' | 'deny', scope?: string) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      ...(scope ? { scope } : {}),
    }).toString();
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    const html = await page.text();
    assert.match(html, /Authorize Flow App/);
    const form = new URLSearchParams({ ...formFields(html), apiKey, decision });
    const answer = await fetch(as.authorization_endpoint!, { method: 'POST', body: form, redirect: 'manual' });
    return { answer, location: answer.headers.get('location'), verifier, state };
  }

  const client = () => ({ client_id: clientId }) as oauth.Client;
  const callAs = (token: string, path: string, body: unknown = {}, scheme = 'api-oauth-token', org?: string) =>
    server().call(path, body, { key: '', headers: { 'x-auth-scheme': scheme, 'x-auth-access-token': token, ...(org ? { 'x-auth-org': org } : {}) } });

  it('runs the whole flow with oauth4webapi: consent, code + PKCE, token, API call, refresh to a narrower scope, scope refusal', async () => {
    const { answer, location, verifier, state } = await consent(org.apiKey, 'allow');
    assert.equal(answer.status, 302);
    const params = oauth.validateAuthResponse(as, client(), new URL(location!), state);
    assert.equal(params.get('isPartner'), 'false');
    const auth = oauth.ClientSecretPost(clientSecret);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client(),
      await oauth.authorizationCodeGrantRequest(as, client(), auth, params, REDIRECT, verifier, insecure),
    );
    assert.equal(tokens.token_type, 'bearer');
    assert.equal(tokens.scope, 'read write');
    assert.equal(tokens.expires_in, 3600);

    const me = await callAs(tokens.access_token, '/api/org/getOrgV2');
    assert.equal(me.status, 200, me.text);
    assert.equal(me.json.orgUuid, org.orgUuid);
    const wrote = await callAs(tokens.access_token, '/api/oauth/updateApplication', { clientId, contactEmail: 'flow@example.com' });
    assert.equal(wrote.json.error, false, wrote.text);
    // The code works once.
    const again = await fetch(as.token_endpoint!, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: params.get('code')!,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        client_id: clientId,
        client_secret: clientSecret,
      }),
    });
    assert.equal(again.status, 400);
    assert.equal((await again.json()).error, 'invalid_grant');

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client(),
      await oauth.refreshTokenGrantRequest(as, client(), oauth.ClientSecretBasic(clientSecret), tokens.refresh_token!, {
        ...insecure,
        additionalParameters: { scope: 'read' },
      }),
    );
    assert.equal(refreshed.scope, 'read');
    assert.notEqual(refreshed.access_token, tokens.access_token);
    // The refreshed pair replaces the old one: its access token and its refresh token stop at once.
    assert.equal((await callAs(tokens.access_token, '/api/org/getOrgV2')).status, 403);
    const reuse = await oauth.refreshTokenGrantRequest(as, client(), auth, tokens.refresh_token!, insecure);
    assert.equal(reuse.status, 400);
    // A read-only token reads, and is refused a write.
    assert.equal((await callAs(refreshed.access_token, '/api/oauth/getAllApplicationsForOrg')).json.error, false);
    const refused = await callAs(refreshed.access_token, '/api/oauth/updateApplication', { clientId, name: 'Nope' });
    assert.equal(refused.status, 403);
    assert.match(refused.json.errorMsg, /scopes do not allow/);
    assert.equal((await admin.ok('/api/oauth/getApplicationByClientId', { clientId })).application.name, 'Flow App');
    // A refresh cannot widen the scope back.
    const widen = await oauth.refreshTokenGrantRequest(as, client(), auth, refreshed.refresh_token!, {
      ...insecure,
      additionalParameters: { scope: 'read write' },
    });
    assert.equal((await widen.json()).error, 'invalid_scope');
  });

  it('refuses a wrong PKCE verifier (and burns the code), a wrong secret, a denied consent and a wrong API key', async () => {
    const { location, state, verifier } = await consent(org.apiKey, 'allow');
    const params = oauth.validateAuthResponse(as, client(), new URL(location!), state);
    const token = (body: Record<string, string>) => fetch(as.token_endpoint!, { method: 'POST', body: new URLSearchParams(body) });
    const base = { grant_type: 'authorization_code', code: params.get('code')!, redirect_uri: REDIRECT, client_id: clientId };
    const badSecret = await token({ ...base, client_secret: 'wrong', code_verifier: oauth.generateRandomCodeVerifier() });
    assert.equal(badSecret.status, 401);
    assert.equal((await badSecret.json()).error, 'invalid_client');
    const badVerifier = await token({ ...base, client_secret: clientSecret, code_verifier: oauth.generateRandomCodeVerifier() });
    assert.equal((await badVerifier.json()).error, 'invalid_grant');
    const burnt = await token({ ...base, client_secret: clientSecret, code_verifier: verifier });
    assert.equal((await burnt.json()).error, 'invalid_grant', 'a failed attempt burns the code');

    const denied = await consent(org.apiKey, 'deny');
    const deniedUrl = new URL(denied.location!);
    assert.equal(deniedUrl.searchParams.get('error'), 'access_denied');
    assert.equal(deniedUrl.searchParams.get('state'), denied.state);

    const wrongKey = await consent('us_not-a-real-key-at-all-000000', 'allow');
    assert.equal(wrongKey.answer.status, 401);
    assert.match(await wrongKey.answer.text(), /not valid here/);

    const unknownScope = await fetch(`${as.authorization_endpoint}?client_id=${clientId}&code_challenge=${'a'.repeat(43)}&scope=admin&state=s1`, {
      redirect: 'manual',
    });
    assert.equal(unknownScope.status, 302, 'an unknown scope is told to the redirect URI, before any consent');
    const told = new URL(unknownScope.headers.get('location')!);
    assert.deepEqual([told.origin + told.pathname, told.searchParams.get('error'), told.searchParams.get('state')], [REDIRECT, 'invalid_scope', 's1']);
    const page = await fetch(`${as.authorization_endpoint}?client_id=${clientId}&redirect_uri=${encodeURIComponent('https://evil.example.com/cb')}`);
    assert.equal(page.status, 400, 'a redirect URI other than the registered one is never redirected to');
  });

  it("exchanges the code as the platform's CLI does (JSON at /oauth/token) and makes an API key with the token", async () => {
    const { location, verifier, state } = await consent(org.apiKey, 'allow');
    const code = new URL(location!).searchParams.get('code')!;
    assert.equal(new URL(location!).searchParams.get('state'), state);
    const r = await server().call(
      '/oauth/token',
      {
        grantType: 'AUTHORIZATION_CODE',
        authorizationCode: code,
        clientId,
        clientSecret,
        redirectUri: REDIRECT,
        codeVerifier: verifier,
        codeChallengeType: 'S256',
      },
      { key: '', headers: { 'x-auth-scheme': 'web2' } },
    );
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.error, false);
    assert.equal(r.json.accessTokenExpirationSec, 3600);
    const made = await callAs(r.json.accessToken, '/api/integrations/org/submitApiTokenApplication', { displayName: 'CLI', authType: 'API_TOKEN' });
    assert.equal(made.json.error, false, made.text);
    const viaKey = await server().call('/api/org/getOrgV2', {}, { key: made.json.apiKey });
    assert.equal(viaKey.json.orgUuid, org.orgUuid);
    assert.equal((await callAs(r.json.accessToken, '/api/integrations/validateToken')).json.error, false);
  });

  it('gives a partner key a partner token: partner-api-oauth-token, and not api-oauth-token', async () => {
    const partner = await server().createOrg('OAuth Partner');
    const partnerKey = await server().createPartnerKey(partner.orgUuid, [org.orgUuid]);
    const { location, verifier, state } = await consent(partnerKey, 'allow');
    const params = oauth.validateAuthResponse(as, client(), new URL(location!), state);
    assert.equal(params.get('isPartner'), 'true');
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client(),
      await oauth.authorizationCodeGrantRequest(as, client(), oauth.ClientSecretPost(clientSecret), params, REDIRECT, verifier, insecure),
    );
    const asClient = await callAs(tokens.access_token, '/api/org/getOrgV2', {}, 'partner-api-oauth-token', org.orgUuid);
    assert.equal(asClient.json.orgUuid, org.orgUuid, asClient.text);
    assert.equal((await callAs(tokens.access_token, '/api/org/getOrgV2', {}, 'api-oauth-token')).status, 403);
    assert.equal((await callAs('not-a-token', '/api/org/getOrgV2')).status, 403);
    assert.equal((await callAs('', '/api/org/getOrgV2')).status, 401);
    // Deleting the application stops its tokens at once.
    await admin.ok('/api/oauth/deleteApplication', { clientId });
    assert.equal((await callAs(tokens.access_token, '/api/org/getOrgV2', {}, 'partner-api-oauth-token', org.orgUuid)).status, 403);
  });
});

import { timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../../deps.js';
import type { Actor } from '../../../bus/write.js';
import { write } from '../../../bus/write.js';
import { newRuuid } from '../../../ids.js';
import { digestApiKey, keyRefusal, regionOfApiKey } from '../keys/api-keys.js';
import { findApiKeyByDigest } from '../store.js';
import type { ApiKeysTable } from '../tables.js';
import { secretIdentity } from './service.js';
import * as store from './store.js';
import type { OAuthApplicationsTable } from './tables.js';
import { ACCESS_TOKEN_TTL_MS, accessTokenDigest, CODE_TTL_MS, newOpaqueToken, parseScope, REFRESH_TOKEN_TTL_MS, verifierMatches } from './tokens.js';

/*
 * The authorization code flow with PKCE (RFC 6749 §4.1, RFC 7636 with S256 only): the consent page gives a code
 * to the application's redirect URI; the token endpoint exchanges it, with the PKCE verifier and the client's
 * secret, for an access token and a refresh token; a refresh replaces both (the old pair stops at once).
 * The user signs in on the consent page with one of their API keys (Gatehouse has no passwords): the token
 * acts as that key, for its organization (a partner key: the partner scheme), within the granted scopes.
 */

type FlowDeps = Pick<Deps, 'store' | 'bus' | 'clock' | 'secrets' | 'config'>;

/** An OAuth error as RFC 6749 names it (§4.1.2.1, §5.2). */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

const oauthError = (error: string, description: string) => new OAuthError(error, description);

/** An authorization request, whichever names (the catalogue's or RFC 6749's) it came with. */
export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  responseType: string;
  state: string | null;
  codeChallenge: string;
  codeChallengeMethod: string;
  scope: string | null;
}

/**
 * The application an authorization request is for, once its redirect URI is the registered one: until then an
 * error cannot be sent to the redirect URI and is shown on the page instead (RFC 6749 §4.1.2.1).
 */
export async function authorizingApplication(deps: Pick<Deps, 'store'>, request: AuthorizeRequest): Promise<OAuthApplicationsTable> {
  const app = request.clientId ? await store.findApplication(deps.store.db, request.clientId) : undefined;
  if (!app) throw oauthError('invalid_client', 'Unknown client_id');
  if (request.redirectUri && request.redirectUri !== app.redirect_uri)
    throw oauthError('invalid_request', 'redirect_uri is not the one registered for this application');
  return app;
}

/** The errors that the redirect URI is told of: response type, PKCE and scope. Answers the granted scope. */
export function checkAuthorizeRequest(request: AuthorizeRequest): string {
  if (request.responseType !== 'code') throw oauthError('unsupported_response_type', 'Only response_type=code is supported');
  if (!request.codeChallenge) throw oauthError('invalid_request', 'code_challenge is required (PKCE)');
  if (request.codeChallengeMethod !== 'S256') throw oauthError('invalid_request', 'code_challenge_method must be S256');
  if (!/^[A-Za-z0-9_-]{43}$/.test(request.codeChallenge)) throw oauthError('invalid_request', 'code_challenge must be a base64url SHA-256 digest');
  const scope = parseScope(request.scope);
  if (scope === null) throw oauthError('invalid_scope', 'Unknown scope: the scopes are read and write');
  return scope;
}

/** The key a user signs in with on the consent page: of this region, known, and working. */
export async function consentKey(deps: Pick<Deps, 'store' | 'clock' | 'config'>, apiKey: string): Promise<ApiKeysTable | null> {
  if (!apiKey || regionOfApiKey(apiKey) !== deps.config.region) return null;
  const key = await findApiKeyByDigest(deps.store.db, digestApiKey(apiKey));
  if (!key || key.region !== deps.config.region || keyRefusal(key, deps.clock.now())) return null;
  return key;
}

const actorOf = (key: ApiKeysTable, operation: string): Actor => ({
  orgUuid: key.org_uuid,
  userUuid: key.user_uuid,
  apiKeyId: key.id,
  partnerOrgUuid: key.kind === 'partner' ? key.org_uuid : null,
  operation,
});

/** Consent given: a single-use code for the application, bound to the PKCE challenge, the key and the scope. */
export async function issueCode(deps: FlowDeps, app: OAuthApplicationsTable, request: AuthorizeRequest, key: ApiKeysTable, scope: string): Promise<string> {
  const code = newOpaqueToken();
  await write(deps, actorOf(key, 'authorize'), async (w) => {
    await store.deleteExpiredCodes(w.tx, w.nowMs);
    await store.insertCode(w.tx, {
      digest: accessTokenDigest(code),
      client_id: app.client_id,
      api_key_id: key.id,
      redirect_uri: app.redirect_uri,
      code_challenge: request.codeChallenge,
      scope,
      expires_at_ms: w.nowMs + CODE_TTL_MS,
    });
    w.audit({ entity: 'OAUTH_CODE', entityUuid: app.client_id, action: 'CREATE' });
  });
  return code;
}

/** A token request, whichever names (the platform CLI's JSON or RFC 6749's form) it came with. */
export interface TokenRequest {
  grantType: 'authorization_code' | 'refresh_token' | string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  code: string | undefined;
  redirectUri: string | undefined;
  codeVerifier: string | undefined;
  codeChallengeType: string | undefined;
  refreshToken: string | undefined;
  scope: string | undefined;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresInSec: number;
  scope: string;
  /** Whether the token acts as a partner key (the partner-api-oauth-token scheme). */
  partner: boolean;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The client, authenticated by its secret (client_secret_basic or _post, or the CLI's clientSecret). */
async function authenticatedClient(deps: Pick<Deps, 'store' | 'secrets'>, request: TokenRequest): Promise<OAuthApplicationsTable> {
  const app = request.clientId ? await store.findApplication(deps.store.db, request.clientId) : undefined;
  if (!app || !request.clientSecret) throw oauthError('invalid_client', 'Unknown client or wrong client secret');
  const secret = deps.secrets.open(app.client_secret_sealed, secretIdentity(app.client_id));
  if (!sameText(secret, request.clientSecret)) throw oauthError('invalid_client', 'Unknown client or wrong client secret');
  return app;
}

/** The token endpoint: an authorization code (with its PKCE verifier) or a refresh token, for a new token pair. */
export async function exchangeToken(deps: FlowDeps, request: TokenRequest): Promise<IssuedTokens> {
  if (request.grantType !== 'authorization_code' && request.grantType !== 'refresh_token')
    throw oauthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  const app = await authenticatedClient(deps, request);
  if (request.grantType === 'authorization_code') return redeemCode(deps, app, request);
  return refresh(deps, app, request);
}

async function workingKey(deps: Pick<Deps, 'store' | 'clock'>, keyId: string): Promise<ApiKeysTable> {
  const key = await store.findKeyById(deps.store.db, keyId);
  if (!key || keyRefusal(key, deps.clock.now())) throw oauthError('invalid_grant', 'The API key the grant was given with no longer works');
  return key;
}

async function redeemCode(deps: FlowDeps, app: OAuthApplicationsTable, request: TokenRequest): Promise<IssuedTokens> {
  if (request.codeChallengeType && request.codeChallengeType !== 'S256') throw oauthError('invalid_request', 'codeChallengeType must be S256');
  if (!request.code) throw oauthError('invalid_request', 'code is required');
  // Taken in its own transaction, so that a failed attempt (a wrong verifier) burns the code as well.
  const code = await deps.store.transaction((tx) => store.takeCode(tx, accessTokenDigest(request.code!)));
  if (!code || code.client_id !== app.client_id || Number(code.expires_at_ms) <= deps.clock.now())
    throw oauthError('invalid_grant', 'Unknown, used or expired authorization code');
  if (request.redirectUri !== undefined && request.redirectUri !== code.redirect_uri)
    throw oauthError('invalid_grant', 'redirect_uri differs from the authorization request');
  if (!verifierMatches(request.codeVerifier, code.code_challenge)) throw oauthError('invalid_grant', 'code_verifier does not match the code_challenge');
  const key = await workingKey(deps, code.api_key_id);
  return issueTokens(deps, app, key, code.scope, null);
}

async function refresh(deps: FlowDeps, app: OAuthApplicationsTable, request: TokenRequest): Promise<IssuedTokens> {
  if (!request.refreshToken) throw oauthError('invalid_request', 'refresh_token is required');
  const old = await store.findTokenByRefresh(deps.store.db, accessTokenDigest(request.refreshToken));
  if (!old || old.client_id !== app.client_id || old.revoked_at_ms !== null || Number(old.refresh_expires_at_ms) <= deps.clock.now())
    throw oauthError('invalid_grant', 'Unknown, used or expired refresh token');
  // A refresh may narrow the scope, never widen it (RFC 6749 §6).
  let scope = old.scope;
  if (request.scope) {
    const asked = parseScope(request.scope);
    if (asked === null || !asked.split(' ').every((s) => old.scope.split(' ').includes(s)))
      throw oauthError('invalid_scope', 'A refresh cannot widen the scope');
    scope = asked;
  }
  const key = await workingKey(deps, old.api_key_id);
  return issueTokens(deps, app, key, scope, old.id);
}

/** A new token pair, in one write that also revokes the pair it replaces (a refresh token works once). */
async function issueTokens(deps: FlowDeps, app: OAuthApplicationsTable, key: ApiKeysTable, scope: string, replaces: string | null): Promise<IssuedTokens> {
  const accessToken = newOpaqueToken();
  const refreshToken = newOpaqueToken();
  await write(deps, actorOf(key, 'oauth.token'), async (w) => {
    if (replaces && !(await store.revokeToken(w.tx, replaces, w.nowMs))) throw oauthError('invalid_grant', 'Unknown, used or expired refresh token');
    const id = newRuuid();
    await store.insertToken(w.tx, {
      id,
      client_id: app.client_id,
      api_key_id: key.id,
      access_digest: accessTokenDigest(accessToken),
      refresh_digest: accessTokenDigest(refreshToken),
      scope,
      access_expires_at_ms: w.nowMs + ACCESS_TOKEN_TTL_MS,
      refresh_expires_at_ms: w.nowMs + REFRESH_TOKEN_TTL_MS,
      revoked_at_ms: null,
    });
    w.audit({ entity: 'OAUTH_TOKEN', entityUuid: id, action: replaces ? 'REFRESH' : 'CREATE' });
  });
  return { accessToken, refreshToken, expiresInSec: ACCESS_TOKEN_TTL_MS / 1000, scope, partner: key.kind === 'partner' };
}

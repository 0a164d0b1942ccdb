import { timingSafeEqual } from 'node:crypto';
import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { digestApiKey, keyRefusal, regionOfApiKey } from './api-keys.js';
import * as store from '../store.js';
import type { ApiKeysTable } from '../tables.js';
import { accessTokenDigest, tokenRefusal } from '../oauth/tokens.js';
import * as oauthStore from '../oauth/store.js';

export const AUTH_SCHEMES = ['api-token', 'api', 'partner-api-token', 'partner-api', 'api-oauth-token', 'partner-api-oauth-token'] as const;
export type AuthScheme = (typeof AUTH_SCHEMES)[number];

/** What a caller presents: the x-auth headers, and on a TLS port the client certificate. */
export interface Credentials {
  scheme: string | undefined;
  apiKey: string | undefined;
  orgHeader: string | undefined;
  /** The OAuth access token of the two OAuth schemes (x-auth-access-token, or an `Authorization: Bearer`). */
  accessToken?: string | undefined;
  /** SHA-256 fingerprint of the verified-by-fingerprint client certificate, when the connection carried one. */
  clientCertFingerprint: string | null;
}

const isPartnerScheme = (s: AuthScheme) => s === 'partner-api-token' || s === 'partner-api' || s === 'partner-api-oauth-token';
const isOAuthScheme = (s: AuthScheme) => s === 'api-oauth-token' || s === 'partner-api-oauth-token';
const isCertificateScheme = (s: AuthScheme) => s === 'api' || s === 'partner-api';

function sameFingerprint(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/**
 * Decides who is calling, as the platform does: no key is 401 `Unauthenticated`; a key that is unknown,
 * revoked, expired, of the other region, of the other scheme family, or without its certificate is 403
 * `Invalid api key`; a partner call without a grant for `x-auth-org`, or a standard key naming another
 * organization, is 403 `Access Denied`. A partner operation (`partnerHome`) without `x-auth-org`, or with one that
 * names no client of the partner, acts for the partner organization itself.
 *
 * Answers at once (no promise) when the key is in the key cache and no partner grant must be read: the REST
 * edge's hot path, where a promise and its microtask per request are a measurable share of a point lookup.
 * A refusal is thrown (synchronously or as a rejection).
 */
export function authenticate(
  deps: Pick<Deps, 'store' | 'config' | 'clock' | 'keyCache'>,
  credentials: Credentials,
  call: { requestId: string; operation: string; partnerHome?: boolean },
): CallerContext | Promise<CallerContext> {
  const scheme = (credentials.scheme || 'api-token') as AuthScheme;
  if (isOAuthScheme(scheme)) return oauthCaller(deps, credentials, scheme, call);
  const { apiKey } = credentials;
  if (!apiKey) throw fail('UNAUTHENTICATED');
  if (!AUTH_SCHEMES.includes(scheme)) throw fail('UNSUPPORTED_AUTH_SCHEME', String(credentials.scheme).slice(0, 40));
  if (regionOfApiKey(apiKey) !== deps.config.region) throw fail('INVALID_API_KEY');
  const digest = digestApiKey(apiKey);
  const nowMs = deps.clock.now();
  const cached = deps.keyCache.get(digest, nowMs);
  if (cached) return callerOf(deps, cached, scheme, credentials, call, nowMs);
  return store.findApiKeyByDigest(deps.store.db, digest).then((key) => {
    if (key) deps.keyCache.set(digest, key, nowMs);
    return callerOf(deps, key, scheme, credentials, call, nowMs);
  });
}

/**
 * The caller of an OAuth scheme: the access token (never cached: a refresh or a revocation of the token acts at
 * once) names the API key it acts as, which must still work and be of the scheme's family; its scopes limit
 * the operations it may call (src/http/caller-hook.ts).
 */
async function oauthCaller(
  deps: Pick<Deps, 'store' | 'config' | 'clock'>,
  credentials: Credentials,
  scheme: AuthScheme,
  call: { requestId: string; operation: string; partnerHome?: boolean },
): Promise<CallerContext> {
  if (!credentials.accessToken) throw fail('UNAUTHENTICATED');
  const found = await oauthStore.findAccessToken(deps.store.db, accessTokenDigest(credentials.accessToken));
  const nowMs = deps.clock.now();
  if (!found || tokenRefusal(found.token, nowMs)) throw fail('INVALID_API_KEY');
  const keyScheme = scheme === 'api-oauth-token' ? 'api-token' : 'partner-api-token';
  return callerOf(deps, found.key, keyScheme, credentials, call, nowMs, found.token.scope.split(' '));
}

/**
 * One literal, one hidden class for every caller: on Node.js 20 `{ ...base, orgUuid }` in optimized code made
 * a new hidden class per request, at about 10 µs each (docs/performance.md).
 */
function caller(
  key: ApiKeysTable,
  call: { requestId: string; operation: string },
  orgUuid: string,
  partnerOrgUuid: string | null,
  scopes: readonly string[] | null,
): CallerContext {
  return {
    userUuid: key.user_uuid,
    apiKeyId: key.id,
    keyKind: key.kind,
    requestId: call.requestId,
    operation: call.operation,
    orgUuid,
    partnerOrgUuid,
    scopes,
  };
}

/** The caller a found (or not found) key makes, given the rest of the credentials. */
function callerOf(
  deps: Pick<Deps, 'store' | 'config'>,
  key: ApiKeysTable | undefined,
  scheme: AuthScheme,
  credentials: Credentials,
  call: { requestId: string; operation: string; partnerHome?: boolean },
  nowMs: number,
  scopes: readonly string[] | null = null,
): CallerContext | Promise<CallerContext> {
  const { orgHeader } = credentials;
  if (!key || keyRefusal(key, nowMs) || key.region !== deps.config.region) throw fail('INVALID_API_KEY');
  if (isPartnerScheme(scheme) !== (key.kind === 'partner')) throw fail('INVALID_API_KEY');
  if (isCertificateScheme(scheme)) {
    const presented = credentials.clientCertFingerprint;
    if (!presented || !key.cert_fingerprint || !sameFingerprint(presented, key.cert_fingerprint)) throw fail('INVALID_API_KEY');
  }
  if (!isPartnerScheme(scheme)) {
    if (orgHeader && orgHeader !== key.org_uuid) throw fail('ACCESS_DENIED');
    return caller(key, call, key.org_uuid, null, scopes);
  }
  const home = caller(key, call, key.org_uuid, key.org_uuid, scopes);
  if (!orgHeader && call.partnerHome) return home;
  if (!orgHeader) throw fail('ACCESS_DENIED');
  const partnerCaller = caller(key, call, orgHeader, key.org_uuid, scopes);
  if (orgHeader === key.org_uuid) return partnerCaller;
  return store.hasPartnerGrant(deps.store.db, key.org_uuid, orgHeader).then((granted) => {
    if (granted) return partnerCaller;
    // The platform's CLI sends its `--partner-org` name as x-auth-org to getPartnerClientsV2, to resolve it.
    if (call.partnerHome) return home;
    throw fail('ACCESS_DENIED');
  });
}

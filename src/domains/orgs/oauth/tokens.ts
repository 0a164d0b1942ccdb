import { createHash, hash, timingSafeEqual } from 'node:crypto';
import { randomToken } from '../../../ids.js';
import type { OperationPermission } from '../../../edge/rights.js';
import type { OAuthTokensTable } from './tables.js';

/*
 * The pieces of the OAuth flow that are plain functions: token and code digests, PKCE (S256 only) and scopes.
 * Codes and tokens are opaque random strings; only their SHA-256 digests are stored.
 */

/** What a token may call: `read` the operations that only read (and who-am-I ones); `write` every operation. */
export const OAUTH_SCOPES = ['read', 'write'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];
export const DEFAULT_SCOPE = OAUTH_SCOPES.join(' ');

export const CODE_TTL_MS = 10 * 60_000;
export const ACCESS_TOKEN_TTL_MS = 60 * 60_000;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60_000;

export const newOpaqueToken = (): string => randomToken(256);
export const accessTokenDigest = (token: string): string => hash('sha256', token, 'hex');

/** The scopes a request names (space-separated), checked; none named: every scope. Null for an unknown scope. */
export function parseScope(requested: string | null | undefined): string | null {
  const names = (requested ?? '').split(' ').filter(Boolean);
  if (names.length === 0) return DEFAULT_SCOPE;
  if (!names.every((n) => (OAUTH_SCOPES as readonly string[]).includes(n))) return null;
  return OAUTH_SCOPES.filter((s) => names.includes(s)).join(' ');
}

/** Whether a token of these scopes may call an operation of this permission declaration. */
export function scopesAllow(scopes: readonly string[], permission: OperationPermission | undefined): boolean {
  if (scopes.includes('write')) return true;
  return scopes.includes('read') && (!permission || permission.kind !== 'write');
}

/** The S256 challenge of a PKCE verifier: base64url(SHA-256(verifier)), as RFC 7636 has it. */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** RFC 7636: a verifier is 43 to 128 characters of [A-Za-z0-9-._~], and its S256 must be the challenge. */
export function verifierMatches(verifier: string | undefined, challenge: string): boolean {
  if (!verifier || !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  const a = Buffer.from(s256(verifier));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Why a token no longer works at `nowMs` (for its access token), or null while it works. */
export function tokenRefusal(token: Pick<OAuthTokensTable, 'revoked_at_ms' | 'access_expires_at_ms'>, nowMs: number): 'revoked' | 'expired' | null {
  if (token.revoked_at_ms !== null) return 'revoked';
  return token.access_expires_at_ms <= nowMs ? 'expired' : null;
}

import type { Clock } from '../clock.js';
import { fail } from '../errors.js';
import type { SecretBox } from '../secrets.js';

/**
 * Federated session tokens (`org/generateFederatedSessionToken`): what a browser presents to the media host
 * as the `x-auth-ft` header or cookie instead of an API key, as the platform's web SDK does. A token is the
 * organization and an expiry, sealed with the server's secret key (AES-256-GCM): it cannot be forged or
 * altered, and nothing is stored.
 */
const PURPOSE = 'federated-session-token';
export const FEDERATED_TOKEN_TTL = { defaultSec: 3600, maxSec: 7 * 24 * 3600 };

export function issueFederatedToken(deps: { secrets: SecretBox; clock: Clock }, orgUuid: string, durationSec?: number | null): string {
  const ttl = Math.min(durationSec ?? FEDERATED_TOKEN_TTL.defaultSec, FEDERATED_TOKEN_TTL.maxSec);
  return deps.secrets.seal(JSON.stringify({ o: orgUuid, e: deps.clock.now() + ttl * 1000 }), PURPOSE);
}

/** The organization a token is for; throws INVALID_MEDIA_TOKEN for a token that is not ours or has expired. */
export function verifyFederatedToken(deps: { secrets: SecretBox; clock: Clock }, token: string): string {
  let claims: { o?: unknown; e?: unknown };
  try {
    claims = JSON.parse(deps.secrets.open(token, PURPOSE)) as typeof claims;
  } catch {
    throw fail('INVALID_MEDIA_TOKEN');
  }
  if (typeof claims.o !== 'string' || typeof claims.e !== 'number' || claims.e <= deps.clock.now()) throw fail('INVALID_MEDIA_TOKEN');
  return claims.o;
}

/** The session cookies that carry a federated token as `RFT:<token>` (the platform's web and example clients). */
const SESSION_COOKIES = ['RSESSIONID', 'RHOMBUS_SESSIONID'];

/**
 * The federated token of a Cookie header, if any: an `x-auth-ft` cookie, or an `RSESSIONID` or
 * `RHOMBUS_SESSIONID` cookie whose value is `RFT:<token>`.
 */
export function federatedTokenCookie(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    let value: string;
    try {
      value = decodeURIComponent(
        part
          .slice(eq + 1)
          .trim()
          .replace(/^"(.*)"$/, '$1'),
      );
    } catch {
      continue;
    }
    if (name === 'x-auth-ft') return value;
    if (SESSION_COOKIES.includes(name) && value.startsWith('RFT:')) return value.slice(4);
  }
  return undefined;
}

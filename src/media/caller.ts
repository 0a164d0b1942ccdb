import type { CallerContext } from '../context.js';
import type { Deps } from '../deps.js';
import { type GatehouseError, type ErrorCode } from '../errors.js';
import { authenticate } from '../domains/orgs/keys/authenticate.js';
import { federatedTokenCookie, verifyFederatedToken } from '../footage/federated-token.js';

/** What a media request presents: its headers and its query parameters, by name (first value). */
export interface MediaCredentials {
  header(name: string): string | undefined;
  query(name: string): string | undefined;
}

/**
 * Who asks the media host, for an HTTP request or a WebSocket handshake alike. A browser presents a federated
 * session token (org/generateFederatedSessionToken) instead of a key: as the x-auth-ft header, as the query
 * parameters x-auth-scheme=federated-token&x-auth-ft= (on the manifest and every segment, and on the realtime
 * sockets), or as a cookie (x-auth-ft, or RSESSIONID / RHOMBUS_SESSIONID holding RFT:<token>). Anything else
 * presents the REST API's key headers.
 */
export async function mediaCaller(deps: Deps, presented: MediaCredentials, meta: { requestId: string; operation: string }): Promise<CallerContext> {
  const federated = presented.header('x-auth-ft') ?? presented.query('x-auth-ft') ?? federatedTokenCookie(presented.header('cookie'));
  if (federated !== undefined) {
    const orgUuid = verifyFederatedToken(deps, federated);
    return { orgUuid, userUuid: null, apiKeyId: null, partnerOrgUuid: null, keyKind: 'standard', ...meta };
  }
  return authenticate(
    deps,
    {
      scheme: presented.header('x-auth-scheme'),
      apiKey: presented.header('x-auth-apikey'),
      orgHeader: presented.header('x-auth-org'),
      clientCertFingerprint: null,
    },
    meta,
  );
}

/**
 * On the media host a missing record is a 404 (another organization's media included, answered the same), not
 * the REST API's HTTP 200 with `error: true`; the other errors keep their status.
 */
const MEDIA_STATUS: Partial<Record<ErrorCode, number>> = { NOT_FOUND: 404, CONFLICT: 409, INVALID_VALUE: 400, NOT_ALLOWED: 403 };
export const mediaStatus = (error: GatehouseError): number => MEDIA_STATUS[error.code] ?? error.status;

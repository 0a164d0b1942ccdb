import type { Actor } from './bus/write.js';

/** What an API key is: a customer's standard key, a partner's key, or an internal one. */
export type ApiKeyKind = 'standard' | 'partner' | 'internal';

/**
 * The authenticated caller of an operation: the organization it acts for, the key and user behind it,
 * and the partner organization when a partner key acts for a client. Services take it as `ctx`.
 */
export interface CallerContext extends Actor {
  keyKind: ApiKeyKind;
  requestId: string;
  /** The scopes of an OAuth access token, which limit what it may call; null or absent: an API key's full reach. */
  scopes?: readonly string[] | null;
}

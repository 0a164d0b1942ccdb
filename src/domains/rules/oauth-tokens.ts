import { sendOutbound, type OutboundPolicy } from '../../net/outbound.js';

/**
 * OAuth 2.0 client-credentials tokens for webhook deliveries, cached per (token URL, client, scope) until
 * shortly before they expire. One cache per running instance (keyed by its deps), so tests and instances
 * never share tokens.
 */
export interface ClientCredentials {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scope: string | null;
}

/** A token is renewed this long before the expiry its endpoint announced. */
export const EXPIRY_MARGIN_MS = 30_000;
const DEFAULT_LIFETIME_SEC = 300;

export class TokenCache {
  private readonly tokens = new Map<string, { token: string; expiresAtMs: number }>();
  constructor(
    private readonly now: () => number,
    private readonly policy: OutboundPolicy,
  ) {}

  /** A valid token: the cached one, or a fresh one from the endpoint (always fresh with `fresh`). */
  async token(c: ClientCredentials, fresh = false): Promise<string> {
    const key = JSON.stringify([c.tokenUrl, c.clientId, c.scope]);
    const cached = this.tokens.get(key);
    if (!fresh && cached && cached.expiresAtMs - EXPIRY_MARGIN_MS > this.now()) return cached.token;
    const response = await sendOutbound(
      {
        method: 'POST',
        url: c.tokenUrl,
        headers: {
          accept: 'application/json',
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(c.clientId)}:${encodeURIComponent(c.clientSecret)}`).toString('base64')}`,
        },
        form: { grant_type: 'client_credentials', ...(c.scope ? { scope: c.scope } : {}) },
        timeoutMs: 10_000,
      },
      this.policy,
    );
    if (response.status < 200 || response.status >= 300) throw new Error(`token endpoint answered ${response.status}`);
    let body: { access_token?: unknown; expires_in?: unknown };
    try {
      body = JSON.parse(response.body);
    } catch {
      throw new Error('token endpoint answered no JSON');
    }
    if (typeof body.access_token !== 'string' || !body.access_token) throw new Error('token endpoint answered no access_token');
    const lifetimeSec = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : DEFAULT_LIFETIME_SEC;
    this.tokens.set(key, { token: body.access_token, expiresAtMs: this.now() + lifetimeSec * 1000 });
    return body.access_token;
  }
}

const caches = new WeakMap<object, TokenCache>();

/** The token cache of an instance (its deps object). */
export function tokenCacheOf(owner: object, now: () => number, policy: OutboundPolicy): TokenCache {
  let cache = caches.get(owner);
  if (!cache) caches.set(owner, (cache = new TokenCache(now, policy)));
  return cache;
}

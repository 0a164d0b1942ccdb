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
  constructor(private readonly now: () => number) {}

  /** A valid token: the cached one, or a fresh one from the endpoint (always fresh with `fresh`). */
  async token(c: ClientCredentials, fresh = false): Promise<string> {
    const key = JSON.stringify([c.tokenUrl, c.clientId, c.scope]);
    const cached = this.tokens.get(key);
    if (!fresh && cached && cached.expiresAtMs - EXPIRY_MARGIN_MS > this.now()) return cached.token;
    const form = new URLSearchParams({ grant_type: 'client_credentials', ...(c.scope ? { scope: c.scope } : {}) });
    const response = await fetch(c.tokenUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(`${encodeURIComponent(c.clientId)}:${encodeURIComponent(c.clientSecret)}`).toString('base64')}`,
      },
      body: form.toString(),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`token endpoint answered ${response.status}`);
    const body = (await response.json()) as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== 'string' || !body.access_token) throw new Error('token endpoint answered no access_token');
    const lifetimeSec = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : DEFAULT_LIFETIME_SEC;
    this.tokens.set(key, { token: body.access_token, expiresAtMs: this.now() + lifetimeSec * 1000 });
    return body.access_token;
  }
}

const caches = new WeakMap<object, TokenCache>();

/** The token cache of an instance (its deps object). */
export function tokenCacheOf(owner: object, now: () => number): TokenCache {
  let cache = caches.get(owner);
  if (!cache) caches.set(owner, (cache = new TokenCache(now)));
  return cache;
}

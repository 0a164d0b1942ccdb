import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): the secret is `whsec_` + base-64 key; a
 * delivery carries `webhook-id` (the same on every retry), `webhook-timestamp` (epoch seconds of the attempt)
 * and `webhook-signature` = `v1,` + base-64 HMAC-SHA256 of `${id}.${timestamp}.${body}` under the key.
 * A secret without the prefix (one a user chose, e.g. the classic webhook's) is the key as UTF-8 bytes.
 */
export const SECRET_PREFIX = 'whsec_';

export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

export function signatureHeaders(secret: string, id: string, timestampSec: number, body: string): Record<string, string> {
  const key = secret.startsWith(SECRET_PREFIX) ? Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
  const signature = createHmac('sha256', key).update(`${id}.${timestampSec}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestampSec), 'webhook-signature': `v1,${signature}` };
}

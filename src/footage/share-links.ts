import { randomToken } from '../ids.js';
import { digestSecret, secretMatches } from '../secrets.js';

/**
 * Share links: paths on the media host that answer without an API key, by a secret token, until they expire
 * (then 410) or are deleted (404), and only with their password when one is set (401 without it or with a wrong
 * one). Shared clip and timelapse groups, shared live video streams and shared video walls keep these columns;
 * this is the one place that decides whether a link opens. The password is kept as a salted scrypt digest.
 */
export interface ShareLinkRow {
  share_token: string;
  /** null: the link never expires. */
  expires_at_ms: number | null;
  password_digest: string | null;
}

export type ShareRefusal = 'missing' | 'expired' | 'password';
export type ShareAccess<T> = { kind: ShareRefusal } | { kind: 'open'; row: T };

/** A new link's secret token. */
export const newShareToken = (): string => randomToken();

/** The stored form of a link's password: null for none (an empty password is none). */
export const sharePasswordDigest = (password: string | null | undefined): string | null => (password ? digestSecret(password) : null);

/** Whether the link opens for this password at `nowMs`, and why not. */
export function shareAccess<T extends ShareLinkRow>(row: T | undefined, nowMs: number, password: string | undefined): ShareAccess<T> {
  if (!row) return { kind: 'missing' };
  if (row.expires_at_ms !== null && nowMs >= row.expires_at_ms) return { kind: 'expired' };
  if (row.password_digest && !(password && secretMatches(password, row.password_digest))) return { kind: 'password' };
  return { kind: 'open', row };
}

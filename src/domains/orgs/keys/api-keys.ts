import { hash, X509Certificate } from 'node:crypto';
import { randomToken } from '../../../ids.js';
import type { Region } from '../../../config.js';
import type { ApiKeysTable } from '../tables.js';

/** A new API key: the region, an underscore, and 192 random bits. Shown once; only its digest is stored. */
export function generateApiKey(region: Region): string {
  return `${region}_${randomToken(192)}`;
}

export function digestApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** The region a key was issued for, read from its prefix, or null for a key of no known form. */
export function regionOfApiKey(key: string): string | null {
  const match = /^([a-z]{2})_[A-Za-z0-9_-]{16,}$/.exec(key);
  return match ? match[1] : null;
}

export type KeyRefusal = 'revoked' | 'expired';

/** Why a known key no longer works at `nowMs`, or null while it works. */
export function keyRefusal(key: Pick<ApiKeysTable, 'revoked_at_ms' | 'expires_at_ms'>, nowMs: number): KeyRefusal | null {
  if (key.revoked_at_ms !== null) return 'revoked';
  if (key.expires_at_ms !== null && key.expires_at_ms <= nowMs) return 'expired';
  return null;
}

/** SHA-256 fingerprint (lowercase hex, no colons) of a PEM or DER certificate. */
export function certificateFingerprint(certificate: string | Buffer): string {
  return new X509Certificate(certificate).fingerprint256.replaceAll(':', '').toLowerCase();
}

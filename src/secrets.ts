import { createCipheriv, createDecipheriv, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/**
 * Encrypts secrets at rest with AES-256-GCM. The record's identity (for example
 * `integration:<org>:badge:apiToken`) is bound in as associated data, so a ciphertext copied onto
 * another record does not decrypt.
 */
export interface SecretBox {
  seal(plaintext: string, identity: string): string;
  open(sealed: string, identity: string): string;
}

const VERSION = 'v1';

export function parseSecretKey(value: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32) throw new Error('GATEHOUSE_SECRET_KEY must be 32 bytes, as 64 hex digits or base64');
  return key;
}

export function createSecretBox(key: Buffer): SecretBox {
  return {
    seal(plaintext, identity) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(identity, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    open(sealed, identity) {
      const [version, iv, body, tag] = sealed.split('.');
      if (version !== VERSION || !iv || body === undefined || !tag) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(identity, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** How a secret is shown: never the value, at most its last four characters. */
export function maskSecret(value: string | null | undefined): string | null {
  if (!value) return null;
  return value.length <= 8 ? '****' : `****${value.slice(-4)}`;
}

/**
 * Short secrets that are only ever checked, never shown again (monitoring PINs, share-link passwords), are kept
 * as a salted scrypt digest, never as text: `scrypt$<salt>$<digest>`.
 */
export function digestSecret(secret: string): string {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64url')}$${scryptSync(secret, salt, 32).toString('base64url')}`;
}

export function secretMatches(secret: string, stored: string | null): boolean {
  if (!stored) return false;
  const [scheme, salt, digest] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !digest) return false;
  const expected = Buffer.from(digest, 'base64url');
  const actual = scryptSync(secret, Buffer.from(salt, 'base64url'), expected.length);
  return timingSafeEqual(actual, expected);
}

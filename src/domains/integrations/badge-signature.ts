import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * How the badge system signs what it posts to Gatehouse: `x-badge-timestamp` is the time of sending in epoch
 * seconds, and `x-badge-signature` is `sha256=` and the hex HMAC-SHA256, keyed with webhookSignatureSecret,
 * of `<timestamp>.<raw body>`. The timestamp is inside the signature, so a captured post cannot be
 * re-dated; a post outside the window is refused, and one inside it is accepted once.
 */
export const TIMESTAMP_HEADER = 'x-badge-timestamp';
export const SIGNATURE_HEADER = 'x-badge-signature';
export const REPLAY_WINDOW_MS = 5 * 60_000;

export function signBadgePost(secret: string, timestampSec: number, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestampSec}.`).update(rawBody).digest('hex')}`;
}

export type SignatureVerdict = { ok: true; digest: string } | { ok: false; reason: string };

/** Checks a post's timestamp and signature; on success answers the signature's digest, to remember against replays. */
export function verifyBadgePost(secret: string, headers: { timestamp?: string; signature?: string }, rawBody: Buffer, nowMs: number): SignatureVerdict {
  if (!headers.timestamp || !headers.signature) return { ok: false, reason: 'unsigned' };
  if (!/^\d{1,12}$/.test(headers.timestamp)) return { ok: false, reason: 'malformed timestamp' };
  const timestampSec = Number(headers.timestamp);
  if (Math.abs(nowMs - timestampSec * 1000) > REPLAY_WINDOW_MS) return { ok: false, reason: 'timestamp outside the replay window' };
  const expected = Buffer.from(signBadgePost(secret, timestampSec, rawBody));
  const presented = Buffer.from(headers.signature);
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return { ok: false, reason: 'bad signature' };
  return { ok: true, digest: expected.toString('utf8').slice('sha256='.length) };
}

import pino from 'pino';

export type Logger = pino.Logger;

/** Paths that must never reach a log line: keys, tokens, secrets and authorization headers. */
export const REDACTED_PATHS = [
  'req.headers["x-auth-apikey"]',
  'req.headers.authorization',
  'apiKey',
  '*.apiKey',
  '*.apiToken',
  '*.platformToken',
  '*.webhookSignatureSecret',
  '*.oauthClientSecret',
  '*.password',
];

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '****' } });
}

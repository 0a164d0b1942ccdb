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

/** A logger to stdout, or to `destination` (a test captures the lines to check that no secret is in them). */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '****' } };
  return destination ? pino(options, destination) : pino(options);
}

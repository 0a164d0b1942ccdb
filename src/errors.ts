/**
 * The one catalogue of errors. Services throw `fail(CODE, ...)`; the HTTP edge turns an error into the
 * envelope `{error: true, errorMsg}` with the entry's status, and the STOMP edge into an ERROR frame.
 * Every code is documented in docs/errors.md (a test checks it); a retired code is never reused.
 * Domain failures answer HTTP 200, as the platform does: the failure is carried in the body.
 */
export const errorCatalogue = {
  UNAUTHENTICATED: { status: 401, message: () => 'Unauthenticated' },
  INVALID_API_KEY: { status: 403, message: () => 'Invalid api key' },
  UNSUPPORTED_AUTH_SCHEME: { status: 401, message: (scheme: string) => `Unsupported x-auth-scheme "${scheme}"` },
  ACCESS_DENIED: { status: 403, message: () => 'Access Denied' },
  PERMISSION_DENIED: { status: 403, message: () => 'Your API key role does not have proper permission' },
  INSUFFICIENT_SCOPE: { status: 403, message: () => "The OAuth access token's scopes do not allow this operation" },
  ADMIN_TOKEN_REQUIRED: { status: 401, message: () => 'A valid admin token is required (Authorization: Bearer <token>)' },
  INVALID_SIGNATURE: { status: 401, message: () => 'Missing, invalid, expired or replayed webhook signature' },
  INVALID_MEDIA_TOKEN: { status: 401, message: () => 'Invalid or expired federated session token' },
  INVALID_REQUEST: { status: 400, message: (detail: string) => detail },
  NOT_FOUND: { status: 200, message: (what: string) => `${what} not found` },
  INVALID_VALUE: { status: 200, message: (detail: string) => detail },
  CONFLICT: { status: 200, message: (detail: string) => detail },
  NOT_ALLOWED: { status: 200, message: (detail: string) => detail },
  UNAVAILABLE: { status: 503, message: (what: string) => `${what} is unavailable` },
} as const satisfies Record<string, { status: number; message: (...args: never[]) => string }>;

export type ErrorCode = keyof typeof errorCatalogue;

export class GatehouseError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'GatehouseError';
  }
}

export function fail<C extends ErrorCode>(code: C, ...args: Parameters<(typeof errorCatalogue)[C]['message']>): GatehouseError {
  const entry = errorCatalogue[code];
  return new GatehouseError(code, entry.status, (entry.message as (...a: unknown[]) => string)(...args));
}

export function isGatehouseError(e: unknown): e is GatehouseError {
  return e instanceof GatehouseError;
}

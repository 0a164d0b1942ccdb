import type { TLSSocket } from 'node:tls';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CallerContext } from '../context.js';
import type { Deps } from '../deps.js';
import { authenticate } from '../domains/orgs/keys/authenticate.js';
import { scopesAllow } from '../domains/orgs/oauth/tokens.js';
import { fail, isGatehouseError } from '../errors.js';
import { permissionCheck } from './permissions.js';
import { verifyFederatedToken } from '../footage/federated-token.js';
import { TOO_MANY_REQUESTS, type RequestLimits } from '../edge/rate-limit.js';

type Done = (error?: Error) => void;

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The OAuth access token of the OAuth schemes: x-auth-access-token as the platform's CLI sends it, or a bearer token. */
function accessToken(request: FastifyRequest): string | undefined {
  const given = header(request, 'x-auth-access-token');
  if (given) return given;
  const authorization = header(request, 'authorization');
  return authorization && /^bearer /i.test(authorization) ? authorization.slice(7).trim() : undefined;
}

function clientCertificateFingerprint(socket: unknown): string | null {
  const tls = socket as TLSSocket;
  if (typeof tls.getPeerCertificate !== 'function') return null;
  const cert = tls.getPeerCertificate();
  return cert && cert.fingerprint256 ? cert.fingerprint256.replaceAll(':', '').toLowerCase() : null;
}

/** 429 as the platform answers it: plain text, with the seconds to wait. */
export function tooManyRequests(reply: FastifyReply, seconds: number) {
  return reply.status(429).header('retry-after', String(seconds)).type('text/plain; charset=utf-8').send(TOO_MANY_REQUESTS);
}

/** A query parameter of the request, when it is one string. */
function queryParam(request: FastifyRequest, name: string): string | undefined {
  const v = (request.query as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? v : undefined;
}

/**
 * The federated session token of a request that names the `federated-token` scheme, as the platform's web SDK
 * calls in its direct mode: the scheme and the token as the `x-auth-scheme` and `x-auth-ft` headers, or as query
 * parameters of the same names (its presence windows). Undefined for any other scheme.
 */
function federatedToken(request: FastifyRequest): string | undefined {
  if ((header(request, 'x-auth-scheme') ?? queryParam(request, 'x-auth-scheme')) !== 'federated-token') return undefined;
  return header(request, 'x-auth-ft') ?? queryParam(request, 'x-auth-ft') ?? '';
}

/**
 * The caller a federated token makes: its organization, for the operations that only read (a token is what a
 * browser holds, so it changes nothing) and are a customer's; any other operation is 403 `Access Denied`.
 */
function federatedCaller(deps: Deps, request: FastifyRequest, token: string): CallerContext {
  if (!token) throw fail('UNAUTHENTICATED');
  const orgUuid = verifyFederatedToken(deps, token);
  const route = request.operationConfig;
  if (route.permission?.kind !== 'read' || (route.access ?? 'customer') !== 'customer') throw fail('ACCESS_DENIED');
  return {
    userUuid: null,
    apiKeyId: null,
    keyKind: 'standard',
    requestId: String(request.id),
    operation: route.operationId ?? request.url,
    orgUuid,
    partnerOrgUuid: null,
  };
}

/**
 * The REST edge's one onRequest hook: who is calling (authenticate), whether the operation is theirs to call
 * (internal operations), how often (the organization's rate limit) and what they may do (permissionCheck).
 * A callback hook, written without closures on its common path: with the key and the caller's rights cached,
 * a request passes without a promise or an allocation of its own beyond the caller.
 */
export function callerHook(deps: Deps, limits: RequestLimits, options: { https: boolean }) {
  const checkPermission = permissionCheck(deps);
  const takeRequest = limits.takeRequest;

  function admit(request: FastifyRequest, reply: FastifyReply, done: Done, caller: CallerContext): void {
    // The audit trail keeps where each write came from (the audit feed's source fields).
    request.caller = { ...caller, sourceIp: request.ip, userAgent: header(request, 'user-agent')?.slice(0, 500) ?? null };
    if (request.operationConfig.access === 'internal' && caller.keyKind !== 'internal') return done(fail('ACCESS_DENIED'));
    // An OAuth access token reaches only what its scopes allow (src/domains/orgs/oauth/tokens.ts).
    if (caller.scopes && !scopesAllow(caller.scopes, request.operationConfig.permission)) return done(fail('INSUFFICIENT_SCOPE'));
    const wait = takeRequest ? takeRequest(caller.orgUuid) : 0;
    if (typeof wait === 'number') return afterLimit(request, reply, done, wait);
    wait.then((w) => afterLimit(request, reply, done, w), done);
  }

  function afterLimit(request: FastifyRequest, reply: FastifyReply, done: Done, wait: number): void {
    if (wait > 0) tooManyRequests(reply, wait);
    else checkPermission(request, done);
  }

  /** A failed key attempt is logged with the client address (never the key), and limited per address. */
  function refused(request: FastifyRequest, reply: FastifyReply, done: Done, error: unknown): void {
    if (!isGatehouseError(error) || error.code !== 'INVALID_API_KEY') return done(error as Error);
    const answer = (wait: number) => {
      const operation = request.operationConfig.operationId ?? request.url;
      deps.log.warn({ component: 'auth', clientAddress: request.ip, operation, throttled: wait > 0 }, 'failed key attempt');
      if (wait > 0) tooManyRequests(reply, wait);
      else done(error);
    };
    const wait = limits.keyFailed(request.ip);
    if (typeof wait === 'number') answer(wait);
    else wait.then(answer, done);
  }

  return function onRequest(request: FastifyRequest, reply: FastifyReply, done: Done): void {
    const route = (request.operationConfig = request.routeOptions.config);
    let caller: CallerContext | Promise<CallerContext>;
    try {
      const federated = federatedToken(request);
      if (federated !== undefined) return admit(request, reply, done, federatedCaller(deps, request, federated));
      caller = authenticate(
        deps,
        {
          scheme: header(request, 'x-auth-scheme'),
          apiKey: header(request, 'x-auth-apikey'),
          orgHeader: header(request, 'x-auth-org'),
          accessToken: accessToken(request),
          clientCertFingerprint: options.https ? clientCertificateFingerprint(request.raw.socket) : null,
        },
        { requestId: String(request.id), operation: route.operationId ?? request.url, partnerHome: route.access === 'partner' },
      );
    } catch (e) {
      return refused(request, reply, done, e);
    }
    if (caller instanceof Promise) {
      caller.then(
        (c) => admit(request, reply, done, c),
        (e: unknown) => refused(request, reply, done, e),
      );
    } else admit(request, reply, done, caller);
  };
}

import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { fail } from '../errors.js';
import { allows, allowsLocations, locationScope, namedLocations, type AccessLevel, type OperationPermission, type Rights } from '../edge/rights.js';
import { cachedRights, callerRights } from '../domains/orgs/permissions/service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The locations the caller's group is limited to; null: every location (the common case, checked first). */
    locationScope: ReadonlyMap<string, AccessLevel> | null;
  }
}

/**
 * Drops, from every list in an answer, the records of locations outside the caller's scope (a record's
 * location is its `locationUuid`, or its `uuid` in the location family), and refuses an answer whose
 * single record lies outside it.
 */
function scopeAnswer(request: FastifyRequest, payload: unknown): unknown {
  const scope = request.locationScope;
  if (!scope || typeof payload !== 'object' || payload === null) return payload;
  const field = request.url.startsWith('/api/location/') ? 'uuid' : 'locationUuid';
  const outside = (v: unknown) =>
    typeof v === 'object' && v !== null && typeof (v as Record<string, unknown>)[field] === 'string' && !scope.has((v as Record<string, string>)[field]!);
  const scoped: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payload)) {
    if (Array.isArray(value)) scoped[key] = value.filter((item) => !outside(item));
    else if (outside(value)) throw fail('PERMISSION_DENIED');
    else scoped[key] = value;
  }
  return scoped;
}

/**
 * The check of the caller's rights against the operation, before the body is read: the REST edge runs it
 * right after authentication, in its one onRequest hook (src/http/app.ts). A caller with full rights or
 * cached rights passes without a promise.
 */
export function permissionCheck(deps: Deps): (request: FastifyRequest, done: (error?: Error) => void) => void {
  return (request, done) => {
    const { permission, access } = request.operationConfig;
    if (!permission || permission.kind === 'self' || !request.caller) return done();
    const scope = access === 'partner' ? 'partner' : 'org';
    const decide = (rights: Rights) => {
      if (rights.superAdmin) return done();
      if (rights.denied) return done(fail('ACCESS_DENIED'));
      if (!allows(rights, permission)) return done(fail('PERMISSION_DENIED'));
      request.locationScope = locationScope(rights);
      done();
    };
    const cached = cachedRights(deps, request.caller, scope);
    if (cached) return decide(cached);
    callerRights(deps, request.caller, scope).then(decide, done);
  };
}

/**
 * The locations the body names, against the caller's scope (after validation, so that they are read from a
 * valid body): the refusal, or undefined when the caller may name them (every caller without a scope).
 */
export function locationRefusal(request: FastifyRequest, permission: OperationPermission | undefined): Error | undefined {
  const scope = request.locationScope;
  if (!scope || allowsLocations(scope, permission!, namedLocations(request.url, request.body))) return undefined;
  return fail('PERMISSION_DENIED');
}

/** The answer as the caller's scope lets them see it (src/http/app.ts runs it on the way out). */
export function scopedAnswer(request: FastifyRequest, payload: unknown): unknown {
  return request.locationScope ? scopeAnswer(request, payload) : payload;
}

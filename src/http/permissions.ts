import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import { fail } from '../errors.js';
import { allows, allowsLocations, locationScope, namedLocations, type AccessLevel, type Rights } from '../edge/rights.js';
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
    const { permission, access } = request.routeOptions.config;
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
 * The one permission check of every operation, from the declaration its route carries: the caller's rights
 * (cached per user) against the operation's kind and functionality before the body is read (permissionCheck), the locations
 * the body names once it is, and the answer's records on the way out. A caller with full rights costs one
 * cache lookup.
 */
export function registerPermissionChecks(api: FastifyInstance): void {
  api.decorateRequest('locationScope', null);
  api.addHook('preHandler', (request, _reply, done) => {
    const scope = request.locationScope;
    if (!scope || allowsLocations(scope, request.routeOptions.config.permission!, namedLocations(request.url, request.body))) return done();
    done(fail('PERMISSION_DENIED'));
  });
  api.addHook('preSerialization', (request, _reply, payload, done) => {
    if (!request.locationScope) return done(null, payload);
    try {
      done(null, scopeAnswer(request, payload));
    } catch (e) {
      done(e as Error);
    }
  });
}

import type { TLSSocket } from 'node:tls';
import Fastify, { type FastifyReply } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import sjson from 'secure-json-parse';
import type { Deps } from '../deps.js';
import { fail, isGatehouseError } from '../errors.js';
import { authenticate } from '../domains/orgs/authenticate.js';
import { errorBody, handleError } from './errors.js';
import { baseFastifyOptions } from './fastify-options.js';
import { applyRequestTimeouts, requestTimeoutOptions } from '../net/request-timeouts.js';
import { controlApi } from './control.js';
import { createRequestLimits, TOO_MANY_REQUESTS } from './rate-limit.js';
import { registerPermissionChecks } from './permissions.js';
import { domainPlugins, inboundPlugins } from './domains.js';
import type { ApiApp } from './operation.js';

export interface HttpAppOptions {
  /** Serve over TLS and ask for (but do not require) a client certificate, for the certificate schemes. */
  https?: { cert: string; key: string };
}

const BODY_LIMIT = 1024 * 1024;
/** Refuses invalid UTF-8 instead of silently replacing it (a repaired body is not the body that was sent). */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function clientCertificateFingerprint(socket: unknown): string | null {
  const tls = socket as TLSSocket;
  if (typeof tls.getPeerCertificate !== 'function') return null;
  const cert = tls.getPeerCertificate();
  return cert && cert.fingerprint256 ? cert.fingerprint256.replaceAll(':', '').toLowerCase() : null;
}

/** 429 as the platform answers it: plain text, with the seconds to wait. */
function tooManyRequests(reply: FastifyReply, seconds: number) {
  return reply.status(429).header('retry-after', String(seconds)).type('text/plain; charset=utf-8').send(TOO_MANY_REQUESTS);
}

/** The REST edge: every operation is POST + JSON under /api, authenticated by the x-auth headers. */
export async function buildHttpApp(deps: Deps, options: HttpAppOptions = {}) {
  const app = Fastify({
    ...baseFastifyOptions(deps.log, 'http'),
    bodyLimit: BODY_LIMIT,
    requestTimeout: deps.config.requestTimeoutMs,
    trustProxy: deps.config.trustProxy,
    http: requestTimeoutOptions(deps.config.requestTimeoutMs),
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    ...(options.https
      ? { https: { ...options.https, ...requestTimeoutOptions(deps.config.requestTimeoutMs), requestCert: true, rejectUnauthorized: false } }
      : {}),
  }).withTypeProvider<TypeBoxTypeProvider>();
  applyRequestTimeouts(app.server, deps.config.requestTimeoutMs);

  // Bodies are JSON only (an empty body is `{}`); secure-json-parse refuses prototype-poisoning keys.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => {
    let text: string;
    try {
      text = utf8.decode(body as Buffer);
    } catch {
      return done(fail('INVALID_REQUEST', 'Body is not valid JSON: it is not valid UTF-8'), undefined);
    }
    if (text.trim() === '') return done(null, {});
    // No field takes a NUL character, and PostgreSQL cannot store one in text: refused here, on both dialects.
    if (text.includes('\\u0000')) return done(fail('INVALID_REQUEST', 'Body is not valid: a string holds a NUL character (\\u0000)'), undefined);
    try {
      done(null, sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (e) {
      done(fail('INVALID_REQUEST', `Body is not valid JSON: ${(e as Error).message}`), undefined);
    }
  });
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.method === 'POST' && request.body === undefined) request.body = {};
    done();
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Gatehouse: physical-security platform API',
        version: '1.0',
        description: 'Every operation is POST with a JSON body ({} for none). Failures: `error: true` with `errorMsg`.',
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      servers: [{ url: '/', description: 'this Gatehouse server' }],
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-auth-apikey' },
          scheme: { type: 'apiKey', in: 'header', name: 'x-auth-scheme', description: 'api-token (default), api, partner-api-token, partner-api' },
          partnerOrg: { type: 'apiKey', in: 'header', name: 'x-auth-org', description: 'client organization of a partner call' },
        },
      },
      // x-auth-scheme is optional (api-token when absent); x-auth-org names the client organization of a partner call.
      security: [{ apiKey: [] }, { apiKey: [], scheme: [] }, { apiKey: [], scheme: [], partnerOrg: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) => {
    const problems = await Promise.all([
      deps.store.ping().then(
        () => null,
        (e: Error) => `store unreachable: ${e.message}`,
      ),
      deps.bus.ping().then(
        () => null,
        (e: Error) => (e.message.startsWith('bus ') ? e.message : `bus ${deps.bus.name} unreachable: ${e.message}`),
      ),
    ]);
    const failed = problems.filter((p) => p !== null);
    if (failed.length > 0) return reply.status(503).send(errorBody(failed.join('; ')));
    return { status: 'ok', region: deps.config.region };
  });

  // Paths that answer POST, so that another method on them is 405 rather than 404.
  const operationPaths = new Set<string>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.includes('POST')) operationPaths.add(route.url);
  });
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0];
    if (operationPaths.has(path)) {
      return reply
        .status(405)
        .header('allow', 'POST')
        .send(errorBody(`Method ${request.method} not allowed: ${path} answers POST only`));
    }
    return reply.status(404).send(errorBody(`Unknown operation ${request.method} ${path}`));
  });
  app.setErrorHandler(handleError);

  const limits = createRequestLimits(deps.config, deps.log);
  app.addHook('onClose', () => limits.close());
  const takeRequest = limits.takeRequest;

  await app.register(async (api) => {
    api.decorateRequest('caller', null as never);
    api.addHook('onRequest', async (request, reply) => {
      const route = request.routeOptions.config;
      const operation = route.operationId ?? request.url;
      const header = (name: string) => {
        const v = request.headers[name];
        return Array.isArray(v) ? v[0] : v;
      };
      try {
        request.caller = await authenticate(
          deps,
          {
            scheme: header('x-auth-scheme'),
            apiKey: header('x-auth-apikey'),
            orgHeader: header('x-auth-org'),
            clientCertFingerprint: options.https ? clientCertificateFingerprint(request.raw.socket) : null,
          },
          { requestId: String(request.id), operation, partnerHome: route.access === 'partner' },
        );
      } catch (e) {
        if (!isGatehouseError(e) || e.code !== 'INVALID_API_KEY') throw e;
        // A failed key attempt: logged with the client address (never the key), and limited per address.
        const wait = await limits.keyFailed(request.ip);
        deps.log.warn({ component: 'auth', clientAddress: request.ip, operation, throttled: wait > 0 }, 'failed key attempt');
        if (wait > 0) return tooManyRequests(reply, wait);
        throw e;
      }
      if (route.access === 'internal' && request.caller.keyKind !== 'internal') throw fail('ACCESS_DENIED');
      if (takeRequest) {
        const taken = takeRequest(request.caller.orgUuid);
        const wait = typeof taken === 'number' ? taken : await taken;
        if (wait > 0) return tooManyRequests(reply, wait);
      }
    });
    // After validation, so that a malformed body is a 400 whoever sends it, as for every other operation.
    api.addHook('preHandler', (request, _reply, done) => {
      done(request.routeOptions.config.access === 'partner' && request.caller.keyKind !== 'partner' ? fail('ACCESS_DENIED') : undefined);
    });
    registerPermissionChecks(api, deps);
    for (const plugin of domainPlugins) await plugin(api as ApiApp, deps);
  });

  await app.register(
    async (inbound) => {
      for (const plugin of inboundPlugins) await plugin(inbound as ApiApp, deps);
    },
    { prefix: '/webhooks' },
  );
  await app.register(controlApi(deps), { prefix: '/_gatehouse' });
  return app;
}

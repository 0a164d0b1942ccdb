import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import sjson from 'secure-json-parse';
import type { Deps } from '../deps.js';
import { fail } from '../errors.js';
import { errorBody, handleError } from '../edge/errors.js';
import { baseFastifyOptions } from '../edge/fastify-options.js';
import { MAX_BODY_DEPTH, nestsDeeperThan } from '../edge/body-limits.js';
import { lazySchemaCompilers } from './lazy-compilers.js';
import { LENIENCY_KEYWORDS } from '../edge/lenient-body.js';
import { applyRequestTimeouts, requestTimeoutOptions } from '../net/request-timeouts.js';
import { controlApi } from './control.js';
import { createRequestLimits, type RequestLimits } from '../edge/rate-limit.js';
import { locationRefusal, scopedAnswer } from './permissions.js';
import { checkReferences } from '../records/references.js';
import { absoluteMediaUris } from '../edge/media-uris.js';
import { REF_KEYS_KEYWORD, REF_KEYWORD, REF_NOT_FOUND_KEYWORD } from '../schemas/record-kinds.js';
import { callerHook } from './caller-hook.js';
import { domainPlugins, inboundPlugins, publicPlugins } from './domains.js';
import type { ApiApp } from '../edge/operation.js';
import { journalRequests, RequestJournal } from './journal.js';

export interface HttpAppOptions {
  /** Serve over TLS and ask for (but do not require) a client certificate, for the certificate schemes. */
  https?: { cert: string; key: string };
  /** The limits shared with the stream's handshake (src/app.ts); made here, and closed with the app, when absent. */
  limits?: RequestLimits;
  /** The request journal (made here, of the configured size, when absent). */
  journal?: RequestJournal;
  /** Routes the layers above add to the REST port (the browser console, src/console/). */
  extraRoutes?: ((app: FastifyInstance) => Promise<void>)[];
}

const BODY_LIMIT = 1024 * 1024;
/** Refuses invalid UTF-8 instead of silently replacing it (a repaired body is not the body that was sent). */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The REST edge: every operation is POST + JSON under /api, authenticated by the x-auth headers. */
export async function buildHttpApp(deps: Deps, options: HttpAppOptions = {}) {
  const app = Fastify({
    ...baseFastifyOptions(deps.log, 'http'),
    bodyLimit: BODY_LIMIT,
    requestTimeout: deps.config.requestTimeoutMs,
    trustProxy: deps.config.trustProxy,
    http: requestTimeoutOptions(deps.config.requestTimeoutMs),
    // Annotation keywords: which kind of record an id field names and its refusal (src/schemas/record-kinds.ts), and the
    // alternate names and shapes the lenient reader accepts (src/edge/lenient-body.ts).
    ajv: {
      customOptions: {
        coerceTypes: false,
        removeAdditional: false,
        allErrors: false,
        keywords: [REF_KEYWORD, REF_KEYS_KEYWORD, REF_NOT_FOUND_KEYWORD, ...LENIENCY_KEYWORDS],
      },
    },
    schemaController: { compilersFactory: lazySchemaCompilers() },
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
    let parsed: unknown;
    try {
      parsed = sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch (e) {
      return done(fail('INVALID_REQUEST', `Body is not valid JSON: ${(e as Error).message}`), undefined);
    }
    if (nestsDeeperThan(parsed)) return done(fail('INVALID_REQUEST', `Body is not valid: it nests deeper than ${MAX_BODY_DEPTH} levels`), undefined);
    done(null, parsed);
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

  const limits = options.limits ?? createRequestLimits(deps.config, deps.log, deps.bus.namespace);
  if (!options.limits) app.addHook('onClose', () => limits.close());
  const journal = options.journal ?? new RequestJournal(deps.config.journalSize);
  journalRequests(app as unknown as FastifyInstance, journal);

  await app.register(async (api) => {
    api.decorateRequest('caller', null as never);
    api.decorateRequest('operationConfig', null as never);
    api.decorateRequest('locationScope', null);
    api.addHook('onRequest', callerHook(deps, limits, { https: Boolean(options.https) }));
    // After validation, so that a malformed body is a 400 whoever sends it, as for every other operation. One
    // callback hook for every check of the body's turn: each hook is a step of Fastify's chain on every request.
    api.addHook('preHandler', (request, _reply, done) => {
      const { access, permission, references } = request.operationConfig;
      if (access === 'partner' && request.caller.keyKind !== 'partner') return done(fail('ACCESS_DENIED'));
      const refused = locationRefusal(request, permission);
      if (refused || !references) return done(refused);
      // Every id a body names is the caller's organization's, whatever the operation (src/records/references.ts).
      checkReferences(deps, request.caller.orgUuid, references, request.body).then(() => done(), done);
    });
    // The answer limited to the caller's locations, then its media host URIs made absolute under the public
    // media base (src/edge/media-uris.ts).
    api.addHook('preSerialization', (request, _reply, payload, done) => {
      const fields = request.operationConfig.mediaUris;
      let answer: unknown;
      try {
        answer = scopedAnswer(request, payload);
      } catch (e) {
        return done(e as Error);
      }
      done(null, fields ? absoluteMediaUris(answer, fields, deps.mediaHost.base) : answer);
    });
    for (const plugin of domainPlugins) await plugin(api as ApiApp, deps);
  });

  await app.register(
    async (inbound) => {
      for (const plugin of inboundPlugins) await plugin(inbound as ApiApp, deps);
    },
    { prefix: '/webhooks' },
  );
  await app.register(async (open) => {
    for (const plugin of publicPlugins) await plugin(open as unknown as FastifyInstance, deps);
  });
  await app.register(controlApi(deps, journal), { prefix: '/_gatehouse' });
  for (const routes of options.extraRoutes ?? []) await app.register(routes);
  return app;
}

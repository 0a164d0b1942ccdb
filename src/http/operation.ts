import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerBase } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Static, TSchema } from 'typebox';
import type { CallerContext } from '../context.js';

/** The Fastify instance that domain plugins register their operations on. */
export type ApiApp = FastifyInstance<
  RawServerBase,
  RawRequestDefaultExpression<RawServerBase>,
  RawReplyDefaultExpression<RawServerBase>,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** Who may call an operation: any authenticated customer or partner key, or only an internal key. */
export type OperationAccess = 'customer' | 'internal';

export interface OperationSpec<B extends TSchema, R extends TSchema> {
  path: string;
  /** The reference catalogue's operationId. */
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  body: B;
  response: R;
  /**
   * Other paths that answer the same operation (the reference catalogue's names). In /openapi.json each is
   * its own entry whose operationId is the path's last segment: the catalogue's operationId for its paths.
   */
  aliases?: string[];
  /** Marks the operation deprecated in the OpenAPI document and answers with a `Deprecation` header. */
  deprecated?: { successor: string };
  access?: OperationAccess;
  /** Request content types other than JSON, for the OpenAPI document (the route's scope brings the parser). */
  consumes?: string[];
  querystring?: TSchema;
  /** false: success answers the handler's result alone, without `error: false` (the spec's bare `{}` answers). */
  envelope?: false;
}

export type OperationHandler<B extends TSchema, R extends TSchema> = (
  input: Static<B>,
  ctx: CallerContext,
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<Static<R>>;

declare module 'fastify' {
  interface FastifyContextConfig {
    operationId?: string;
    access?: OperationAccess;
  }
  interface FastifyRequest {
    caller: CallerContext;
  }
}

/**
 * Registers one POST operation (and its aliases) with its body and response schemas: the schemas
 * validate the request, type the handler, serialize the reply and feed /openapi.json.
 */
export function operation<B extends TSchema, R extends TSchema>(app: ApiApp, spec: OperationSpec<B, R>, handler: OperationHandler<B, R>): void {
  const paths = [spec.path, ...(spec.aliases ?? [])];
  for (const path of paths) {
    const isAlias = path !== spec.path;
    // Typed through OperationHandler above; the generic schema types are too deep for Fastify's own inference.
    (app as FastifyInstance).route({
      method: 'POST',
      url: path,
      config: { operationId: spec.operationId, access: spec.access ?? 'customer' },
      schema: <FastifySchema>{
        operationId: isAlias ? path.split('/').pop() : spec.operationId,
        summary: spec.summary,
        description: isAlias ? `Alias of ${spec.path}, under the reference catalogue's name.` : spec.description,
        tags: spec.tags,
        deprecated: spec.deprecated ? true : undefined,
        body: spec.body,
        ...(spec.consumes ? { consumes: spec.consumes } : {}),
        ...(spec.querystring ? { querystring: spec.querystring } : {}),
        response: { 200: spec.response },
      },
      handler: async (request, reply) => {
        if (spec.deprecated) reply.header('deprecation', 'true').header('link', `<${spec.deprecated.successor}>; rel="successor-version"`);
        const result = await handler(request.body as Static<B>, request.caller, request, reply);
        return spec.envelope === false ? result : { error: false, ...(result as object) };
      },
    });
  }
}

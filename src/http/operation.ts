import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Static, TSchema } from 'typebox';
import type { CallerContext } from '../context.js';
import { derivePermission, type OperationPermission } from '../domains/permissions/rights.js';

/** The Fastify instance that domain plugins register their operations on. */
export type ApiApp = FastifyInstance<any, any, any, any, TypeBoxTypeProvider>;

/**
 * Who may call an operation: any authenticated customer or partner key, only an internal key, or only a
 * partner key (`x-auth-org` then optional: without it the key acts for its own partner organization).
 */
export type OperationAccess = 'customer' | 'internal' | 'partner';

export interface OperationSpec<B extends TSchema, R extends TSchema> {
  path: string;
  /** The reference catalogue's operationId. */
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  body: B;
  response: R;
  /** Other paths that answer the same operation (the reference catalogue's names). */
  aliases?: string[];
  /** Marks the operation deprecated in the OpenAPI document and answers with a `Deprecation` header. */
  deprecated?: { successor: string };
  access?: OperationAccess;
  /** Request content types other than JSON, for the OpenAPI document (the route's scope brings the parser). */
  consumes?: string[];
  querystring?: TSchema;
  /** false: success answers the handler's result alone, without `error: false` (the spec's bare `{}` answers). */
  envelope?: false;
  /**
   * What the caller's permission group needs (checked once, at the edge: src/http/permissions.ts). Default:
   * a read when the operationId starts with a read verb, else a write, of its URL family's functionality.
   */
  permission?: Partial<OperationPermission>;
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
    permission?: OperationPermission;
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
  const permission = { ...derivePermission(spec.path, spec.operationId), ...spec.permission };
  for (const path of paths) {
    const isAlias = path !== spec.path;
    // Typed through OperationHandler above; the generic schema types are too deep for Fastify's own inference.
    (app as FastifyInstance).route({
      method: 'POST',
      url: path,
      config: { operationId: spec.operationId, access: spec.access ?? 'customer', permission },
      schema: <FastifySchema>{
        operationId: isAlias ? `${spec.operationId}__${path.split('/').pop()}` : spec.operationId,
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

import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerBase,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Static, TSchema } from 'typebox';
import type { CallerContext } from '../context.js';
import { dropNullOptionals, withNullableOptionals } from '../schemas/null-as-absent.js';
import type { JsonSchema } from '../schemas/json-schema.js';
import { referenceFields, type ReferenceField } from '../records/references.js';
import { derivePermission, type OperationPermission } from './rights.js';
import { mediaUriFields, mediaUriTree, rememberMediaUriNames, type MediaUriTree } from './media-uris.js';
import { JsonParts } from './json-parts.js';

/** The Fastify instance that domain plugins register their operations on. */
export type ApiApp = FastifyInstance<
  RawServerBase,
  RawRequestDefaultExpression<RawServerBase>,
  RawReplyDefaultExpression<RawServerBase>,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

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
  /**
   * A Gatehouse-only operation, which the platform does not have: true marks every path of it; a list marks
   * only those of its paths (Gatehouse's own names of a platform operation). Marked paths carry
   * `x-gatehouse-extension: true` and the `Gatehouse` tag in /openapi.json.
   */
  extension?: true | readonly string[];
  /**
   * A platform operation that its public catalogue lacks but its own clients call: from its newer public spec
   * (`newer`) or its older API, which its examples still call (`older`). Every path of the operation carries
   * `x-platform-source: newer-public-spec | older-api` in /openapi.json (counted apart by scripts/coverage.ts);
   * a map marks only the paths it names (an alias under the name a client calls).
   */
  platformSource?: PlatformSource | Readonly<Record<string, PlatformSource>>;
  /**
   * What the caller's permission group needs (checked once, at the edge: src/http/permissions.ts). Default:
   * a read when the operationId starts with a read verb, else a write, of its URL family's functionality.
   */
  permission?: Partial<OperationPermission>;
}

export type PlatformSource = 'newer' | 'older';
/** The `x-platform-source` mark of an operation outside the platform's catalogue, by its source. */
export const PLATFORM_SOURCE_MARK: Record<PlatformSource, string> = { newer: 'newer-public-spec', older: 'older-api' };

/** The tag of every Gatehouse-only operation in /openapi.json. */
export const EXTENSION_TAG = 'Gatehouse';

/** The failure envelope, as /openapi.json documents the 400, 401 and 403 answers of every operation. */
const FailureResponse = {
  type: 'object',
  properties: {
    error: { type: 'boolean' },
    errorMsg: { type: 'string' },
    warningMsg: { type: ['string', 'null'] },
    msg: { type: 'string' },
  },
} as const;
const failures = {
  400: { description: "The body is not JSON or does not match the operation's schema", ...FailureResponse },
  401: { description: 'No API key, or an unsupported x-auth-scheme', ...FailureResponse },
  403: { description: 'The API key is not valid here (unknown, revoked, expired or of another region) or may not call this operation', ...FailureResponse },
};

/**
 * An alias's operationId: the catalogue's, which is the path's last segment, except for an older path of the
 * same operation, which the catalogue names with a `Dep` suffix (`/api/integrations/getWebhookIntegration` is
 * getWebhookIntegrationDep beside `/api/integrations/webhooks/getWebhookIntegration`).
 */
function aliasOperationId(operationId: string, path: string): string {
  const segment = path.split('/').pop()!;
  return segment === operationId ? `${segment}Dep` : segment;
}

function sourceOf(spec: { platformSource?: PlatformSource | Readonly<Record<string, PlatformSource>> }, path: string): PlatformSource | undefined {
  return typeof spec.platformSource === 'string' ? spec.platformSource : spec.platformSource?.[path];
}

function isExtensionPath(spec: { extension?: true | readonly string[] }, path: string): boolean {
  return spec.extension === true || (Array.isArray(spec.extension) && spec.extension.includes(path));
}

/**
 * An answer whose fields are JSON text already: a long list the database wrote as JSON (the camera list,
 * cameras.store.ts). It is sent as it is, past the response schema's serializer, whose generated code took five
 * times V8's JSON.stringify on 10,000 cameras; its text must match the response schema (its operation's tests
 * check it against the records' own mapping). A field may be UTF-8 bytes: a list of megabytes read as bytes
 * is sent without being made a string, measured, and encoded again, nor copied into one buffer with the rest
 * (JsonParts). The preSerialization hooks do not see it, so it may not answer a caller limited to some locations
 * (request.locationScope): such an operation answers those with records.
 */
export class JsonFields<T> {
  constructor(readonly fields: { readonly [K in keyof T]?: string | Buffer }) {}
}

/** The body of a JsonFields answer, with the success envelope unless the operation has none: its parts when a field is bytes. */
function jsonFieldsBody(operationId: string, request: FastifyRequest, answer: JsonFields<unknown>, envelope: boolean): string | JsonParts {
  if (request.locationScope) throw new Error(`${operationId}: an answer of JSON text cannot be limited to the caller's locations`);
  const fields = Object.entries(answer.fields as Record<string, string | Buffer>);
  const parts = fields.flatMap(([name, value], i) => [`${i > 0 || envelope ? ',' : ''}${JSON.stringify(name)}:`, value]);
  const whole = [envelope ? '{"error":false' : '{', ...parts, '}'];
  return fields.some(([, value]) => Buffer.isBuffer(value)) ? new JsonParts(whole) : whole.join('');
}

export type OperationHandler<B extends TSchema, R extends TSchema> = (
  input: Static<B>,
  ctx: CallerContext,
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<Static<R> | JsonFields<Static<R>>>;

declare module 'fastify' {
  interface FastifyContextConfig {
    operationId?: string;
    access?: OperationAccess;
    permission?: OperationPermission;
    /** Where the body names records by id, each resolved against the caller's organization before the handler runs. */
    references?: readonly ReferenceField[];
    /** Where the answer holds media host URIs, made absolute on the way out (src/edge/media-uris.ts). */
    mediaUris?: MediaUriTree;
  }
  interface FastifyRequest {
    caller: CallerContext;
    /** The route's declaration, read once (src/http/caller-hook.ts): Fastify's routeOptions builds an object on every read. */
    operationConfig: FastifyContextConfig;
  }
}

/**
 * Registers one POST operation (and its aliases) with its body and response schemas: the schemas
 * validate the request, type the handler, serialize the reply and feed /openapi.json.
 */
export function operation<B extends TSchema, R extends TSchema>(app: ApiApp, spec: OperationSpec<B, R>, handler: OperationHandler<B, R>): void {
  const paths = [spec.path, ...(spec.aliases ?? [])];
  // Every optional field accepts null (the platform's clients send null for absent); see null-as-absent.ts.
  const body = withNullableOptionals(spec.body);
  const permission = { ...derivePermission(spec.path, spec.operationId), ...spec.permission };
  const references = referenceFields(spec.body as unknown as JsonSchema);
  const uriFields = mediaUriFields(spec.response as unknown as JsonSchema);
  rememberMediaUriNames(uriFields);
  const mediaUris = uriFields.length > 0 ? mediaUriTree(uriFields) : null;
  for (const path of paths) {
    const isAlias = path !== spec.path;
    const extension = isExtensionPath(spec, path);
    // Typed through OperationHandler above; the generic schema types are too deep for Fastify's own inference.
    (app as FastifyInstance).route({
      method: 'POST',
      url: path,
      config: {
        operationId: spec.operationId,
        access: spec.access ?? 'customer',
        permission,
        ...(references.length > 0 ? { references } : {}),
        ...(mediaUris ? { mediaUris } : {}),
      },
      schema: <FastifySchema>{
        operationId: isAlias ? aliasOperationId(spec.operationId, path) : spec.operationId,
        summary: spec.summary,
        description: isAlias ? `Alias of ${spec.path}, under the reference catalogue's name.` : spec.description,
        tags: extension ? [...spec.tags.filter((t) => t !== EXTENSION_TAG), EXTENSION_TAG] : spec.tags,
        ...(extension ? { 'x-gatehouse-extension': true } : {}),
        ...(sourceOf(spec, path) && !extension ? { 'x-platform-source': PLATFORM_SOURCE_MARK[sourceOf(spec, path)!] } : {}),
        deprecated: spec.deprecated ? true : undefined,
        body,
        ...(spec.consumes ? { consumes: spec.consumes } : {}),
        ...(spec.querystring ? { querystring: spec.querystring } : {}),
        response: { 200: spec.response, ...failures },
      },
      handler: async (request, reply) => {
        if (spec.deprecated) reply.header('deprecation', 'true').header('link', `<${spec.deprecated.successor}>; rel="successor-version"`);
        dropNullOptionals(spec.body, request.body);
        const result = await handler(request.body as Static<B>, request.caller, request, reply);
        if (result instanceof JsonFields) {
          // A string answer with a JSON content type is sent without serialization.
          reply.type('application/json; charset=utf-8');
          const answer = jsonFieldsBody(spec.operationId, request, result, spec.envelope !== false);
          if (answer instanceof JsonParts) reply.header('content-length', answer.byteLength);
          return answer;
        }
        return spec.envelope === false ? result : { error: false, ...(result as object) };
      },
    });
  }
}

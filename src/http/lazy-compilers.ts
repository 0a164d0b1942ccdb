import ValidatorSelector from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';
import { lenientValue } from '../edge/lenient-body.js';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type AnyFunction = (...args: never[]) => unknown;
/** Fastify's compiler builders, as this module uses them: (shared schemas, options) => (route schema) => function. */
type Builder = (externalSchemas: unknown, options: unknown) => (routeSchema: unknown) => AnyFunction;

/** A function that compiles its real self on its first call, then forwards to it (and to its `errors`). */
export function onFirstCall(compile: () => AnyFunction): AnyFunction {
  let real: AnyFunction | undefined;
  const lazy = (...args: never[]) => {
    real ??= compile();
    const result = real(...args);
    (lazy as unknown as { errors: unknown }).errors = (real as unknown as { errors?: unknown }).errors;
    return result;
  };
  return lazy;
}

function lazily(builder: Builder): Builder {
  return (externalSchemas, options) => {
    const compile = builder(externalSchemas, options);
    return (routeSchema) => onFirstCall(() => compile(routeSchema));
  };
}

/**
 * A body validator that first reads the body as the platform's parser does (src/edge/lenient-body.ts): the one
 * place where "true", "12" and 12.7 become what the schema declares and alternate field names are renamed.
 */
function lenient(builder: Builder): Builder {
  return (externalSchemas, options) => {
    const compile = builder(externalSchemas, options);
    return (routeSchema) => {
      const validate = compile(routeSchema);
      const { httpPart, schema } = routeSchema as { httpPart?: string; schema?: unknown };
      if (httpPart !== 'body') return validate;
      const wrapped = (data: unknown) => {
        const result = (validate as (d: unknown) => unknown)(lenientValue(schema, data));
        (wrapped as unknown as { errors: unknown }).errors = (validate as unknown as { errors?: unknown }).errors;
        return result;
      };
      return wrapped as AnyFunction;
    };
  };
}

/**
 * Fastify's own compilers (Ajv and fast-json-stringify), run on a route's first request instead of at start.
 * With hundreds of operations, each with aliases, compiling every body validator and response serializer up
 * front took most of a start (1 to 3 s); a server, and each test's server, now pays only for the operations it
 * serves. The every-operation test calls each operation, so a schema that does not compile still fails a test.
 */
export function lazySchemaCompilers(): CompilersFactory {
  return {
    buildValidator: lazily(lenient(ValidatorSelector() as unknown as Builder)),
    buildSerializer: lazily(SerializerSelector() as unknown as Builder),
  } as unknown as CompilersFactory;
}

import ValidatorSelector from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type AnyFunction = (...args: never[]) => unknown;
/** Fastify's compiler builders, as this module uses them: (shared schemas, options) => (route schema) => function. */
type Builder = (externalSchemas: unknown, options: unknown) => (routeSchema: unknown) => AnyFunction;

/** A function that compiles its real self on its first call, then forwards to it (and to its `errors`). */
function onFirstCall(compile: () => AnyFunction): AnyFunction {
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
 * Fastify's own compilers (Ajv and fast-json-stringify), run on a route's first request instead of at start.
 * With hundreds of operations, each with aliases, compiling every body validator and response serializer up
 * front took most of a start (1 to 3 s); a server, and each test's server, now pays only for the operations it
 * serves. The every-operation test calls each operation, so a schema that does not compile still fails a test.
 */
export function lazySchemaCompilers(): CompilersFactory {
  return {
    buildValidator: lazily(ValidatorSelector() as unknown as Builder),
    buildSerializer: lazily(SerializerSelector() as unknown as Builder),
  } as unknown as CompilersFactory;
}

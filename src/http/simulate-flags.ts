import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { RUUID_PATTERN } from '../ids.js';
import type { JsonSchema } from '../schemas/json-schema.js';

/**
 * `gatehouse simulate <event> --flag value ...` speaks of flags, not of request bodies: the body key
 * `durationSec` is the flag `--duration-sec`. These helpers word the simulator's refusals and its help in
 * flags, for the control API's simulate routes and for the CLI alike.
 */
type Schema = JsonSchema;

export const flagOf = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** The values a flag's schema allows: an enum, or a union of constants. */
function allowedValues(schema: Schema | undefined): unknown[] | null {
  if (!schema) return null;
  if (Array.isArray(schema.enum)) return schema.enum.filter((v: unknown) => v !== null);
  const branches: Schema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (branches?.every((b) => b.const !== undefined)) return branches.map((b) => b.const);
  return null;
}

const isSwitch = (schema: Schema) => schema.type === 'boolean';

/** How the help shows a flag's value: `UUID`, `N`, `MOTION|...`, nothing for a switch. */
function valueHint(key: string, schema: Schema): string {
  const values = allowedValues(schema);
  if (values) return values.length <= 8 ? values.join('|') : key.toUpperCase();
  if (schema.type === 'integer') return 'N';
  if (schema.type === 'number') return 'V';
  if (schema.pattern === RUUID_PATTERN) return 'UUID';
  return 'TEXT';
}

/** One event's usage: `alert --device UUID --trigger VALUE [--people N] [--at N]`. */
export function eventUsage(event: string, body: Schema): string {
  const required = new Set<string>(body.required ?? []);
  const parts = Object.entries<Schema>(body.properties ?? {}).map(([key, schema]) => {
    const flag = isSwitch(schema) ? flagOf(key) : `${flagOf(key)} ${valueHint(key, schema)}`;
    return required.has(key) ? flag : `[${flag}]`;
  });
  return [event, ...parts].join(' ');
}

/** Why a flag's value is refused, in flags. */
export function flagProblem(event: string, body: Schema, error: FastifySchemaValidationError): string {
  const params = error.params as Record<string, string>;
  const key = error.instancePath.split('/')[1] ?? '';
  const schema = body.properties?.[key] as Schema | undefined;
  const flag = flagOf(key);
  switch (error.keyword) {
    case 'required':
      return `${flagOf(params.missingProperty)} is required (${eventUsage(event, body)})`;
    case 'additionalProperties':
      return `unknown flag ${flagOf(params.additionalProperty)} for ${event}: ${eventUsage(event, body)}`;
    case 'enum':
    case 'const':
    case 'anyOf':
      return `${flag} must be one of ${(allowedValues(schema) ?? []).join(', ')}`;
    case 'type':
      if (params.type === 'boolean') return `${flag} is a switch: give it without a value`;
      return `${flag} must be ${params.type === 'integer' ? 'an integer' : params.type === 'number' ? 'a number' : 'a value'}`;
    case 'pattern':
      return schema?.pattern === RUUID_PATTERN ? `${flag} must be a UUID (22 URL-safe base-64 characters)` : `${flag} must match ${schema?.pattern}`;
    case 'minimum':
    case 'maximum':
    case 'minLength':
    case 'maxLength':
      return `${flag} ${error.message}`;
    default:
      return key ? `${flag} ${error.message}` : `flags ${error.message}`;
  }
}

/** A route's validation error formatter that words the first problem in flags. */
export function flagErrorFormatter(event: string, body: Schema) {
  return (errors: FastifySchemaValidationError[]) => new Error(flagProblem(event, body, errors[0]));
}

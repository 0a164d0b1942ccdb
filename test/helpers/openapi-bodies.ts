/**
 * Request bodies made from /openapi.json, for tests that walk every operation: required fields get a
 * plausible value of their schema, optional fields are sent as null (`null`) or filled in (`filled`).
 */
export type JsonSchema = Record<string, any>;

const RUUID = 'AAAAAAAAAAAAAAAAAAAAAA';

function typeOf(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (Array.isArray(type)) return type.find((t: string) => t !== 'null');
  return type;
}

function sampleString(schema: JsonSchema): string {
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    const candidates = [
      RUUID,
      `${RUUID}.v0`,
      ...Array.from({ length: 64 }, (_, i) => 'A'.repeat(i + 1)),
      'someone@example.com',
      'https://example.com/',
      '1920x1080',
      '00:11:22:33:44:55',
      '1234',
      '+1 555 0100',
    ];
    const found = candidates.find((c) => pattern.test(c) && c.length <= (schema.maxLength ?? Infinity));
    if (found) return found;
  }
  if (schema.format === 'email') return 'someone@example.com';
  if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/';
  if (schema.format === 'date-time') return '2024-01-01T00:00:00Z';
  const length = Math.min(Math.max(schema.minLength ?? 1, 1), schema.maxLength ?? 64);
  return 'x'.repeat(length);
}

/** A value that the schema accepts, with every optional property set as the mode says. */
export function sampleValue(schema: JsonSchema, mode: 'null' | 'filled', depth = 0): unknown {
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((v: unknown) => v !== null);
  const branches: JsonSchema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (branches) return sampleValue(branches.find((b) => b.type !== 'null') ?? branches[0], mode, depth);
  switch (typeOf(schema)) {
    case 'string':
      return sampleString(schema);
    case 'integer':
    case 'number':
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    case 'array': {
      const count = schema.minItems ?? 0;
      const choices = schema.items?.enum as unknown[] | undefined;
      if (choices) return choices.filter((v) => v !== null).slice(0, count);
      return Array.from({ length: count }, (_, i) => {
        const item = sampleValue(schema.items ?? {}, mode, depth + 1);
        return typeof item === 'string' && schema.uniqueItems ? `${item.slice(0, -1)}${String.fromCharCode(65 + i)}` : item;
      });
    }
    case 'object':
      return sampleObject(schema, mode, depth);
    default:
      return null;
  }
}

function sampleObject(schema: JsonSchema, mode: 'null' | 'filled', depth: number): Record<string, unknown> {
  const required = new Set<string>(schema.required ?? []);
  const body: Record<string, unknown> = {};
  for (const [name, property] of Object.entries<JsonSchema>(schema.properties ?? {})) {
    if (required.has(name)) body[name] = sampleValue(property, mode, depth + 1);
    else if (mode === 'null' || depth > 4) body[name] = null;
    else body[name] = sampleValue(property, mode, depth + 1);
  }
  return body;
}

/** The JSON body schema of each POST operation of an OpenAPI document, by path. */
export function jsonOperations(document: JsonSchema): Array<{ path: string; operationId: string; body: JsonSchema }> {
  const operations = [];
  for (const [path, item] of Object.entries<JsonSchema>(document.paths ?? {})) {
    const body = item.post?.requestBody?.content?.['application/json']?.schema;
    if (body) operations.push({ path, operationId: item.post.operationId as string, body });
  }
  return operations;
}

/** The optional properties of a schema, at any depth, as dotted paths (`schedule.name`). */
export function optionalFields(schema: JsonSchema, prefix = ''): string[] {
  const found: string[] = [];
  const required = new Set<string>(schema.required ?? []);
  for (const [name, property] of Object.entries<JsonSchema>(schema.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    if (!required.has(name)) found.push(path);
    found.push(...optionalFields(property, path));
  }
  return found;
}

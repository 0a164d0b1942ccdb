import type { TSchema } from 'typebox';
import { Nullable } from './common.js';

/**
 * The platform's clients send `null` for an absent value. Every optional field of a request therefore
 * accepts null: where the schema itself says nothing of null, null means "absent" and is dropped before the
 * handler runs (so services see the field missing, as before); where the schema is Nullable, null is kept.
 */
type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; required?: string[]; items?: Schema };

/** Whether a schema accepts null as it is. */
export function acceptsNull(schema: Schema): boolean {
  const type = schema.type;
  if (type === undefined && schema.enum === undefined && schema.anyOf === undefined && schema.oneOf === undefined && schema.const === undefined) return true;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) {
    return !Array.isArray(schema.enum) || schema.enum.includes(null);
  }
  if (Array.isArray(schema.enum) && type === undefined) return schema.enum.includes(null);
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  return Array.isArray(branches) && branches.some(acceptsNull);
}

const isObject = (schema: Schema) => schema.type === 'object' || (Array.isArray(schema.type) && schema.type.includes('object'));
const isArray = (schema: Schema) => schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'));

/** A copy of a request schema in which every optional property, at any depth, also accepts null. */
export function withNullableOptionals<T extends TSchema>(schema: T): T {
  return nullableOptionals(schema as unknown as Schema) as unknown as T;
}

function nullableOptionals(schema: Schema): Schema {
  if (isObject(schema) && schema.properties) {
    const required = new Set(schema.required ?? []);
    const properties: Record<string, Schema> = {};
    for (const [name, property] of Object.entries(schema.properties)) {
      const inner = nullableOptionals(property);
      properties[name] = required.has(name) || acceptsNull(inner) ? inner : (Nullable(inner as unknown as TSchema) as unknown as Schema);
    }
    return { ...schema, properties };
  }
  if (isArray(schema) && schema.items && typeof schema.items === 'object') return { ...schema, items: nullableOptionals(schema.items) };
  return schema;
}

/** Drops, in place, the nulls that stand for absent optional properties of `schema` (the original schema). */
export function dropNullOptionals(schema: TSchema, value: unknown): void {
  drop(schema as unknown as Schema, value);
}

function drop(schema: Schema, value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    if (isArray(schema) && schema.items && typeof schema.items === 'object') for (const item of value) drop(schema.items, item);
    return;
  }
  if (!isObject(schema) || !schema.properties) return;
  const required = new Set(schema.required ?? []);
  const record = value as Record<string, unknown>;
  for (const [name, property] of Object.entries(schema.properties)) {
    if (!(name in record)) continue;
    if (record[name] === null) {
      if (!required.has(name) && !acceptsNull(property)) delete record[name];
    } else {
      drop(property, record[name]);
    }
  }
}

/**
 * The platform parses request bodies with a Java/Jackson stack, and its own clients rely on what that parser
 * forgives. The body validator (src/http/lazy-compilers.ts) runs this over a body, in place, before validating
 * it against the operation's schema; the schema then refuses whatever could not be read:
 *
 * - a boolean field takes "true" / "false" (any case), as Jackson does;
 * - an integer field takes a float (truncated toward zero) and a numeric string ("12", "12.7"); a number field
 *   takes a numeric string. A string that is not a number stays a string, so the schema still refuses it (a 400
 *   naming the field), as does an object or a list where a number is expected;
 * - a property may declare other names the clients send for it (`'x-aliases': ['policyAlertUuid']`, written
 *   with `Alias()` of src/schemas/common.ts): a body that has an alias and not the property is renamed, before
 *   validation, so that the handler sees only the property;
 * - an object property may be marked `'x-flat': true` (written with `Flat()`): a body that sends its fields at
 *   the top level instead of inside it is read as if nested;
 * - unknown fields are left alone: request schemas do not refuse additional properties.
 *
 * An empty body, with or without a content type, is `{}` (src/http/app.ts).
 */
type Schema = {
  type?: unknown;
  properties?: Record<string, Schema>;
  items?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: unknown;
  patternProperties?: Record<string, Schema>;
  'x-aliases'?: string[];
  'x-date-aliases'?: string[];
  'x-flat'?: boolean;
};

/** The keywords this module reads, which the validator must know (Ajv's strict mode refuses unknown ones). */
export const LENIENCY_KEYWORDS = ['x-aliases', 'x-date-aliases', 'x-flat'] as const;

const types = (schema: Schema): string[] => (typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : []);

const NUMERIC = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/;

/** The value read as the schema's scalar type, where Jackson would read it so; otherwise the value unchanged. */
function scalar(schema: Schema, value: unknown): unknown {
  const t = types(schema);
  if (t.length === 0) return value;
  if (t.includes('integer') && !t.includes('string')) {
    if (typeof value === 'number' && Number.isFinite(value) && !Number.isInteger(value)) return Math.trunc(value);
    if (typeof value === 'string' && NUMERIC.test(value)) {
      const n = Number(value);
      if (Number.isFinite(n)) return Math.trunc(n);
    }
    return value;
  }
  if (t.includes('number') && !t.includes('string')) {
    if (typeof value === 'string' && NUMERIC.test(value)) {
      const n = Number(value);
      if (Number.isFinite(n)) return n;
    }
    return value;
  }
  if (t.includes('boolean') && !t.includes('string') && typeof value === 'string') {
    const lower = value.toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
  }
  return value;
}

/** The epoch milliseconds of a date string the platform's deprecated date fields take (ISO 8601), or undefined. */
function epochMsOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  const ms = Date.parse(value.replace(/ UTC$/, 'Z'));
  return Number.isFinite(ms) ? ms : undefined;
}

/** Reads `value` (the body, or a part of it) as Jackson would for `schema`; returns the value to keep. */
export function lenientValue(schema: unknown, value: unknown, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 64) return value;
  const s = schema as Schema;
  if (value === null || value === undefined) return value;
  const branches = s.anyOf ?? s.oneOf;
  if (Array.isArray(branches)) {
    // A union (most often X | null): read for the first branch of the value's own kind, else the first scalar one.
    const kind = Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : null;
    const branch = kind ? branches.find((b) => types(b).includes(kind)) : branches.find((b) => types(b).some((t) => t !== 'null'));
    return branch ? lenientValue(branch, value, depth + 1) : value;
  }
  if (Array.isArray(s.allOf)) {
    let v: unknown = value;
    for (const part of s.allOf) v = lenientValue(part, v, depth + 1);
    return v;
  }
  if (Array.isArray(value)) {
    if (types(s).includes('array') && s.items && typeof s.items === 'object' && !Array.isArray(s.items)) {
      for (let i = 0; i < value.length; i++) value[i] = lenientValue(s.items, value[i], depth + 1);
    }
    return value;
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (s.properties) {
      for (const [name, property] of Object.entries(s.properties)) {
        if (!(name in record) || record[name] === null) renameAlias(property, name, record);
        if (!(name in record)) {
          const flat = [property, ...(property.anyOf ?? property.oneOf ?? [])].find((b) => b['x-flat'] && b.properties);
          if (flat) gatherFlat(flat.properties!, name, record);
        }
        if (name in record) record[name] = lenientValue(property, record[name], depth + 1);
      }
    }
    if (s.additionalProperties === false && s.properties && !s.patternProperties) {
      // A closed object still ignores fields it does not know, as Jackson does (the platform does not fail on them).
      for (const key of Object.keys(record)) if (!(key in s.properties)) delete record[key];
    }
    if (s.patternProperties || (s.additionalProperties && typeof s.additionalProperties === 'object')) {
      const inner = (
        s.additionalProperties && typeof s.additionalProperties === 'object' ? s.additionalProperties : Object.values(s.patternProperties ?? {})[0]
      ) as Schema;
      for (const key of Object.keys(record)) if (!s.properties || !(key in s.properties)) record[key] = lenientValue(inner, record[key], depth + 1);
    }
    return value;
  }
  return scalar(s, value);
}

/** Moves the first alias the body has onto the property `name` (absent or null); a date alias is read as epoch ms. */
function renameAlias(property: Schema, name: string, record: Record<string, unknown>): void {
  // A nullable property may hold its names on the branch that is not null.
  const branches = [property, ...(property.anyOf ?? property.oneOf ?? [])];
  const aliases = branches.flatMap((b) => b['x-aliases'] ?? []);
  const dateAliases = branches.flatMap((b) => b['x-date-aliases'] ?? []);
  for (const alias of aliases) {
    if (alias in record && record[alias] !== null && record[alias] !== undefined) {
      record[name] = asShapeOf(property, record[alias]);
      delete record[alias];
      return;
    }
  }
  for (const alias of dateAliases) {
    if (alias in record && record[alias] !== null && record[alias] !== undefined) {
      // A date that cannot be read is handed on as it is, so that the property's own type refuses it (a 400).
      record[name] = epochMsOf(record[alias]) ?? record[alias];
      delete record[alias];
      return;
    }
  }
}

/**
 * An alias names one value where the property takes a list (`ruleUuid` for `associatedUuids`), or a list of one
 * where it takes one value (`deviceUuids` for `deviceUuid`): the value is wrapped, or the list of one unwrapped.
 */
function asShapeOf(property: Schema, value: unknown): unknown {
  const takesList = types(property).includes('array') || (property.anyOf ?? property.oneOf ?? []).some((b) => types(b).includes('array'));
  if (takesList && !Array.isArray(value)) return [value];
  if (!takesList && Array.isArray(value) && value.length === 1) return value[0];
  return value;
}

/**
 * An object property that clients may send flat, its fields at the top of the body (`{name, address}` for
 * `{location: {name, address}}`): the body's fields that the object declares move into it.
 */
function gatherFlat(properties: Record<string, Schema>, name: string, record: Record<string, unknown>): void {
  const inner: Record<string, unknown> = {};
  for (const key of Object.keys(properties)) {
    if (key in record) {
      inner[key] = record[key];
      delete record[key];
    }
  }
  if (Object.keys(inner).length > 0) record[name] = inner;
}

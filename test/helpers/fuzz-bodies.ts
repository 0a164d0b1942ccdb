/**
 * Request bodies for fuzzing an operation from its OpenAPI request schema: schema-derived ones (valid,
 * minimal, each field wrong in turn, each required field missing, random values) and hostile raw ones
 * (not JSON, not an object, deep nesting, prototype keys, NUL bytes, invalid UTF-8, huge numbers).
 * A seeded generator keeps every run's bodies the same.
 */

export interface FuzzBody {
  label: string;
  contentType: string;
  payload: string | Buffer;
}

type Schema = Record<string, any>;

/** A small deterministic generator (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const RUUID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const HOSTILE_VALUES: unknown[] = [
  null,
  -1,
  0,
  1.5,
  1e308,
  Number.MIN_SAFE_INTEGER - 2,
  '',
  '\u0000',
  'nul\u0000inside',
  'x'.repeat(20_000),
  '\ud800',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ☃',
  "' OR 1=1 --",
  '../../../../etc/passwd',
  '<script>alert(1)</script>',
  true,
  [],
  [null],
  {},
  { $gt: '' },
];

const HOSTILE_RAW: Array<[string, string | Buffer]> = [
  ['empty', ''],
  ['null', 'null'],
  ['array', '[]'],
  ['string', '"text"'],
  ['number', '123'],
  ['true', 'true'],
  ['truncated', '{"a":'],
  ['not JSON', 'hello world'],
  ['trailing garbage', '{}}'],
  ['deep nesting', '['.repeat(5000) + ']'.repeat(5000)],
  ['deep object nesting', '{"a":'.repeat(2000) + '1' + '}'.repeat(2000)],
  ['__proto__', '{"__proto__":{"polluted":true}}'],
  ['constructor.prototype', '{"constructor":{"prototype":{"polluted":true}}}'],
  ['huge number', '{"maxResults":1' + '0'.repeat(400) + '}'],
  ['duplicate keys', '{"a":1,"a":2}'],
  ['BOM', '\ufeff{}'],
  ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d])],
  ['NUL byte raw', Buffer.from('{"a":"\u0000"}')],
];

export class BodyGenerator {
  constructor(
    private readonly random: () => number,
    /** Identifiers of real records, used for fields that look like ids, so that deeper code paths run. */
    private readonly ids: string[] = [],
  ) {}

  private pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.random() * list.length)];
  }

  private ruuid(): string {
    if (this.ids.length > 0 && this.random() < 0.7) return this.pick(this.ids);
    return Array.from({ length: 22 }, () => this.pick([...RUUID_CHARS])).join('');
  }

  /** A value the schema accepts (as far as this generator knows schemas); `full` fills optional fields too. */
  value(schema: Schema | undefined, full: boolean, depth = 0): unknown {
    if (!schema || depth > 6) return null;
    if ('const' in schema) return schema.const;
    if (schema.enum) return this.pick(schema.enum);
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (alternatives) {
      const nonNull = alternatives.filter((s: Schema) => s.type !== 'null');
      return this.value(nonNull.length > 0 ? this.pick(nonNull) : alternatives[0], full, depth + 1);
    }
    if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s: Schema) => this.value(s, full, depth + 1)));
    const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
    switch (type) {
      case 'string': {
        if (schema.pattern?.includes('{22}')) return this.ruuid();
        if (schema.format === 'email') return 'someone@example.com';
        if (schema.format === 'uri' || schema.format === 'url') return 'https://example.com/hook';
        if (schema.format === 'date-time') return new Date(1_700_000_000_000).toISOString();
        const min = schema.minLength ?? 1;
        const max = Math.min(schema.maxLength ?? 12, 40);
        const length = Math.max(min, Math.min(max, 1 + Math.floor(this.random() * 10)));
        return Array.from({ length }, () => this.pick([...'abcdefghij0123456789'])).join('');
      }
      case 'integer':
      case 'number': {
        const min = schema.minimum ?? schema.exclusiveMinimum ?? 0;
        const max = schema.maximum ?? schema.exclusiveMaximum ?? min + 1000;
        const n = min + this.random() * (max - min);
        return type === 'integer' ? Math.max(min, Math.min(max, Math.round(n))) : n;
      }
      case 'boolean':
        return this.random() < 0.5;
      case 'array': {
        const length = Math.max(schema.minItems ?? 0, full ? 2 : 0);
        return Array.from({ length: Math.min(length, schema.maxItems ?? length) }, () => this.value(schema.items, full, depth + 1));
      }
      case 'object': {
        const out: Record<string, unknown> = {};
        const required = new Set<string>(schema.required ?? []);
        for (const [key, sub] of Object.entries<Schema>(schema.properties ?? {})) {
          if (required.has(key) || full) out[key] = this.value(sub, full, depth + 1);
        }
        return out;
      }
      default:
        return null;
    }
  }

  /** At least `count` bodies for an operation whose JSON body follows `schema`. */
  bodies(schema: Schema | undefined, count: number): FuzzBody[] {
    const json = (label: string, value: unknown): FuzzBody => ({ label, contentType: 'application/json', payload: JSON.stringify(value) });
    const out: FuzzBody[] = [];
    const minimal = (this.value(schema, false) ?? {}) as Record<string, unknown>;
    const full = (this.value(schema, true) ?? {}) as Record<string, unknown>;
    out.push(json('minimal valid', minimal), json('full valid', full));
    const properties = Object.keys(schema?.properties ?? {});
    for (const key of schema?.required ?? []) {
      const { [key]: _, ...rest } = full;
      out.push(json(`without required ${key}`, rest));
    }
    out.push(json('an undeclared field', { ...full, undeclaredField: 'x' }));
    // Each field wrong in turn, cycling through the hostile values.
    let h = 0;
    for (const key of properties) {
      for (let i = 0; i < 3; i++) {
        const bad = HOSTILE_VALUES[h++ % HOSTILE_VALUES.length];
        out.push(json(`${key} = ${JSON.stringify(bad)?.slice(0, 30)}`, { ...full, [key]: bad }));
      }
    }
    for (const [label, payload] of HOSTILE_RAW) out.push({ label: `raw ${label}`, contentType: 'application/json', payload });
    out.push({ label: 'text/plain', contentType: 'text/plain', payload: JSON.stringify(full) });
    out.push({ label: 'form-encoded', contentType: 'application/x-www-form-urlencoded', payload: 'a=1&b=2' });
    out.push({ label: 'multipart without boundary', contentType: 'multipart/form-data', payload: 'x' });
    out.push({
      label: 'multipart cut short',
      contentType: 'multipart/form-data; boundary=B',
      payload: '--B\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG',
    });
    out.push({ label: 'multipart empty form', contentType: 'multipart/form-data; boundary=B', payload: '--B--\r\n' });
    // Deeper fields: each nested field (in objects, arrays and maps) hostile in turn, and each number at any
    // depth at its bounds and at the bounds of what a store or a date can hold.
    const nested = leafPaths(schema).filter((leaf) => leaf.path.length > 1);
    for (const leaf of nested) {
      const bad = HOSTILE_VALUES[h++ % HOSTILE_VALUES.length];
      out.push(json(`${leaf.path.join('.')} = ${JSON.stringify(bad)?.slice(0, 30)}`, withValueAt(full, leaf.path, bad)));
    }
    for (const leaf of leafPaths(schema).filter((l) => l.type === 'integer' || l.type === 'number')) {
      for (const n of boundaryNumbers(leaf.schema)) out.push(json(`${leaf.path.join('.')} = ${n}`, withValueAt(full, leaf.path, n)));
    }
    // Then random values: the whole body, or one field, replaced by a hostile value.
    while (out.length < count) {
      const body = { ...(this.value(schema, this.random() < 0.5) as Record<string, unknown>) };
      if (properties.length > 0 && this.random() < 0.6) body[this.pick(properties)] = this.pick(HOSTILE_VALUES);
      out.push(json('random', body));
    }
    return out;
  }
}

/** The numbers at a number field's bounds, and at the bounds of what a database integer and a date can hold. */
function boundaryNumbers(schema: Schema): number[] {
  const bounds = [schema.minimum, schema.maximum, schema.exclusiveMinimum, schema.exclusiveMaximum].filter((n): n is number => typeof n === 'number');
  const wide = [Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 8.64e15, -8.64e15, 2 ** 31, -(2 ** 31) - 1, 2 ** 63];
  return [...new Set([...bounds, ...bounds.map((n) => n + 1), ...bounds.map((n) => n - 1), ...wide])];
}

interface Leaf {
  /** Property names, `0` for an array's first item, `key` for a map's value. */
  path: string[];
  type: string | undefined;
  schema: Schema;
}

/** Every field of a schema below its top (properties, array items, map values), to a depth of five. */
function leafPaths(schema: Schema | undefined, path: string[] = [], out: Leaf[] = []): Leaf[] {
  if (!schema || path.length > 5) return out;
  const alternatives: Schema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    const nonNull = alternatives.find((s) => s.type !== 'null');
    return nonNull ? leafPaths(nonNull, path, out) : out;
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  if (path.length > 0) out.push({ path, type, schema });
  if (type === 'object') {
    for (const [key, sub] of Object.entries<Schema>(schema.properties ?? {})) leafPaths(sub, [...path, key], out);
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object') leafPaths(schema.additionalProperties, [...path, 'key'], out);
    for (const sub of Object.values<Schema>(schema.patternProperties ?? {})) leafPaths(sub, [...path, 'key'], out);
  }
  if (type === 'array' && schema.items && typeof schema.items === 'object') leafPaths(schema.items, [...path, '0'], out);
  return out;
}

/** A copy of `body` with `value` at `path` (`0` an array's first item), making the objects and arrays on the way. */
export function withValueAt(body: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [step, ...rest] = path;
  if (step === '0') {
    const items = Array.isArray(body) ? [...body] : [];
    items[0] = withValueAt(items[0], rest, value);
    return items;
  }
  const object = body && typeof body === 'object' && !Array.isArray(body) ? { ...(body as Record<string, unknown>) } : {};
  object[step] = withValueAt(object[step], rest, value);
  return object;
}

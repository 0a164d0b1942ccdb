/**
 * Writes TypeBox source for a catalogue schema from its field names and types only (no descriptions or
 * examples are carried over): objects, arrays, enums, strings (RUUIDs as `Ruuid()`), numbers, booleans.
 * References are followed to a bounded depth; deeper or untyped parts become `Type.Unknown()`.
 * An id field of a request (a RUUID, or a name that says id) gets a placeholder its author must replace:
 * `RefUuid('TODO_KIND')` or `NotRef('TODO_REASON', ...)`, which do not compile until a record kind or a reason
 * of src/schemas/record-kinds.ts is chosen (the audit of test/e2e/http/openapi-document.test.ts wants one).
 */
export interface CatalogueSchema {
  type?: string;
  format?: string;
  enum?: unknown[];
  items?: CatalogueSchema;
  properties?: Record<string, CatalogueSchema>;
  required?: string[];
  allOf?: CatalogueSchema[];
  $ref?: string;
  additionalProperties?: boolean | CatalogueSchema;
  /** Read, never written out. */
  description?: string;
}

const ENVELOPE = new Set(['error', 'errorMsg', 'warningMsg']);
const MAX_DEPTH = 4;
const quote = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** A field name that says it holds ids: the same rule as the audit of /openapi.json. */
export const ID_NAME = /(?:^ids?|Ids?|^uuids?|Uuids?|ID|IDs)$/;
/** What a request's id field is written as until its author chooses its kind or why it names none. */
export const REF_PLACEHOLDER = { ruuid: "RefUuid('TODO_KIND')", other: "NotRef('TODO_REASON', Type.String())" } as const;

export class TypeBoxWriter {
  constructor(private readonly components: Record<string, CatalogueSchema>) {}

  resolve(schema: CatalogueSchema): CatalogueSchema {
    let s = schema;
    for (let i = 0; i < 20 && s.$ref; i++) s = this.components[s.$ref.split('/').pop()!] ?? {};
    if (s.allOf) {
      const parts = s.allOf.map((p) => this.resolve(p));
      return {
        type: 'object',
        properties: Object.assign({}, ...parts.map((p) => p.properties ?? {}), s.properties ?? {}),
        required: parts.flatMap((p) => p.required ?? []).concat(s.required ?? []),
      };
    }
    return s;
  }

  /**
   * The TypeBox expression of one schema. `response`: fields are `Field(...)` (optional and nullable). `name`:
   * the field's, which says (in a request) whether a string is an id.
   */
  expression(schema: CatalogueSchema, response: boolean, depth = 0, indent = '  ', name = ''): string {
    const s = this.resolve(schema);
    if (s.enum && s.enum.every((v) => typeof v === 'string')) {
      return `Type.Union([${(s.enum as string[]).map((v) => `Type.Literal(${quote(v)})`).join(', ')}])`;
    }
    switch (s.type) {
      case 'string':
        if (!response && s.format === 'RUUID') return REF_PLACEHOLDER.ruuid;
        if (!response && ID_NAME.test(name)) return REF_PLACEHOLDER.other;
        return s.format === 'RUUID' ? 'Ruuid()' : 'Type.String()';
      case 'integer':
        return 'Type.Integer()';
      case 'number':
        return 'Type.Number()';
      case 'boolean':
        return 'Type.Boolean()';
      case 'array':
        return `Type.Array(${s.items ? this.expression(s.items, response, depth + 1, indent, name) : 'Type.Unknown()'})`;
      case 'object':
      case undefined:
        if (!s.properties || depth >= MAX_DEPTH) return s.type === 'object' ? 'Type.Record(Type.String(), Type.Unknown())' : 'Type.Unknown()';
        return this.object(s, response, depth + 1, indent + '  ');
      default:
        return 'Type.Unknown()';
    }
  }

  /** `Type.Object({...})` of a schema's properties, the envelope's left out (ResponseOf adds it). */
  object(schema: CatalogueSchema, response: boolean, depth = 0, indent = '  '): string {
    const s = this.resolve(schema);
    const required = new Set(s.required ?? []);
    const fields = Object.entries(s.properties ?? {})
      .filter(([name]) => !(response && depth <= 1 && ENVELOPE.has(name)))
      .map(([name, field]) => {
        const key = IDENTIFIER.test(name) ? name : quote(name);
        const value = this.expression(field, response, depth, indent, name);
        const wrapped = response ? `Field(${value})` : required.has(name) ? value : `Type.Optional(${value})`;
        return `${indent}${key}: ${wrapped},`;
      });
    if (fields.length === 0) return 'Type.Object({})';
    return `Type.Object({\n${fields.join('\n')}\n${indent.slice(2)}})`;
  }
}

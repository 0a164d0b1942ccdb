import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/lib/repo-root.js';
import type { Gatehouse } from '../../src/app.js';

/**
 * The response walk (issue 33): every JSON 200 answer a test server gives to an operation of the platform's
 * catalogue is checked against the catalogue's response schema for its path, wherever the e2e suite calls it,
 * with no server of its own. A violation is a kind and where it is (`null /org/name`; array items and map keys
 * are `*`):
 *   type        a value of another JSON type (a number sent as a string)
 *   enum        a value outside the field's enum
 *   null        null where the catalogue's field is not nullable
 *   undeclared  a field the catalogue's object does not have (its objects are closed here, as the clients'
 *               generated models are; a free-form object of the catalogue stays open)
 *   required    a field the catalogue requires, absent
 * Two Java types the catalogue writes its own way are read as Jackson sends them: a byte[] (an array of
 * `format: byte` strings) is one base64 string, and an Object (a bare `type: object`) any value.
 * A oneOf (with or without a discriminator) takes the branch its discriminator's mapping names, else the branch
 * the value fits best. A field Gatehouse's own /openapi.json marks `x-gatehouse-own` (`Own()` of
 * src/schemas/common.ts: the spec names it) is not undeclared.
 * test/fixtures/response-walk-known.json names the e2e folders surveyed (`folders`) and the violations each
 * operation still has (`operations`; these lists only shrink). In a test file of a surveyed folder, a violation
 * the list does not name fails the server's close. Elsewhere it fails nothing yet: it is written under
 * .gatehouse/response-walk/ (`<pid>.unsurveyed.json`) until its folder is surveyed. GATEHOUSE_RESPONSE_WALK=record
 * fails nothing and writes there what is new (`<pid>.unknown.json`) and what was walked (`<pid>.walked.json`).
 */

interface Schema {
  $ref?: string;
  type?: string;
  nullable?: boolean;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
}

/** A schema with its $ref followed and its allOf merged: what a value is checked against. */
interface Shape {
  type?: string;
  nullable: boolean;
  enum?: unknown[];
  properties: Map<string, Schema>;
  /** A schema for undeclared keys (a map), true for a free-form object, false for a closed one. */
  additional: Schema | boolean;
  required: string[];
  items?: Schema;
  /** An array of `format: byte` strings: how the catalogue writes a Java byte[], which Jackson sends as one base64 string. */
  bytes?: boolean;
  branches?: Shape[];
  discriminator?: { propertyName: string; mapping: Map<string, Shape> };
}

const CATALOGUE = join(REPO_ROOT, '../shared/reference/platform-openapi.json');
const KNOWN_FILE = join(REPO_ROOT, 'test/fixtures/response-walk-known.json');
const OUT_DIR = join(REPO_ROOT, '.gatehouse/response-walk');

interface Catalogue {
  components: { schemas: Record<string, Schema> };
  byPath: Map<string, { operationId: string; schema: Schema }>;
}

let catalogue: Catalogue | null | undefined;

/** The catalogue's 200 answer schema of each POST path, read once per process; null when it is not at hand. */
function loadCatalogue(): Catalogue | null {
  if (catalogue !== undefined) return catalogue;
  if (!existsSync(CATALOGUE)) {
    process.stderr.write(`\n*** response walk SKIPPED: the shared reference not at hand (${CATALOGUE}) ***\n\n`);
    return (catalogue = null);
  }
  const doc = JSON.parse(readFileSync(CATALOGUE, 'utf8'));
  const byPath = new Map<string, { operationId: string; schema: Schema }>();
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    const schema = item.post?.responses?.['200']?.content?.['application/json']?.schema;
    if (schema) byPath.set(path, { operationId: item.post.operationId, schema });
  }
  return (catalogue = { components: doc.components, byPath });
}

function deref(schema: Schema, seen = 0): Schema {
  if (!schema.$ref) return schema;
  if (seen > 20) throw new Error(`$ref loop at ${schema.$ref}`);
  // A $ref to a schema the catalogue does not define (it has a few) says nothing: any value passes.
  return deref(loadCatalogue()!.components.schemas[schema.$ref.split('/').pop()!] ?? {}, seen + 1);
}

const shapes = new WeakMap<Schema, Shape>();

/** The shape of a schema, made once per schema object. */
function shapeOf(schema: Schema): Shape {
  let shape = shapes.get(schema);
  if (shape) return shape;
  const s = deref(schema);
  shape = shapes.get(s);
  if (!shape) {
    // A bare `type: object` (no fields, no map, no parts) is how the catalogue writes a Java Object: any value.
    const javaObject = s.type === 'object' && !s.properties && s.additionalProperties === undefined && !s.allOf && !s.oneOf;
    shape = {
      type: javaObject ? undefined : (s.type ?? (s.properties ? 'object' : undefined)),
      nullable: s.nullable === true,
      enum: s.enum,
      properties: new Map(Object.entries(s.properties ?? {})),
      additional: s.additionalProperties ?? (!s.properties && !s.allOf?.length && !s.oneOf),
      required: [...(s.required ?? [])],
      items: s.items,
      bytes: s.type === 'array' && s.items !== undefined && (deref(s.items) as { format?: string }).format === 'byte',
    };
    shapes.set(s, shape);
    // allOf parts add their fields (a branch's allOf names its own fields beside the base's).
    for (const part of s.allOf ?? []) {
      const p = shapeOf(part);
      for (const [name, field] of p.properties) shape.properties.set(name, field);
      shape.required.push(...p.required);
      if (p.additional !== false && shape.additional === false && p.properties.size === 0) shape.additional = p.additional;
    }
    if (s.oneOf) {
      const base = shape;
      // Each branch answers with the base's fields too.
      shape.branches = s.oneOf.map((b) => {
        const branch = shapeOf(b);
        return {
          ...branch,
          properties: new Map([...base.properties, ...branch.properties]),
          required: [...base.required, ...branch.required],
          branches: undefined,
        };
      });
      if (s.discriminator) {
        const mapping = new Map<string, Shape>();
        for (const [value, ref] of Object.entries(s.discriminator.mapping ?? {})) {
          const at = s.oneOf.findIndex((b) => b.$ref === ref);
          if (at >= 0) mapping.set(value, shape.branches[at]!);
        }
        shape.discriminator = { propertyName: s.discriminator.propertyName, mapping };
      }
    }
  }
  shapes.set(schema, shape);
  return shape;
}

const TYPE_CHECKS: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === 'number',
  boolean: (v) => typeof v === 'boolean',
  array: (v) => Array.isArray(v),
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
};

/** Adds the violations of a value to `out`. */
function check(shape: Shape, value: unknown, path: string, out: string[]): void {
  if (value === null) {
    if (!shape.nullable) out.push(`null ${path || '/'}`);
    return;
  }
  if (shape.branches) {
    const named = shape.discriminator?.mapping.get(String((value as Record<string, unknown>)?.[shape.discriminator.propertyName]));
    let best: string[] | undefined;
    for (const branch of named ? [named] : shape.branches) {
      const found: string[] = [];
      check(branch, value, path, found);
      if (!best || found.length < best.length) best = found;
      if (best.length === 0) break;
    }
    out.push(...best!);
    return;
  }
  if (shape.bytes && typeof value === 'string') return;
  if (shape.type && TYPE_CHECKS[shape.type] && !TYPE_CHECKS[shape.type]!(value)) {
    out.push(`type ${path || '/'}`);
    return;
  }
  if (shape.enum && !shape.enum.includes(value)) out.push(`enum ${path}`);
  if (Array.isArray(value)) {
    if (shape.items) for (const item of value) check(shapeOf(shape.items), item, `${path}/*`, out);
    return;
  }
  if (typeof value !== 'object') return;
  const record = value as Record<string, unknown>;
  for (const [name, field] of Object.entries(record)) {
    const declared = shape.properties.get(name);
    if (declared) check(shapeOf(declared), field, `${path}/${name}`, out);
    else if (typeof shape.additional === 'object') check(shapeOf(shape.additional), field, `${path}/*`, out);
    else if (shape.additional === false) out.push(`undeclared ${path}/${name}`);
  }
  for (const name of shape.required) if (!(name in record)) out.push(`required ${path}/${name}`);
}

/** The spec's common response envelope, which some answers of the catalogue leave out. */
const ENVELOPE: Record<string, Schema> = {
  error: { type: 'boolean', nullable: true },
  errorMsg: { type: 'string', nullable: true },
  warningMsg: { type: 'string', nullable: true },
};
const answerShapes = new Map<string, Shape>();

/** A shape with the envelope's fields, in each of its oneOf branches too (an answer of either branch has them). */
function withEnvelope(shape: Shape): Shape {
  const branches = shape.branches?.map(withEnvelope);
  const discriminator = shape.discriminator && {
    propertyName: shape.discriminator.propertyName,
    mapping: new Map([...shape.discriminator.mapping].map(([value, branch]) => [value, branches?.[shape.branches!.indexOf(branch)] ?? withEnvelope(branch)])),
  };
  return { ...shape, properties: new Map([...Object.entries(ENVELOPE), ...shape.properties]), branches, discriminator };
}

/** The shape of an operation's answer: its catalogue schema's, with the envelope's fields. */
function answerShape(operationId: string, schema: Schema): Shape {
  let shape = answerShapes.get(operationId);
  if (!shape) {
    shape = withEnvelope(shapeOf(schema));
    answerShapes.set(operationId, shape);
  }
  return shape;
}

/** Every violation seen in this process, by operationId; and the path each operationId was called at. */
const seen = new Map<string, Set<string>>();
const pathOf = new Map<string, string>();
/** The /openapi.json of the last server watched (made only when a violation is new), and the one made. */
let openapi: (() => unknown) | undefined;
let openapiDoc: { paths: Record<string, any> } | undefined;
/** The operations walked in this process, and how many answers. */
const walkedOps = new Set<string>();
let walked = 0;

function record(path: string, operationId: string, schema: Schema, body: string): void {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return;
  }
  walked++;
  walkedOps.add(operationId);
  const found: string[] = [];
  try {
    check(answerShape(operationId, schema), json, '', found);
  } catch (e) {
    // The walk never breaks an answer: a schema it cannot read is a violation of its own.
    found.push(`unwalkable ${(e as Error).message}`);
  }
  if (found.length === 0) return;
  let set = seen.get(operationId);
  if (!set) seen.set(operationId, (set = new Set()));
  pathOf.set(operationId, path);
  for (const v of found) set.add(v);
}

/**
 * Watches a test server's answers: a listener put before Fastify's own wraps `end` of each POST to a catalogue
 * path and checks the body of a JSON 200 answer as it leaves.
 */
export function walkResponses(http: Gatehouse['http']): void {
  const cat = loadCatalogue();
  if (!cat) return;
  openapi = () => http.swagger();
  http.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') return;
    const path = (req.url ?? '').split('?')[0]!;
    const op = cat.byPath.get(path);
    if (!op) return;
    const end = res.end;
    res.end = function (this: ServerResponse, ...args: unknown[]) {
      const body = args[0];
      // Fastify sends a JSON answer whole, in one end() (its headers go through writeHead, unseen by getHeader).
      if (res.statusCode === 200 && (typeof body === 'string' || Buffer.isBuffer(body))) record(path, op.operationId, op.schema, body.toString());
      return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
    } as typeof res.end;
  });
}

/**
 * Fails, in a surveyed folder, on violations seen in this process that test/fixtures/response-walk-known.json
 * does not list, after writing them under .gatehouse/response-walk/ (a test server's close calls it).
 */
export function assertResponseWalk(): void {
  const recording = process.env.GATEHOUSE_RESPONSE_WALK === 'record';
  if (recording) writeOut('walked', { answers: walked, operations: [...walkedOps].sort() });
  if (seen.size === 0) return;
  const known: { folders: string[]; operations: Record<string, string[]> } = JSON.parse(readFileSync(KNOWN_FILE, 'utf8'));
  // Node's runner runs each test file in a process of its own: the file is argv[1].
  const folder = /\/test\/e2e\/([^/]+)\//.exec(process.argv[1] ?? '')?.[1];
  const surveyed = recording || (folder !== undefined && known.folders.includes(folder));
  const unknown: Record<string, string[]> = {};
  for (const [operationId, violations] of seen) {
    const allowed = known.operations[operationId] ?? [];
    const extra = [...violations].filter((v) => !allowed.includes(v) && !isOwn(operationId, v)).sort();
    if (extra.length > 0) unknown[operationId] = extra;
  }
  if (!surveyed) {
    if (Object.keys(unknown).length > 0) writeOut('unsurveyed', unknown);
    return;
  }
  if (Object.keys(unknown).length === 0) return;
  writeOut('unknown', unknown);
  if (recording) return;
  // Reported once: a later server of the same file fails only on what is new.
  for (const op of Object.keys(unknown)) seen.delete(op);
  const lines = Object.entries(unknown).flatMap(([op, vs]) => vs.map((v) => `  ${op}: ${v}`));
  throw new Error(`answers that break the catalogue's response schema (of ${walked} walked; see test/helpers/response-walk.ts):\n${lines.join('\n')}`);
}

function writeOut(what: string, value: unknown): void {
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(join(OUT_DIR, `${process.pid}.${what}.json`), JSON.stringify(value, null, 1));
}

/** Whether a violation is an undeclared field that Gatehouse's /openapi.json marks as its own. */
function isOwn(operationId: string, violation: string): boolean {
  const [kind, at] = violation.split(' ') as [string, string];
  if (kind !== 'undeclared' || !openapi) return false;
  const path = pathOf.get(operationId)!;
  // Made once per process (about 0.3 s of CPU each time): every test server of a file serves the same schemas.
  if (!openapiDoc?.paths[path]) openapiDoc = openapi() as { paths: Record<string, any> };
  const schema = openapiDoc.paths[path]?.post?.responses?.['200']?.content?.['application/json']?.schema;
  return ownAt(schema, at.split('/').slice(1));
}

/**
 * Whether the field at `segments` of a schema of /openapi.json is marked own. A nullable object is an anyOf with
 * null; `*` is an array's items or a map's values, and, where the catalogue has a map that Gatehouse's schema
 * writes with a field per key (a listing by partner), any of those fields.
 */
function ownAt(schema: any, segments: string[]): boolean {
  if (!schema) return false;
  if (segments.length === 0) return schema['x-gatehouse-own'] !== undefined;
  const [segment, ...rest] = segments as [string, ...string[]];
  return [schema, ...(schema.anyOf ?? [])].some((alt) => {
    if (segment !== '*') return ownAt(alt.properties?.[segment], rest);
    const values = alt.items ?? (typeof alt.additionalProperties === 'object' ? alt.additionalProperties : undefined);
    return values ? ownAt(values, rest) : Object.values<any>(alt.properties ?? {}).some((field) => ownAt(field, rest));
  });
}

import { MEDIA_URI_KEYWORD } from '../schemas/common.js';
import type { JsonSchema } from '../schemas/json-schema.js';

/**
 * Media host URIs in answers (src/schemas/common.ts MediaUri): where a response schema holds them, found once per
 * operation, and made absolute in each answer. A stored path (`/media/clips/<clip>/video`) becomes
 * `<public media base>/media/clips/<clip>/video`; a value that is already absolute is left as it is.
 */

/** One step from an answer towards its URI fields: a property, every item of an array, every value of a map. */
type Step = { property: string } | { items: true } | { values: true };
export type MediaUriField = readonly Step[];

/** The URI fields of a response schema, at any depth; a union (a nullable field) is walked through each branch. */
export function mediaUriFields(schema: JsonSchema, steps: readonly Step[] = [], found: MediaUriField[] = [], seen = new Set<JsonSchema>()): MediaUriField[] {
  if (seen.has(schema)) return found;
  seen.add(schema);
  if (schema[MEDIA_URI_KEYWORD] === true) found.push(steps);
  for (const [name, property] of Object.entries(schema.properties ?? {})) mediaUriFields(property, [...steps, { property: name }], found, seen);
  if (schema.items && typeof schema.items === 'object') mediaUriFields(schema.items, [...steps, { items: true }], found, seen);
  const values = [schema.additionalProperties, ...Object.values((schema.patternProperties as Record<string, JsonSchema> | undefined) ?? {})];
  for (const value of values) if (value && typeof value === 'object') mediaUriFields(value as JsonSchema, [...steps, { values: true }], found, seen);
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) mediaUriFields(branch, steps, found, seen);
  seen.delete(schema);
  return found;
}

/** `path` under the media base when it is a path (starts with one `/`); anything else as it is. */
export const absoluteMediaUri = <T>(base: string, path: T): T =>
  (typeof path === 'string' && path.startsWith('/') && !path.startsWith('//') ? base + path : path) as T;

/**
 * An operation's URI fields as one tree: an alert group's page has a dozen of them under the same items, and
 * walking each on its own copied every alert once a field.
 */
export interface MediaUriTree {
  /** A URI ends here. */
  uri: boolean;
  properties: Map<string, MediaUriTree>;
  items?: MediaUriTree;
  values?: MediaUriTree;
}

const branch = (): MediaUriTree => ({ uri: false, properties: new Map() });

export function mediaUriTree(fields: readonly MediaUriField[]): MediaUriTree {
  const root = branch();
  for (const steps of fields) {
    let node = root;
    for (const step of steps) {
      if ('property' in step) {
        let next = node.properties.get(step.property);
        if (!next) node.properties.set(step.property, (next = branch()));
        node = next;
      } else if ('items' in step) node = node.items ??= branch();
      else node = node.values ??= branch();
    }
    node.uri = true;
  }
  return root;
}

/**
 * The value with the URIs of the tree made absolute, in one walk: each object on the way copied once, never
 * changed in place (a handler may answer a record that something else still holds).
 */
function rewrite(value: unknown, node: MediaUriTree, base: string): unknown {
  const v = node.uri ? absoluteMediaUri(base, value) : value;
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return node.items ? v.map((item) => rewrite(item, node.items!, base)) : v;
  const record = v as Record<string, unknown>;
  if (node.values) {
    const values = node.values;
    return Object.fromEntries(
      Object.entries(record).map(([key, item]) => {
        const named = node.properties.get(key);
        return [key, rewrite(named ? rewrite(item, named, base) : item, values, base)];
      }),
    );
  }
  let copy: Record<string, unknown> | null = null;
  for (const [property, child] of node.properties) {
    if (!Object.hasOwn(record, property)) continue;
    copy ??= { ...record };
    copy[property] = rewrite(record[property], child, base);
  }
  return copy ?? record;
}

/** The answer with every URI field made absolute. */
export function absoluteMediaUris(answer: unknown, tree: MediaUriTree, base: string): unknown {
  return rewrite(answer, tree, base);
}

/**
 * The names of the answer properties any registered operation declares `MediaUri` / `MediaUriMap` (filled as the
 * operations register, before any listener opens). A record outside an answer schema (a change on the stream, a
 * change-log page, a webhook body's record) has its URIs found by these names.
 */
const recordUriNames = new Set<string>();

export function rememberMediaUriNames(fields: readonly MediaUriField[]): void {
  for (const steps of fields) {
    const named = steps.filter((step) => 'property' in step).at(-1);
    if (named && 'property' in named) recordUriNames.add(named.property);
  }
}

/** Every path inside a URI field's value (a URI, a list or a map of them) made absolute. */
const absoluteWithin = (value: unknown, base: string): unknown =>
  Array.isArray(value)
    ? value.map((item) => absoluteWithin(item, base))
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, absoluteWithin(item, base)]))
      : absoluteMediaUri(base, value);

/** A record (at any depth) with the media URIs of its known URI fields made absolute; copied, never changed in place. */
export function absoluteRecordMediaUris(value: unknown, base: string): unknown {
  if (Array.isArray(value)) return value.map((item) => absoluteRecordMediaUris(item, base));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, recordUriNames.has(key) ? absoluteWithin(item, base) : absoluteRecordMediaUris(item, base)]),
  );
}

import type { Deps } from '../deps.js';
import { fail } from '../errors.js';
import { RECORD_KINDS, REF_KEYS_KEYWORD, REF_KEYWORD, REF_NOT_FOUND_KEYWORD, type RecordKind } from '../schemas/record-kinds.js';
import type { JsonSchema } from '../schemas/json-schema.js';
import type { ReadSource } from '../store/reader.js';
import type { WriteScope } from '../bus/write.js';

/*
 * Every kind of record a request names by id (src/schemas/record-kinds.ts) has one finder, from the domain
 * that keeps it (`deps.recordFinders`, wired in src/open-deps.ts): the edge resolves a request's ids through
 * them before the handler runs, and a domain checks an id of a record kept by a domain above it the same way
 * (a permission group names locations, a camera names its policy).
 */

/** Which of `uuids` name a record of the kind in the organization (another organization's answer as missing). */
export type RecordFinder = (source: ReadSource, orgUuid: string, uuids: readonly string[]) => Promise<ReadonlySet<string>>;

declare module '../deps.js' {
  interface Deps {
    /** Each record kind's finder, from the domain that keeps it. */
    recordFinders: Readonly<Record<RecordKind, RecordFinder>>;
    /** For each kind, the cleaners of the domains whose records name it: a delete takes the id out of them. */
    recordCleaners: { readonly [K in RecordKind]?: readonly RecordCleaner[] };
  }
}

/** Refuses with NOT_FOUND (`Location <uuid>`) the first of `uuids` that names no record of the kind in the organization. */
export async function requireRecords(
  deps: Pick<Deps, 'recordFinders'>,
  source: ReadSource,
  orgUuid: string,
  kind: RecordKind,
  uuids: readonly string[],
): Promise<void> {
  if (uuids.length === 0) return;
  const found = await deps.recordFinders[kind](source, orgUuid, uuids);
  const missing = uuids.find((uuid) => !found.has(uuid));
  if (missing !== undefined) throw fail('NOT_FOUND', `${RECORD_KINDS[kind]} ${missing}`);
}

/** One step from a body towards its id fields: a property, every item of an array, every value or key of a map. */
type Step = { property: string } | { items: true } | { values: true } | { keys: true };
/** Where a request body holds ids of a kind. */
export interface ReferenceField {
  kind: RecordKind;
  steps: readonly Step[];
  /** The field's own refusal, in the platform's words (`RefUuid(kind, { notFound })`); `{id}` is the id, `{path}` the field. */
  notFound?: string;
}

/**
 * The id fields of a request schema, at any depth, in arrays and in maps: computed once per operation. A union
 * (a nullable field) is walked through each of its branches.
 */
export function referenceFields(schema: JsonSchema, steps: readonly Step[] = [], found: ReferenceField[] = []): ReferenceField[] {
  const notFound = typeof schema[REF_NOT_FOUND_KEYWORD] === 'string' ? { notFound: schema[REF_NOT_FOUND_KEYWORD] as string } : {};
  if (typeof schema[REF_KEYWORD] === 'string') found.push({ kind: schema[REF_KEYWORD] as RecordKind, steps, ...notFound });
  if (typeof schema[REF_KEYS_KEYWORD] === 'string')
    found.push({ kind: schema[REF_KEYS_KEYWORD] as RecordKind, steps: [...steps, { keys: true }], ...notFound });
  for (const [name, property] of Object.entries(schema.properties ?? {})) referenceFields(property, [...steps, { property: name }], found);
  if (schema.items && typeof schema.items === 'object') referenceFields(schema.items, [...steps, { items: true }], found);
  const values = [schema.additionalProperties, ...Object.values((schema.patternProperties as Record<string, JsonSchema> | undefined) ?? {})];
  for (const value of values) if (value && typeof value === 'object') referenceFields(value as JsonSchema, [...steps, { values: true }], found);
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) referenceFields(branch, steps, found);
  return found;
}

/** Each id a body holds at a field, with the field's path as an answer names it (`timeFrames[0].rows[1].promptUuids[2]`). */
function idsAt(value: unknown, steps: readonly Step[], path: string, out: Array<{ id: string; path: string }>): void {
  if (value === null || value === undefined) return;
  if (steps.length === 0) {
    if (typeof value === 'string') out.push({ id: value, path });
    return;
  }
  const [step, ...rest] = steps;
  if ('property' in step) {
    if (typeof value === 'object' && !Array.isArray(value))
      idsAt((value as Record<string, unknown>)[step.property], rest, path ? `${path}.${step.property}` : step.property, out);
  } else if ('items' in step) {
    if (Array.isArray(value)) value.forEach((item, i) => idsAt(item, rest, `${path}[${i}]`, out));
  } else if (typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if ('keys' in step) out.push({ id: key, path: `${path}.${key}` });
      else idsAt(item, rest, `${path}.${key}`, out);
    }
  }
}

/**
 * Refuses a request that names, in any of its id fields, a record of the kind that the caller's organization
 * does not have (another organization's answers exactly as a missing one): NOT_FOUND naming the field, the
 * first such field of the body, or in the field's own words where its schema gives them (`notFound`). One finder call per kind, whatever the number of ids.
 */
export async function checkReferences(
  deps: Pick<Deps, 'recordFinders' | 'store'>,
  orgUuid: string,
  fields: readonly ReferenceField[],
  body: unknown,
): Promise<void> {
  const named = fields.map((field) => {
    const ids: Array<{ id: string; path: string }> = [];
    idsAt(body, field.steps, '', ids);
    return { kind: field.kind, notFound: field.notFound, ids };
  });
  const byKind = new Map<RecordKind, Set<string>>();
  for (const { kind, ids } of named) for (const { id } of ids) (byKind.get(kind) ?? byKind.set(kind, new Set()).get(kind)!).add(id);
  const found = new Map<RecordKind, ReadonlySet<string>>();
  for (const [kind, ids] of byKind) found.set(kind, await deps.recordFinders[kind](deps, orgUuid, [...ids]));
  for (const { kind, notFound, ids } of named) {
    const missing = ids.find(({ id }) => !found.get(kind)!.has(id));
    if (missing)
      throw fail(
        'NOT_FOUND',
        notFound?.replaceAll('{id}', missing.id).replaceAll('{path}', missing.path) ?? `${missing.path}: ${RECORD_KINDS[kind]} ${missing.id}`,
      );
  }
}

/**
 * Takes a deleted record's id out of one domain's records that name it (a user out of a clip's allowed users, an
 * access group out of a lockdown plan), inside the delete's write and announcing each record it changes, so that
 * no record keeps an id that names nothing. The composition root lists each kind's cleaners (src/open-deps.ts).
 */
export type RecordCleaner = (w: WriteScope, uuid: string) => Promise<void>;

/** Runs every cleaner of the kind for a record being deleted, in the delete's own write. */
export async function forgetRecord(deps: Pick<Deps, 'recordCleaners'>, w: WriteScope, kind: RecordKind, uuid: string): Promise<void> {
  for (const clean of deps.recordCleaners[kind] ?? []) await clean(w, uuid);
}

import { Type, type Static, type TNull, type TProperties, type TSchema, type TUnion } from 'typebox';
import { FACET_ID_PATTERN, RUUID_PATTERN } from '../ids.js';

/**
 * A field that may be null (all response fields of the platform are nullable unless stated). Spelled as a
 * type array (`type: ["string", "null"]`) rather than anyOf wherever the schema has a single type: the
 * serializer then needs no validation pass per field to pick a branch.
 */
export const Nullable = <T extends TSchema>(schema: T): TUnion<[T, TNull]> => {
  const { type, enum: values } = schema as { type?: unknown; enum?: unknown };
  if (typeof type === 'string' && type !== 'null') {
    // An enumeration lists null among its values too, or `enum` would still refuse it.
    const nullable = Array.isArray(values) ? { ...schema, type: [type, 'null'], enum: [...values, null] } : { ...schema, type: [type, 'null'] };
    return Type.Unsafe<Static<T> | null>(nullable) as never;
  }
  return Type.Union([schema, Type.Null()]);
};

export const Ruuid = (options: { description?: string } = {}) =>
  Type.String({ pattern: RUUID_PATTERN, description: options.description ?? 'RUUID: URL-safe base-64 UUID (22 characters)' });

export const FacetId = (options: { description?: string } = {}) =>
  Type.String({ pattern: FACET_ID_PATTERN, description: options.description ?? 'device facet id: <RUUID>.<suffix>' });

/** A device named by its uuid or by a facet id of it (`<RUUID>.v0`), as the catalogue's DeviceFacetUuid fields take both. */
export const DeviceRef = (options: { description?: string } = {}) =>
  Type.String({ pattern: '^[A-Za-z0-9_-]{22}(\\.[A-Za-z0-9]+)?$', description: options.description ?? 'device uuid or facet id (<RUUID>.v0)' });

/** The largest distance from the epoch, in milliseconds, that a date can hold (ECMAScript's time range). */
export const MAX_EPOCH_MS = 8.64e15;
/** Epoch milliseconds, bounded to what a date can hold, so that no handler meets an invalid date. */
export const EpochMs = (description = 'epoch milliseconds') => Type.Integer({ description, minimum: -MAX_EPOCH_MS, maximum: MAX_EPOCH_MS });

/**
 * An answer's field that the catalogue's response schema lacks and Gatehouse answers on purpose (`why`: the spec
 * names it). Marked `x-gatehouse-own` in /openapi.json; the response walk of the tests lets it pass.
 */
export const Own = <T extends TSchema>(schema: T, why: string): T => Type.Unsafe<Static<T>>({ ...schema, 'x-gatehouse-own': why }) as unknown as T;

/** A response field: nullable, and may be left out. */
export const Field = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** The common response envelope. */
export const envelope = {
  error: Field(Type.Boolean()),
  errorMsg: Field(Type.String()),
  warningMsg: Field(Type.String()),
};

/** A response schema: the envelope plus the operation's own fields. */
export const ResponseOf = <P extends TProperties>(properties: P, description?: string) =>
  Type.Object({ ...envelope, ...properties }, description ? { description } : {});

/** The body of an operation that takes no parameters: `{}` (extra fields are ignored). */
export const EmptyRequest = Type.Object({}, { description: 'An empty JSON object' });

export const EnvelopeResponse = ResponseOf({});

/** A string of one of `values`: the type is their union, the schema an `enum` (as the catalogue writes enumerations). */
export const StringEnum = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

/**
 * A request property that also takes other names the platform's clients send for it (deprecated or alternate
 * names): the body validator renames them before validation (src/edge/lenient-body.ts). `dates` are names whose
 * value is a date string (ISO 8601) for an epoch-milliseconds property.
 */
export const Alias = <T extends TSchema>(schema: T, names: readonly string[], dates: readonly string[] = []): T =>
  withKeywords(schema, { ...(names.length > 0 ? { 'x-aliases': [...names] } : {}), ...(dates.length > 0 ? { 'x-date-aliases': [...dates] } : {}) });

/** A copy of a schema with more keywords, keeping TypeBox's own non-enumerable marks (`~optional`, `~kind`). */
function withKeywords<T extends TSchema>(schema: T, keywords: Record<string, unknown>): T {
  return Object.assign(Object.create(Object.getPrototypeOf(schema), Object.getOwnPropertyDescriptors(schema)), keywords) as T;
}

/** An object property whose fields clients may also send at the top of the body (src/edge/lenient-body.ts). */
export const Flat = <T extends TSchema>(schema: T): T => withKeywords(schema, { 'x-flat': true });

/**
 * A URI on the media host. Domains build and store it as a path (`/media/...`), independent of where the media
 * host is reached; the edge that answers it makes it absolute with the public media base (src/edge/media-uris.ts),
 * as the platform's clients fetch it as it comes and resolve nothing against a base.
 */
export const MEDIA_URI_KEYWORD = 'x-media-uri';
export const MediaUri = (description: string) => Type.String({ description, [MEDIA_URI_KEYWORD]: true });
/** A map whose values are media host URIs (an alert's clip per device). */
export const MediaUriMap = (description: string) => Type.Record(Type.String(), MediaUri('a URI on the media host'), { description });

import { Type, type TSchema, type TProperties } from 'typebox';
import { FACET_ID_PATTERN, RUUID_PATTERN } from '../ids.js';

/** A field that may be null (all response fields of the platform are nullable unless stated). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Ruuid = (options: { description?: string } = {}) =>
  Type.String({ pattern: RUUID_PATTERN, description: options.description ?? 'RUUID: URL-safe base-64 UUID (22 characters)' });

export const FacetId = (options: { description?: string } = {}) =>
  Type.String({ pattern: FACET_ID_PATTERN, description: options.description ?? 'device facet id: <RUUID>.<suffix>' });

export const EpochMs = (description = 'epoch milliseconds') => Type.Integer({ description });

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

import { Type, type TObject, type TSchema } from 'typebox';
import { Field, Ruuid } from '../../../schemas/common.js';
import { enabling } from '../schemas.js';
import { PARTNERS, type PartnerKind, type PartnerSpec } from './catalogue.js';
import { fieldProperties, serverKept } from './fields.js';

/*
 * What a partner's reads answer: per view, the TypeBox schema of the fields its table entry names (answers of
 * catalogue.ts), and the answer cut to exactly those fields. A stored field the view does not name (a secret the
 * catalogue's type lacks, a field of the other view) is never answered, masked or not.
 */

export type AnswerView = 'settings' | 'v2';

/** IBaseIntegrationType's fields, which every V2 answer has. */
const V2_BASE = ['enabled', 'integration', 'integrationAuditMap', 'orgUuid', 'userUuid'] as const;

function answerSchema(spec: PartnerSpec, names: readonly string[]): TObject {
  const pool: Record<string, TSchema> = {
    ...enabling,
    ...serverKept,
    ...fieldProperties(spec.fields),
    webhookToken: Field(Ruuid({ description: 'names the inbound webhook of the partner' })),
  };
  return Type.Object(Object.fromEntries(names.map((name) => [name, pool[name]!])));
}

const schemas = new Map<string, TObject | null>();

/** The schema of a partner's answer in a view; null when the partner has no such answer. */
export function answerSchemaOf(kind: PartnerKind, view: AnswerView): TObject | null {
  const key = `${kind}:${view}`;
  if (!schemas.has(key)) {
    const spec: PartnerSpec = PARTNERS[kind];
    const names = spec.answers[view];
    schemas.set(key, names ? answerSchema(spec, view === 'v2' ? [...V2_BASE, ...names] : names) : null);
  }
  return schemas.get(key)!;
}

/** The fields of a partner's answer in a view ([] when it has none). */
export const answeredFields = (kind: PartnerKind, view: AnswerView): string[] => Object.keys(answerSchemaOf(kind, view)?.properties ?? {});

/** A partner's settings (all it keeps, secrets masked) as a view answers them; null when the view has no answer. */
export function answerOf(kind: PartnerKind, view: AnswerView, full: Record<string, unknown>): Record<string, unknown> | null {
  const schema = answerSchemaOf(kind, view);
  if (!schema) return null;
  return Object.fromEntries(Object.keys(schema.properties).flatMap((name) => (full[name] === undefined ? [] : [[name, full[name]]])));
}

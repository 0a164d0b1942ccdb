import { Type, type TSchema } from 'typebox';
import { RUUID_PATTERN } from '../ids.js';

/**
 * The kinds of record a request names by id, with the words an answer names each by ("Location <uuid> not
 * found"). A request schema says which kind each id field names (`Ruuid({ ref: 'user' })`, a map's keys with
 * `refKeys`), and one check before the handler runs resolves every such id against the caller's organization
 * (src/records/references.ts). The domain that keeps a kind provides its finder (src/open-deps.ts).
 */
export const RECORD_KINDS = {
  location: 'Location',
  cameraPolicy: 'Camera policy',
  buttonRule: 'Button rule',
  user: 'User',
  permissionGroup: 'Permission group',
  accessGroup: 'Access control group',
  prompt: 'Prompt configuration',
  audioPolicy: 'Audio policy',
  climatePolicy: 'Climate policy',
  occupancyPolicy: 'Occupancy policy',
  proximityPolicy: 'Proximity policy',
  videoIntercomPolicy: 'Video intercom policy',
} as const;
export type RecordKind = keyof typeof RECORD_KINDS;

/** The JSON Schema keywords that carry a field's kind: on an id (`x-ref`) or on a map whose keys are ids (`x-ref-keys`). */
export const REF_KEYWORD = 'x-ref';
export const REF_KEYS_KEYWORD = 'x-ref-keys';

/** A RUUID field that names a record of `kind`. */
export const RefUuid = (kind: RecordKind, description?: string) =>
  Type.String({ pattern: RUUID_PATTERN, description: description ?? `RUUID of a ${RECORD_KINDS[kind].toLowerCase()}`, [REF_KEYWORD]: kind });

/** A map (a JSON object) whose keys are ids of `kind`, each to a value of `value`. */
export const RefMap = <T extends TSchema>(kind: RecordKind, value: T, description?: string) =>
  Type.Record(Type.String(), value, { [REF_KEYS_KEYWORD]: kind, ...(description ? { description } : {}) });

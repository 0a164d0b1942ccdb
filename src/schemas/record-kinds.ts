import { Type, type TSchema } from 'typebox';
import { RUUID_PATTERN } from '../ids.js';

/**
 * The kinds of record a request names by id, with the words an answer names each by ("Location <uuid> not
 * found"). A request schema says which kind each id field names (`RefUuid('user')`, a map's keys with
 * `RefMap('location', ...)`), and one check before the handler runs resolves every such id against the caller's
 * organization (src/records/references.ts). The domain that keeps a kind provides its finder (src/open-deps.ts).
 * An id field that names no record of the caller's organization says why with `NotRef` (below); a test walks
 * /openapi.json and refuses an id field that says neither (test/e2e/http/openapi-document.test.ts).
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
  device: 'Device',
  component: 'Component',
  camera: 'Camera',
  door: 'Door',
  schedule: 'Schedule',
  lockdownPlan: 'Lockdown plan',
} as const;
export type RecordKind = keyof typeof RECORD_KINDS;

/** The JSON Schema keywords that carry a field's kind: on an id (`x-ref`) or on a map whose keys are ids (`x-ref-keys`). */
export const REF_KEYWORD = 'x-ref';
export const REF_KEYS_KEYWORD = 'x-ref-keys';
/** The keyword that carries a field's own refusal (`RefUuid(kind, { notFound })`). */
export const REF_NOT_FOUND_KEYWORD = 'x-ref-not-found';

/**
 * How a reference field is described and refused. `notFound` is what the refusal says is not found, in the
 * platform's words for the field, where they differ from the edge's own (`<field>: <Kind> <id> not found`):
 * `true` is the kind's own word alone ("Location not found"), a string says it (`'Doorbell camera'`); in it `{id}`
 * stands for the id (`'Device {id}'`) and `{path}` for the field (`'{path}: Component composite {id}'`). One place,
 * the schema, instead of a check in each handler.
 */
export interface RefOptions {
  description?: string;
  notFound?: string | true;
}

const refOptions = (options: string | RefOptions | undefined): RefOptions => (typeof options === 'string' ? { description: options } : (options ?? {}));
const notFoundOf = (kind: RecordKind, { notFound }: RefOptions) =>
  notFound === undefined ? {} : { [REF_NOT_FOUND_KEYWORD]: notFound === true ? RECORD_KINDS[kind] : notFound };

/** A RUUID field that names a record of `kind` (a string option is its description). */
export const RefUuid = (kind: RecordKind, options?: string | RefOptions) => {
  const o = refOptions(options);
  return Type.String({
    pattern: RUUID_PATTERN,
    description: o.description ?? `RUUID of a ${RECORD_KINDS[kind].toLowerCase()}`,
    [REF_KEYWORD]: kind,
    ...notFoundOf(kind, o),
  });
};

/** A map (a JSON object) whose keys are ids of `kind`, each to a value of `value`. */
export const RefMap = <T extends TSchema>(kind: RecordKind, value: T, options?: string | RefOptions) => {
  const o = refOptions(options);
  return Type.Record(Type.String(), value, { [REF_KEYS_KEYWORD]: kind, ...(o.description ? { description: o.description } : {}), ...notFoundOf(kind, o) });
};

/**
 * Why an id field of a request is not a reference the edge resolves. Each is a promise the operation keeps:
 * an id of another organization still answers as an unknown one and is stored nowhere.
 */
export const NOT_REF_REASONS = {
  /** The id of the record the request creates, which the caller may choose: it names nothing yet. */
  created: 'the id of the record being created',
  /** An id another system gives (a partner's, an identity provider's, a drive's): nothing of Gatehouse's. */
  external: "an id of another system's",
  /**
   * The record the operation acts on (reads, updates, deletes), when it is of no kind above (a saved clip, a
   * video wall): its handler finds it in the caller's organization and answers NOT_FOUND naming it. A record of
   * a kind is a RefUuid, with the platform's words in `notFound`. In a create that shares the update's shape,
   * the id the new record gets.
   */
  subject: 'the record the operation acts on, which its handler resolves',
  /** A filter of a read: an id that names no record of the organization matches nothing, and nothing keeps it. */
  filter: 'a filter, which matches only records of the organization',
  /** The caller's organization, which the platform's clients echo in bodies: the key says which organization acts. */
  callerOrg: "the caller's organization, which the key decides",
  /**
   * An id its handler resolves with the platform's own answer for an unknown one (listed among failedGuids,
   * cleared, a facet id, a record of a given location), which no refusal of the edge gives; or an id of no kind
   * above. The platform's words alone are no reason: `RefUuid(kind, { notFound })` gives them.
   */
  handler: "resolved by its handler, with the platform's own answer for an unknown id",
  /** Another organization, named on purpose: a partner's client, a support grant's target; its domain checks the relation. */
  otherOrg: 'an organization other than the caller, whose relation its handler checks',
  /** A field the server keeps itself: clients send back what they read, and the request's value is ignored. */
  ignored: 'ignored in a request: the server keeps it',
  /** A page position or an event id a read starts from: an unknown one starts nowhere. */
  cursor: 'a position in a list or a stream',
} as const;
export type NotRefReason = keyof typeof NOT_REF_REASONS;

/**
 * An id field that names no record the edge resolves, and why (`x-ref: false` in /openapi.json). On an array or
 * a map, it speaks for every id it holds.
 */
// The reason is for the reader of the schema (and typed, so that it is one of the above); the document says false.
// The copy keeps TypeBox's own non-enumerable markers (`~optional`, `~kind`), which a spread would drop: an
// optional field would turn required.
export const NotRef = <T extends TSchema>(_reason: NotRefReason, schema: T): T =>
  Object.defineProperties(
    {},
    { ...Object.getOwnPropertyDescriptors(schema), [REF_KEYWORD]: { value: false, enumerable: true, writable: true, configurable: true } },
  ) as T;
